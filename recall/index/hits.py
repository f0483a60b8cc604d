"""The hits of one query, in their final order, with every leg's score (the retriever's
last step)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from ..models import Hit, RecallRequest, Record
from .fuse import minmax, ranks
from .present import present_first

__all__ = ["hits_at", "ordered"]


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
) -> list[Hit]:
    """The top ``req.top_k`` hits: the current statements (``front``, positions in
    ``cand``) lead, newest first (recall.index.asked); the rest keep the fused order
    (``rank``, ties broken by keyword, then vector score). Each text takes one slot: a
    repeat of a text already shown ("Noted.", a note stored twice) and the asker's own
    question (the user's turn an agent stored before searching) give theirs to the next
    hit; a note that holds the query's very words is still found."""
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
    if not front.size:  # a question about the present: the newest statement of its slot
        order = order[present_first(req.query, [records[int(cand[j])] for j in order])]
    hits = hits_at(records, cand, order, fused, kw, vec, vec_leg, degraded)
    return [h.model_copy(update={"current": True}) for h in hits[: front.size]] + hits[front.size :]
