"""Embeddings shared: concurrent calls ride one model call, repeated queries none.

A server runs each request's deep_recall on a worker thread; sixteen clients mean up to
sixteen one-text model calls at once, each paying the model's fixed cost and fighting for
two cores. :class:`QueryFront` stands in front of one model's query embedding:

- **Batching.** A caller finding fewer than ``slots`` model calls running (one per usable
  core) becomes a leader and embeds every query waiting at that moment in one batch;
  queries arriving while every slot is busy wait for a call to end (never longer) and go
  together in the next one. An idle server adds no wait at all; a loaded one forms batches
  by itself, on every core (onnxruntime releases the interpreter lock: with one slot, the
  load benchmark's writes embedded one batch at a time and the server kept 1.1 cores busy).
  Each text is its own row of the batch and padding is masked, but the quantized models
  round differently with other rows beside it: a vector can move a little (USE: cosine
  0.996 at worst; MiniLM: float noise).
- **Writes too.** A small ``embed_documents`` call (a summary, a note: at most one batch)
  queues its texts the same way, so concurrent writers of different users share a call;
  a bulk call (an ingest, a reindex) goes to the model as it is, in its own batches.
- **Caching.** The last ``cache_size`` query texts' vectors, each embedded alone, are kept
  (LRU): an agent asking the same thing twice, or a retry, costs no model call. The cache
  is the process's, across tenants: a hit is faster, so a tenant timing its own queries
  could learn that somebody asked the same words recently. 0 turns it off.

The model's document path embeds the batch (``embed_documents``): for recall's models a
query is embedded exactly as a one-text document.
"""

from __future__ import annotations

import copy
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from .embed import CompositeEmbedder, Embedder

__all__ = ["QueryFront", "fronted"]

Vectors = npt.NDArray[np.float32]


class _Ask:
    __slots__ = ("cache", "error", "ready", "text", "vector")

    def __init__(self, text: str, cache: bool) -> None:
        self.text = text
        self.cache = cache
        self.vector: Vectors | None = None
        self.error: BaseException | None = None
        self.ready = False


class QueryFront:
    """Batched embeddings over ``embed_batch(texts) -> rows``; queries cached; at most
    ``slots`` model calls at once."""

    def __init__(
        self,
        embed_batch: Callable[[Sequence[str]], Vectors],
        *,
        cache_size: int = 1024,
        max_batch: int = 32,
        slots: int = 1,
    ) -> None:
        self._embed_batch = embed_batch
        self._cache_size = cache_size
        self._max_batch = max_batch
        self._cache: OrderedDict[str, Vectors] = OrderedDict()
        self._queue: list[_Ask] = []
        self._slots = max(1, slots)
        self._running = 0
        self._cond = threading.Condition()
        #: Model calls made and texts embedded (for tests and the load benchmark).
        self.calls = 0
        self.embedded = 0

    def embed(self, text: str) -> Vectors:
        """The query vector of ``text`` (a copy: callers may scale it in place)."""
        with self._cond:
            hit = self._cache.get(text)
            if hit is not None:
                self._cache.move_to_end(text)
                return hit.copy()
        return self._wait([text], cache=True)[0].copy()

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """One row per text, batched with whatever else is waiting (a write of one summary
        beside another user's); a bulk call larger than a batch goes to the model as is."""
        if len(texts) > self._max_batch or not texts:
            return self._embed_batch(texts)
        return np.stack(self._wait(texts, cache=False))

    def _wait(self, texts: Sequence[str], *, cache: bool) -> list[Vectors]:
        asks = [_Ask(t, cache) for t in texts]
        with self._cond:
            self._queue.extend(asks)
        while True:
            with self._cond:
                while self._running >= self._slots and not all(a.ready for a in asks):
                    self._cond.wait()
                if all(a.ready for a in asks):
                    break
                if not any(not a.ready and a in self._queue for a in asks):
                    # ours are in a call another leader runs: wait for it
                    self._cond.wait()
                    continue
                self._running += 1  # a leader: embed what waits, ours or not
                batch = self._queue[: self._max_batch]
                del self._queue[: self._max_batch]
            self._run(batch)
        for a in asks:
            if a.error is not None:
                raise a.error
        return [a.vector for a in asks if a.vector is not None]

    def _run(self, batch: list[_Ask]) -> None:
        texts = list(dict.fromkeys(a.text for a in batch))
        try:
            rows = self._embed_batch(texts)
            vectors = dict(zip(texts, rows, strict=True))
            error: BaseException | None = None
        except BaseException as exc:  # every waiter gets the model's error, not a hang
            vectors, error = {}, exc
        with self._cond:
            self.calls += 1
            self.embedded += len(texts)
            # Only a vector embedded alone is kept: a quantized model's row moves a little
            # with its batchmates (USE: cosine 0.996 at worst), and a cached vector must
            # not depend on what another tenant asked at the same moment.
            alone = len(texts) == 1
            for a in batch:
                a.vector, a.error, a.ready = vectors.get(a.text), error, True
                if error is None and alone and a.cache and self._cache_size > 0:
                    self._cache[a.text] = vectors[a.text]
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
            self._running -= 1
            self._cond.notify_all()


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


class _Fronted:
    """One model with its queries and small document batches through a :class:`QueryFront`."""

    def __init__(self, model: Embedder, cache_size: int) -> None:
        self.id, self.dimension = model.id, model.dimension
        self.model = model
        self.front = QueryFront(model.embed_documents, cache_size=cache_size, slots=_cores())

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        return self.front.embed_documents(texts)

    def embed_query(self, text: str) -> Vectors:
        return self.front.embed(text)


def fronted(embedder: Embedder, cache_size: int) -> Embedder:
    """``embedder`` with each of its models' queries batched and cached (:class:`QueryFront`).

    A composite keeps its routing (a copy with each part fronted), so an English query still
    runs MiniLM alone. For recall's packaged models only: a model of one's own may embed a
    query differently from a document (an instruction prefix), so it is left as it is."""
    if isinstance(embedder, CompositeEmbedder):
        out = copy.copy(embedder)
        out.parts = [_Fronted(p, cache_size) for p in embedder.parts]
        return out
    return _Fronted(embedder, cache_size)
