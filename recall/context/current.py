"""The memory block's view of what is true now (:mod:`recall.text.current`).

The short-term summaries are newer than every chapter of the article (a promotion takes the
oldest), so a summary saying the user moved makes the article's old city stale, and a newer
summary makes an older summary's statement stale. The block shows neither; the stale
sentences stay in the store, in the article's earlier versions and in deep_recall.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..lifecycle.article import CHAPTERS, Article
from ..models import Record
from ..text.current import current_texts

__all__ = ["current_view"]


def current_view(article: Article, summaries: Sequence[Record]) -> tuple[Article, list[Record]]:
    """``article`` and ``summaries`` without the sentences newer summaries superseded
    (a summary left empty is dropped; the input order of the summaries is kept)."""
    if not summaries:
        return article, list(summaries)
    newest = sorted(summaries, key=lambda r: r.created_at, reverse=True)
    chapters = article.chapters()
    groups = [[r.text] for r in newest] + [[chapters[name] for name in CHAPTERS]]
    out = current_texts(groups)
    fresh = {r.id: texts[0] for r, texts in zip(newest, out, strict=False)}
    kept = [
        r if fresh[r.id] == r.text else r.model_copy(update={"text": fresh[r.id]})
        for r in summaries
        if fresh[r.id]
    ]
    new_chapters = dict(zip(CHAPTERS, out[-1], strict=True))
    if new_chapters == chapters:
        return article, kept
    return Article(**{name.lower(): text for name, text in new_chapters.items()}), kept
