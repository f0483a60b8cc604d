"""The long-term article: three tagged chapters in one string, parsed and rendered exactly.

The canonical form is::

    <Bedrock>
    …
    </Bedrock>

    <Evolutionary>
    …
    </Evolutionary>

    <Dynamic>
    …
    </Dynamic>

``render_article(parse_article(s)) == s`` for every canonical ``s`` and
``parse_article(render_article(a)) == a`` for every :class:`Article`: a chapter's text is
exactly what lies between ``<Tag>\\n`` and ``\\n</Tag>``, so leading and trailing blank lines
inside a chapter survive. Chapter text may not contain the six tags themselves (that is the
one thing that would make the string ambiguous); :func:`clean_chapter` neutralizes them in
text that comes from users or models.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Final

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..errors import InputError
from ..store import ArticleRow

__all__ = ["Article", "CHAPTERS", "LongTerm", "clean_chapter", "parse_article", "render_article"]

#: Chapter tags in article order, slowest-changing first.
CHAPTERS: Final = ("Bedrock", "Evolutionary", "Dynamic")

_TAG = re.compile(r"<\s*(/?)\s*(bedrock|evolutionary|dynamic)\s*>", re.IGNORECASE)
# One block per chapter. The optional newline right after the opening tag and right before
# the closing one belong to the markup; the lazy body keeps every other character.
_BLOCK = {
    name: re.compile(rf"<{name}>\n?(.*?)\n?</{name}>", re.DOTALL | re.IGNORECASE)
    for name in CHAPTERS
}


def clean_chapter(text: str) -> str:
    """``text`` with any chapter tag turned into a harmless look-alike (‹Dynamic›)."""
    return _TAG.sub(lambda m: f"‹{m.group(1)}{m.group(2)}›", text)


class Article(BaseModel):
    """The three chapters of a user's long-term memory."""

    model_config = ConfigDict(frozen=True)

    bedrock: str = ""
    evolutionary: str = ""
    dynamic: str = ""

    @field_validator("bedrock", "evolutionary", "dynamic")
    @classmethod
    def _no_tags(cls, v: str) -> str:
        if _TAG.search(v):
            raise ValueError(
                "chapter text contains a chapter tag such as </Dynamic>; pass it through "
                "recall.lifecycle.article.clean_chapter first"
            )
        return v

    def chapters(self) -> dict[str, str]:
        """Tag name -> chapter text, in article order."""
        return {"Bedrock": self.bedrock, "Evolutionary": self.evolutionary, "Dynamic": self.dynamic}

    def render(self) -> str:
        """The canonical tagged string."""
        return render_article(self)

    def is_empty(self) -> bool:
        """True when every chapter is blank."""
        return not (self.bedrock.strip() or self.evolutionary.strip() or self.dynamic.strip())


class LongTerm(Article):
    """One version of a user's long-term article (version 0: nothing promoted yet)."""

    user_id: str
    version: int = Field(ge=0)
    updated_at: datetime | None = None
    promoted_ids: list[str] = Field(
        default_factory=list, description="Short-term summaries that fed this version."
    )

    @classmethod
    def from_row(cls, row: ArticleRow) -> LongTerm:
        """The article version the store returned."""
        return cls(
            user_id=row.user_id,
            version=row.version,
            bedrock=row.bedrock,
            evolutionary=row.evolutionary,
            dynamic=row.dynamic,
            updated_at=row.updated_at,
            promoted_ids=list(row.promoted),
        )

    def article(self) -> Article:
        """Just the three chapters."""
        return Article(bedrock=self.bedrock, evolutionary=self.evolutionary, dynamic=self.dynamic)


def render_article(article: Article) -> str:
    """The canonical tagged string of ``article`` (see the module docstring)."""
    return "\n\n".join(f"<{tag}>\n{text}\n</{tag}>" for tag, text in article.chapters().items())


def parse_article(text: str) -> Article:
    """Read a tagged article; a missing chapter is empty.

    Whitespace around the blocks and tag case are forgiven (the example in
    ``docs/design.md`` indents its tags), so model or hand-written articles parse too.
    Raises :class:`InputError` when ``text`` is not blank yet holds no chapter, or holds a
    chapter twice.
    """
    if not isinstance(text, str):
        raise InputError(f"an article must be a string, got {type(text).__name__}")
    found: dict[str, str] = {}
    for name, pattern in _BLOCK.items():
        matches = pattern.findall(text)
        if len(matches) > 1:
            raise InputError(f"the article has {len(matches)} <{name}> chapters; keep one")
        if matches:
            found[name.lower()] = matches[0]
    if not found and text.strip():
        raise InputError(
            "no <Bedrock>, <Evolutionary> or <Dynamic> chapter found; wrap each chapter in "
            "its tags, e.g. <Dynamic>\\n…\\n</Dynamic>"
        )
    try:
        return Article(**found)
    except ValueError as exc:  # a stray tag inside a chapter
        raise InputError(f"the article cannot be read: {exc}") from exc
