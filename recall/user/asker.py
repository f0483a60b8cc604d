"""A question about the user, asked in the third person, searched for in the first.

The memory holds the user's own words ("I finally moved into the flat in Leith") and
summaries of them; agents ask about the user in the third person: "Which city does Dara
live in?", "the user's employer", "user current city", "用户的职位". Searched for as it is,
the user's name is the question's rarest word: it finds every reply that addresses them
("I'm so sorry, Dara...", "Congratulations, Gwen!"), which then outrank the statement the
question asks for, and "user" finds every summary ("User: ..."). So before the question is
scored, what names the user is read as the first person: the names the memory knows them
by (``user_names`` of :class:`recall.user.now.UserFacts`: those the assistant calls them
by and the user never says, or gives as their own) and "the user" / "用户". A question
about someone else ("Which city does Niamh live in?") is left as it is. A query written
all in lower case ("where does dara work", as agents and people type) has its names in
lower case too: there the user's name is matched in any case, unless it is also a function
word ("Will", "May").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ..text import has_cjk
from ..text.analyzer import is_stopword

__all__ = ["first_person", "name_in"]

# "the user's", "user's", "this user's" -> "my"; "the user" -> "I"; "user ..." at the start
# of a keyword query ("user current city") -> "my ...". A bare "user" inside a question
# ("user research methods") is a word of its own, not the person asked about.
_POSSESSIVE = re.compile(r"\b(?:(?:the|this)\s+)?user['’]s\b", re.IGNORECASE)
_THE_USER = re.compile(r"\b(?:the|this)\s+user\b", re.IGNORECASE)
_KEYWORD_HEAD = re.compile(r"^\s*user\b(?!['’])", re.IGNORECASE)
_ZH_USER = re.compile(r"(?:该|这位|这个)?用户")


def first_person(query: str, user_names: Iterable[str] = ()) -> str:
    """``query`` with what names the user (``user_names``, "the user", "用户") read in the
    first person: "Which city does Dara live in?" -> "Which city does I live in?" (word
    order stays: the keyword leg drops "I", the models read the rest)."""
    out = _POSSESSIVE.sub("my", query)
    out = _THE_USER.sub("I", out)
    out = _KEYWORD_HEAD.sub("my", out)
    out = _ZH_USER.sub("我", out)
    # Longest first: "Wei Ling" before "Wei".
    for name in sorted({n for n in user_names if n.strip()}, key=len, reverse=True):
        # A CJK name is a run of characters ("周晓雯的"); a Latin one a word ("Dara's").
        if has_cjk(name):
            out = re.sub(re.escape(name) + r"(的)?", _as_me("我的", "我"), out)
        else:
            out = _latin_name(name, query, r"(['’]s)?").sub(_as_me("my", "I"), out)
    return out


def name_in(name: str, query: str) -> bool:
    """Whether the Latin ``name`` stands in ``query`` as its own word(s): as written, or
    in any case in an all-lowercase query unless it is also a function word ("Will",
    "May"). False for a CJK name (it is matched as a run of characters elsewhere)."""
    return not has_cjk(name) and _latin_name(name, query).search(query) is not None


def _latin_name(name: str, query: str, suffix: str = "") -> re.Pattern[str]:
    """The pattern of the Latin ``name`` as a word in ``query`` (then ``suffix``): in any
    case when the query has no capital anywhere (names are typed in lower case too)."""
    fold = query == query.lower() and not is_stopword(name)
    return re.compile(r"\b" + re.escape(name) + suffix + r"\b", re.IGNORECASE if fold else 0)


def _as_me(mine: str, me: str) -> Callable[[re.Match[str]], str]:
    def sub(m: re.Match[str]) -> str:
        return mine if m.group(1) else me  # the possessive ("Dara's", "周晓雯的"), or not

    return sub
