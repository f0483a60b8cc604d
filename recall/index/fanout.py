"""A composite's models embed one batch side by side, each on its own thread.

The default spec embeds every record with two models (MiniLM and USE-multilingual), one
intra-op thread each; run one after the other they leave a core idle through a whole
ingest. onnxruntime and torch release the GIL while they run, so two threads keep both
cores busy: each model's batch takes as long as before, the pair about half as long on an
otherwise idle 2-core machine. A small batch (a query, one note) is not worth the hand-off.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from .embed import Embedder

__all__ = ["MIN_FANOUT", "each_part"]

Vectors = npt.NDArray[np.float32]

#: Fewest texts worth a second thread (below it the parts run on the caller's thread).
MIN_FANOUT = 8
_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="recall-embed")


def each_part(parts: Sequence[Embedder], texts: Sequence[str]) -> list[Vectors]:
    """Every part's ``embed_documents(texts)``, in the parts' order: the first part on this
    thread, the others on the pool, when there are at least :data:`MIN_FANOUT` texts."""
    if len(parts) < 2 or len(texts) < MIN_FANOUT:
        return [p.embed_documents(texts) for p in parts]
    others = [_pool.submit(p.embed_documents, texts) for p in parts[1:]]
    first = parts[0].embed_documents(texts)
    return [first, *(f.result() for f in others)]
