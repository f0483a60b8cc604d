"""How similar each short-term summary is to the user's turn, for the memory block.

Summaries come back at every turn and rarely change, so each text is embedded once per
process (an LRU of ``lifecycle.relevant_cache_size`` vectors). Moved out of
:mod:`recall.context.memory_block`, which re-exports :func:`summary_similarities`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..index.embed import Embedder

__all__ = ["summary_similarities"]

# Summaries come back at every turn and rarely change: embed each text once per process.
_vectors: OrderedDict[tuple[str, str], npt.NDArray[np.float32]] = OrderedDict()
_vectors_lock = threading.Lock()


def _embed(embedder: Embedder, texts: Sequence[str], cache_size: int) -> npt.NDArray[np.float32]:
    keys = [(embedder.id, t) for t in texts]
    with _vectors_lock:
        missing = list(dict.fromkeys(k[1] for k in keys if k not in _vectors))
    fresh = dict(zip(missing, embedder.embed_documents(missing), strict=True)) if missing else {}
    out = []
    with _vectors_lock:
        for key in keys:
            vec = fresh.get(key[1]) if key[1] in fresh else _vectors.get(key)
            if vec is None:  # evicted by another thread meanwhile: embed again
                vec = embedder.embed_documents([key[1]])[0]
            out.append(vec)
            if cache_size > 0:
                _vectors[key] = vec
                _vectors.move_to_end(key)
        while len(_vectors) > cache_size:
            _vectors.popitem(last=False)
    return np.stack(out).astype(np.float32)


def summary_similarities(
    embedder: Embedder, user_input: str, texts: Sequence[str], *, cache_size: int = 4_096
) -> list[float]:
    """Cosine similarity of each text to ``user_input`` (normalized vectors), clamped at 0."""
    if not texts:
        return []
    query = np.asarray(embedder.embed_query(user_input), dtype=np.float32)
    sims = _embed(embedder, texts, cache_size) @ query
    return [max(0.0, float(s)) for s in sims.tolist()]
