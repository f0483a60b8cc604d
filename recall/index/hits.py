"""The hits of one query, in their final order, with every leg's score (the retriever's
last step)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Literal

import numpy as np
import numpy.typing as npt

from ..models import Hit, RecallRequest, Record
from ..text.speakers import user_lines
from ..text.stance import asserted_sentences
from .fuse import minmax, ranks

__all__ = ["hits_at", "newest_asserted", "ordered", "reasons"]


def hits_at(
    records: list[Record],
    cand: npt.NDArray[np.intp],
    order: npt.NDArray[np.intp],
    fused: npt.NDArray[np.float64],
    kw: npt.NDArray[np.float64],
    vec: npt.NDArray[np.float64] | None,
    vec_leg: npt.NDArray[np.float64],
    degraded: bool,
) -> list[Hit]:
    """The hits at ``order`` (positions in ``cand``) with every leg's score, normed, ranked."""
    kw_norm, vec_norm = minmax(kw), minmax(vec_leg)
    kw_rank, vec_rank = ranks(kw), ranks(vec_leg)
    hits = []
    for j in order:
        r = records[int(cand[j])]
        hits.append(
            Hit.model_construct(
                id=r.id,
                text=r.text,
                kind=r.kind,
                created_at=r.created_at,
                score=float(fused[j]),
                keyword_score=float(kw[j]),
                keyword_norm=float(kw_norm[j]),
                keyword_rank=int(kw_rank[j]),
                vector_score=None if vec is None else float(vec[j]),
                vector_norm=float(vec_norm[j]),
                vector_rank=None if vec is None else int(vec_rank[j]),
                metadata=r.metadata,
                degraded=degraded,
            )
        )
    return hits


def _states(r: Record) -> bool:
    """Whether ``r`` states something as it is (recall.text.stance): a plan, a wish or a
    question ("thinking of trying the gym on Elm Street") changes nothing that holds."""
    # The user's words: the "User:" lines of a stored exchange, else the text.
    return any(asserted_sentences(line) for line in user_lines(r.text))


def newest_asserted(
    order: npt.NDArray[np.intp],
    head: Sequence[Record],
    since: Sequence[datetime | None] | None = None,
) -> npt.NDArray[np.intp]:
    """``order`` with the statements among its first ``len(head)`` (``head``: their
    records) re-ordered newest first, in the places statements held; the rest (plans,
    wishes, questions) keep theirs. ``since``: for each of ``head``, the day to order it
    by instead of the day it was said (None: that day). Statements of the same day keep
    their order: within one conversation, seconds apart, recency tells nothing of which
    holds, and the better match stays first."""
    depth = len(head)
    places = [k for k, r in enumerate(head) if _states(r)]
    when = [s or r.created_at for r, s in zip(head, since or [None] * depth, strict=True)]
    newest = sorted(places, key=lambda k: when[k].date(), reverse=True)
    out = [int(j) for j in order[:depth]]
    for k, src in zip(places, newest, strict=True):
        out[k] = int(order[src])
    return np.concatenate([np.array(out, dtype=np.intp), order[depth:]]).astype(np.intp)


def _same(text: str) -> str:
    """What two texts must share to be the same hit: their words, case and spacing aside."""
    return " ".join(text.casefold().split())


def _once(
    order: npt.NDArray[np.intp], key: Callable[[int], str | None], seen: set[str], most: int
) -> npt.NDArray[np.intp]:
    """The first ``most`` positions of ``order`` whose ``key`` is not in ``seen`` (updated)
    nor None (never shown); keys are read only as far as the loop goes."""
    keep: list[int] = []
    for j in order:
        if len(keep) >= most:
            break
        k = key(int(j))
        if k is not None and k not in seen:
            seen.add(k)
            keep.append(int(j))
    return np.array(keep, dtype=np.intp)


