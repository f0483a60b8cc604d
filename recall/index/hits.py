"""The hits of one query, in their final order, with every leg's score (the retriever's
last step)."""

from __future__ import annotations

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
    (``rank``, ties broken by keyword, then vector score)."""
    vec_leg = vec if vec is not None else np.zeros_like(kw)
    order = np.lexsort((-vec_leg, -kw, -rank))
    order = np.concatenate([front, order[~np.isin(order, front)]])[: req.top_k]
    if not front.size:  # a question about the present: the newest statement of its slot
        order = order[present_first(req.query, [records[int(cand[j])] for j in order])]
    hits = hits_at(records, cand, order, fused, kw, vec, vec_leg, degraded)
    return [h.model_copy(update={"current": True}) for h in hits[: front.size]] + hits[front.size :]
