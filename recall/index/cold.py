"""The vector leg without the vector cache (``vector_cache_mb=0``): Chroma per query.

Used when a user's vectors are not held in process: every query asks Chroma for its top
records with the user filter (one query per route: the other language's records may have
one of their own) and fetches the vectors of keyword-only candidates to score them
exactly, so both legs still rank the same candidates.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..models import RecallRequest
from ..settings import Settings
from . import crosslang, neighbours
from .partitions import Partition
from .vector import VectorIndex

__all__ = ["vector_cold"]


def vector_cold(
    vectors: VectorIndex,
    settings: Settings,
    req: RecallRequest,
    part: Partition,
    routes: list[crosslang.Route],
    kw_top: npt.NDArray[np.intp],
    links: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]] | None,
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float64]]:
    """Candidates and vector scores from Chroma: exact for every candidate (and, with
    thread links, for the neighbours smoothing will read); 0 elsewhere. One Chroma
    query per route: the other language's records may have one of their own."""
    pos = {r.id: i for i, r in enumerate(part.records)}
    found: dict[int, float] = {}
    asked: dict[int, dict[str, float]] = {}  # routes may share a vector: one query each
    for route in routes:
        key, n = id(route.vector), min(settings.retrieval.candidate_pool, len(part.records))
        if key not in asked:
            asked[key] = vectors.query(req.user_id, route.vector, req.kinds, n)
        for rid, s in asked[key].items():
            if rid in pos and route.mask[pos[rid]]:
                found[pos[rid]] = s * route.factor
    cand = np.union1d(kw_top, np.fromiter(found, dtype=np.intp, count=len(found)))
    need = cand
    if links is not None:
        need = neighbours.expand(cand, *links, 1 + settings.retrieval.neighbour_hops)
    # Exact vector scores for those the vector top list did not reach.
    missing = [part.records[int(i)].id for i in need if int(i) not in found]
    got = vectors.vectors(req.user_id, missing)
    found.update(crosslang.score_rows({pos[rid]: v for rid, v in got.items()}, routes))
    vec_all = np.zeros(len(part.records), dtype=np.float64)
    for i, score in found.items():
        vec_all[i] = score
    return cand, vec_all
