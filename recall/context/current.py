"""The memory block's view of what is true now (:mod:`recall.user.superseded`): a renderer of
the model of the user (:mod:`recall.user`), kept with the other parts of the block.

The short-term summaries are newer than every chapter of the article (a promotion takes the
oldest), so a summary saying the user moved makes the article's old city stale, and a newer
summary makes an older summary's statement stale. The block shows neither; the stale
sentences stay in the store, in the article's earlier versions and in deep_recall.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..lifecycle.article import CHAPTERS, Article
from ..models import Profile, Record
from ..text import has_cjk
from ..text.passages import split_sentences
from ..text.speakers import label_of
from ..user.superseded import current_texts

__all__ = ["NOW_HEADING", "current_view", "now_section", "stale_and_current", "without_values"]


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


# --- the user's facts (recall.user.now) ---------------------------------------------------
NOW_HEADING = "## Now"


def _holds(text: str, value: str) -> bool:
    """Whether ``text`` holds ``value`` as a word (a CJK value: as a substring)."""
    if has_cjk(value):
        return value in text
    return re.search(r"(?<![\w])" + re.escape(value) + r"(?![\w])", text, re.IGNORECASE) is not None


def without_values(text: str, stale: Sequence[str], keep: Sequence[str]) -> str:
    """``text`` less its sentences that hold one of ``stale`` and none of ``keep`` (the
    values that hold now); lines that lose every sentence go, the rest stay byte-identical."""
    if not stale:
        return text
    lines = []
    for line in text.split("\n"):
        sentences = split_sentences(line)
        kept = [
            s
            for s in sentences
            if not any(_holds(s, v) for v in stale) or any(_holds(s, v) for v in keep)
        ]
        if len(kept) == len(sentences):
            lines.append(line)
        elif kept:
            label = label_of(line)[0]
            body = ("" if has_cjk(line) else " ").join(kept)
            lines.append(body if body.startswith(label) else label + body)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def stale_and_current(profile: Profile, asked: str | None) -> tuple[list[str], list[str]]:
    """The values of the ``asked`` attribute that were replaced (as the user wrote them:
    names, or CJK words), and every value a model read that holds now.

    Nothing is stale without an asked attribute (a rare word marking an old value of some
    other attribute is too weak a reason to hide a sentence the input may need), nor unless
    a model read the asked attribute (``read_by == "model"``, :mod:`recall.lifecycle.extract`).
    The offline reading of the user's words is not sure enough to hide what it calls
    replaced: on timeline_dev and recall's tuning split, hiding by it removed no stale
    value from any block and hid the current one from 1 of 53 and 3 of 32
    (benchmarks/README.md). The ``## Now`` section still leads with what it reads."""
    history = profile.history(asked) if asked is not None else []
    if not history or history[-1].read_by != "model":
        return [], []
    # The model's current values: a word the offline reading calls current (often
    # chatter) does not keep a sentence the model read as replaced.
    now = [
        w for f in profile.now().values() if f.read_by == "model" for w in (f.words or [f.value])
    ]
    old = [
        w
        for f in history
        if f.superseded_by is not None
        for w in (f.words or [f.value])
        if w not in now and (w[:1].isupper() or has_cjk(w))
    ]
    return old, now


def now_section(profile: Profile, asked: str | None, zh: bool) -> str:
    """``## Now``: one dated line per attribute the user stated, the asked attribute first;
    "" when nothing is known.

    A configured model's facts (``read_by == "model"``) are claims it checked: "- employer:
    Tidewell (since 2026-06-12) — <the user's words>", the most recently changed first. Once
    a model read the user, its facts alone are listed: an attribute it never named is the
    offline reading's guess (often chatter: "back in <old city> for a birthday" read as
    volunteering). recall's own reading of the words is not sure enough to name a value
    (its "value" is often a word of chatter: a city read as the employer), so its lines give what
    the user said last of each attribute, dated, and no value: "- employer (2026-11-02):
    <the user's words>", the most recently said first. On timeline_dev and recall's tuning
    split the block's first value is then a stale one in 39.6 and 46.9% of current
    questions, against 45.3 and 78.1 with the value named (benchmarks/README.md)."""
    now = list(profile.now().values())
    if any(f.read_by == "model" for f in now):
        lines = [
            f"- {f.attribute}: {f.value} ({'起' if zh else 'since'} {f.since:%Y-%m-%d}) — "
            f"{f.statement}"
            for f in sorted(
                (f for f in now if f.read_by == "model"),
                key=lambda f: (f.attribute != asked, -f.since.timestamp()),
            )
        ]
    else:
        lines = [
            f"- {f.attribute} ({f.last_said:%Y-%m-%d}): {f.statement}"
            for f in sorted(now, key=lambda f: (f.attribute != asked, -f.last_said.timestamp()))
        ]
    return NOW_HEADING + "\n\n" + "\n".join(lines) if lines else ""