def ordered(
    req: RecallRequest,
    records: list[Record],
    cand: npt.NDArray[np.intp],
    front: npt.NDArray[np.intp],
    rank: npt.NDArray[np.float64],
    fused: npt.NDArray[np.float64],
    kw: npt.NDArray[np.float64],
    vec: npt.NDArray[np.float64] | None,
    degraded: bool,
    *,
    newest_first: int = 0,
    present_first: Callable[[str, Sequence[Record]], list[int]] | None = None,
    named_since: Callable[[Sequence[Record]], list[datetime | None]] | None = None,
) -> list[Hit]:
    """The top ``req.top_k`` hits: the current statements (``front``, positions in
    ``cand``) lead, newest first (recall.user.asked); the rest keep the fused order
    (``rank``, ties broken by keyword, then vector score). Each text takes one slot: a
    repeat of a text already shown ("Noted.", a note stored twice) and the asker's own
    question (the user's turn an agent stored before searching) give theirs to the next
    hit; a note that holds the query's very words is still found.

    ``newest_first`` (a question about what holds now): the first that many hits are then
    re-ordered newest said first. What a user said last about a thing is likelier what
    holds than the older statement that ranked above it, and the set of hits is kept, so
    recall at that depth does not move; only its order does. A plan, a wish or a question
    keeps its place: it changes nothing that holds. ``named_since`` (the user model's, None:
    none) dates a hit by the newest thing it names, as the user first said it
    (:mod:`recall.user.novelty`): chatter about a former value said after the change goes
    under the statement of the new one. Else, with no current statement,
    ``present_first`` (the user model's, None: none) re-orders the hits of a question
    about the present."""
    vec_leg = vec if vec is not None else np.zeros_like(kw)
    order = np.lexsort((-vec_leg, -kw, -rank))
    asked = _same(req.query)

    def key(j: int) -> str | None:
        r = records[int(cand[j])]
        same = _same(r.text)
        own = same == asked and r.kind == "turn" and r.metadata.get("role") == "user"
        return None if own else same

    seen: set[str] = set()
    front = _once(front, key, seen, req.top_k)
    rest = _once(order[~np.isin(order, front)], key, seen, req.top_k - front.size)
    order = np.concatenate([front, rest]).astype(np.intp)
    before = order
    if newest_first > 1:
        movable = [records[int(c)] for c in cand[order[:newest_first]]]
        since = named_since(movable) if named_since is not None else None
        order = newest_asserted(order, movable, since)
    elif not front.size and present_first is not None:
        # A question about the present: the newest statement of its slot
        # (recall.user.present, given by the retriever's user model).
        order = order[present_first(req.query, [records[int(cand[j])] for j in order])]
    moved = {int(j) for j, k in zip(order, before, strict=True) if j != k}
    hits = hits_at(records, cand, order, fused, kw, vec, vec_leg, degraded)
    now = {int(j) for j in front}
    why = reasons(order, now, moved, fused, rank)
    return [
        h.model_copy(update={"current": int(j) in now, "reason": r}) if int(j) in now or r else h
        for j, h, r in zip(order, hits, why, strict=True)
    ]


def reasons(
    order: npt.NDArray[np.intp],
    current: set[int],
    moved: set[int],
    fused: npt.NDArray[np.float64],
    rank: npt.NDArray[np.float64],
) -> list[Literal["current", "newest", "time_window"] | None]:
    """Why each hit of ``order`` stands above a later one with a higher fused score: it is
    a current statement, newest-first moved it, or the time window's boost (``rank`` over
    ``fused``) did; None for a hit in score order."""
    out: list[Literal["current", "newest", "time_window"] | None] = []
    for p, j in enumerate(order.tolist()):
        later = order[p + 1 :]
        if not later.size or fused[j] >= fused[later].max():
            out.append(None)
        elif j in current:
            out.append("current")
        elif j in moved:
            out.append("newest")
        else:
            out.append("time_window" if rank[j] > fused[j] else None)
    return out
