"""The query embedded on another thread while the keyword leg runs.

At 10,000 records of one user the keyword leg (BM25 over every record, the window masks,
the keyword top) takes about a millisecond, the query embedding several: started first on
a second thread, the embedding ends about when the keyword work does, and the query costs
little more than its embedding. A small user's keyword leg is shorter than the hand-off,
so below :data:`PREFETCH_MIN` records the embedding runs inline as before.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np
import numpy.typing as npt

from .embed import Embedder

__all__ = ["PREFETCH_MIN", "prefetch"]

#: Fewest records of a partition worth embedding the query on another thread.
PREFETCH_MIN = 2000
_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="recall-query")


def prefetch(
    embedder: Embedder, query: str, records: int
) -> Future[npt.NDArray[np.float32]] | None:
    """``embedder.embed_query(query)`` started on the pool for a partition of ``records``
    records of at least :data:`PREFETCH_MIN`; None (embed inline) for a smaller one."""
    if records < PREFETCH_MIN:
        return None
    return _pool.submit(embedder.embed_query, query)
