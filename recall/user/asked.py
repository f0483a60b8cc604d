"""The question's side of what is true now: which attribute of the user it asks about,
the statements that answer it, and the public profile (:mod:`.now` reads the statements).

A question about the user's present, asked in any person ("where do I live", "Which city
does Dara live in?", "用户的职位", "user employer") with or without a word of the present,
gets the current statements of the attribute it asks about first
(:meth:`~recall.index.retriever.Retriever.ranked`, through :data:`.reader.USER_READER`).
A question about the past ("where did I work before?", "我以前开什么车？") gets the
statements of the value the current one replaced first (:func:`replaced`). Left alone: a
question about a time ("last week": :mod:`recall.index.window` answers it) and about
someone else (a name the user speaks of, "my brother").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..index.embed import Embedder
from ..index.partitions import Partition
from ..index.user_model import Asked
from ..models import Fact as PublicFact
from ..models import Profile, RecallRequest, Record
from ..settings import Settings
from ..text.analyzer import Analyzer
from ..text.stance import NOT_NAMES
from ..text.when import resolve
from .asker import first_person, name_in
from .attributes import AttributeSpace, space_for
from .now import Fact, UserFacts, facts_of
from .slots import asks_past

__all__ = [
    "as_first_person",
    "asked_attribute",
    "current_statements",
    "profile_and_asked",
    "profile_of",
    "replaced",
    "user_facts",
]

#: Weight of the user's own nearest sentences in the attribute a question asks about.
USER_EVIDENCE = 0.5


def user_facts(part: Partition, embedder: Embedder, analyzer: Analyzer) -> UserFacts:
    """The partition's labelled user sentences (built once per partition)."""
    return facts_of(part.derived, part.records, space_for(embedder), analyzer)


def as_first_person(query: str, part: Partition, embedder: Embedder, analyzer: Analyzer) -> str:
    """``query`` with the user named in the third person read in the first
    (:func:`.asker.first_person`, with the names the partition's memory knows them by)."""
    names = user_facts(part, embedder, analyzer).user_names if part.records else frozenset()
    return first_person(query, names)


def current_statements(
    req: RecallRequest,
    part: Partition,
    embedder: Embedder,
    analyzer: Analyzer,
    settings: Settings,
    hard: npt.NDArray[np.bool_] | None,
) -> Asked | None:
    """What ``req`` asks of the user (:class:`Asked`): the statements of the asked
    attribute's current value, or, for a question about the past, of the value it replaced
    (:func:`replaced`); None when it asks of neither (a question about a time, someone
    else, or no attribute, or about the past of an attribute that never changed)."""
    if not settings.retrieval.current_facts or req.prior:
        return None  # a question about a time ("last week") asks about then, not now
    # Built once per partition (in the rebuild after a write), not a scan of every query.
    uf = user_facts(part, embedder, analyzer)
    if not uf.sentences:
        return None
    past = asks_past(req.query)
    if past and (req.loose or resolve(req.query) is not None):
        return None  # "three months ago I complained about...": an event then, not a value
    attribute = asked_attribute(req.query, uf, space_for(embedder), past=past)
    if attribute is None:
        return None
    facts = uf.history(attribute)
    if past:
        return replaced(uf, facts, hard)
    return Asked(
        current=[i for i in uf.current(attribute) if hard is None or hard[i]],
        settled=bool(facts) and uf.sentences[facts[-1].intro].given is not None,
    )


def replaced(
    uf: UserFacts, facts: Sequence[Fact], hard: npt.NDArray[np.bool_] | None
) -> Asked | None:
    """The value ``facts`` (one attribute's, oldest first) held before the current one:
    its newest mention and the statement that introduced it ("Where did Dara work before
    she joined X?" asks the employer the last change replaced); None when it never changed.
    Its statements are *settled*: not re-ordered newest first, as a question about now is."""
    if len(facts) < 2:
        return None
    before = facts[-2]
    said = dict.fromkeys(uf.sentences[k].record for k in (before.mentions[-1], before.intro))
    return Asked(current=[i for i in said if hard is None or hard[i]], settled=True)


_KIN_OF = re.compile(
    r"\b(?:my|our|the user's|user's|[A-Z][a-z]+'s)\s+(?:\w+\s+)?"
    r"(?:sister|brother|mum|mom|mother|dad|father|parents?|son|daughter|kids?|friend|"
    r"colleague|coworker|boss|manager|neighbou?r|roommate|flatmate|cousin|aunt|uncle|"
    r"niece|nephew|team|company)s?\b|"
    r"(?:我|用户)的?(?:姐姐|妹妹|哥哥|弟弟|妈妈|爸爸|父母|儿子|女儿|孩子|朋友|同事|老板|邻居|室友)",
)
# Attributes whose value belongs to the user's family as much as to them.
_FAMILY_ATTRIBUTES = frozenset({"school", "family", "pet"})
_CAPS = re.compile(r"\b[A-Z][a-z]+\b")


def asked_attribute(
    query: str, uf: UserFacts, space: AttributeSpace, *, past: bool = False
) -> str | None:
    """The attribute of the user ``query`` asks the present value of, or None: a question
    about the past ("before", "以前"; unless ``past``: then the attribute it asks an earlier
    value of), about someone else (a name the user speaks of, "my brother"), or about no
    attribute. The user may be asked about in the first or the third person, by the name
    the memory knows them by, or in keywords. The label is the nearest examples' and, as
    much, that of the user's own nearest sentences."""
    if asks_past(query) and not past:
        return None
    names = {w for w in _CAPS.findall(query) if w not in NOT_NAMES}
    if query == query.lower():  # "where does niamh live": the names are typed in lower case
        names |= {n for n in uf.other_names | uf.user_names if name_in(n, query)}
    if names & uf.other_names and not names & uf.user_names:
        return None
    q = space.query(query)
    scores = space.scores(q)
    if len(uf.sentences):
        sims = (uf.vectors @ q[0]).astype(np.float64)
        said = uf.attribute_array
        for j, name in enumerate(space.labels):
            mask = said == name
            if mask.any():
                best = float(sims[mask].max())
                scores[0, j] = (1 - USER_EVIDENCE) * scores[0, j] + USER_EVIDENCE * max(
                    best, scores[0, j]
                )
    label = space.label(q, scores)[0][0]
    if label is not None and label not in _FAMILY_ATTRIBUTES and _KIN_OF.search(query):
        return None
    return label


def _snippet(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def profile_of(user_id: str, uf: UserFacts, records: Sequence[Record]) -> Profile:
    """The public view of ``uf``: every attribute the user stated, its values oldest first
    (built once per partition: every memory block asks for it)."""
    if uf.profile is not None:
        return uf.profile
    facts: dict[str, list[PublicFact]] = {}
    for attribute in uf.attributes:
        out = []
        for f in uf.history(attribute):
            said = [uf.sentences[k] for k in f.mentions]
            out.append(
                PublicFact(
                    attribute=attribute,
                    value=uf.value(f),
                    words=[uf.display.get(w, w) for w in f.words],
                    statement=_snippet(said[-1].text, 240),
                    since=uf.sentences[f.intro].at,
                    last_said=said[-1].at,
                    record_ids=list(dict.fromkeys(records[s.record].id for s in said)),
                    superseded_by=f.superseded_by,
                    read_by="words" if uf.sentences[f.intro].given is None else "model",
                )
            )
        if out:
            facts[attribute] = out
    uf.profile = Profile(user_id=user_id, facts=facts)
    return uf.profile


def profile_and_asked(
    user_id: str, part: Partition, embedder: Embedder, analyzer: Analyzer, query: str | None
) -> tuple[Profile, str | None]:
    """The user's profile (:func:`profile_of`) and the attribute ``query`` asks the present
    value of (:func:`asked_attribute`; None: none, or no query)."""
    uf = user_facts(part, embedder, analyzer)
    asked = asked_attribute(query, uf, space_for(embedder)) if query and uf.sentences else None
    return profile_of(user_id, uf, part.records), asked
