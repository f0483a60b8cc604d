"""QueryFront: concurrent queries share one model call, repeated ones none, errors reach
every waiter; the composite keeps its routing with fronted parts."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

import numpy as np
import pytest

import recall
from recall.index.embed import CompositeEmbedder
from recall.index.own import adapt_embedder
from recall.index.query_front import QueryFront, fronted
from recall.testing import HashEmbedder


class SlowModel:
    """A model whose call takes ``delay`` seconds and remembers each batch it got."""

    def __init__(self, delay: float = 0.05, fail: bool = False) -> None:
        self.inner = adapt_embedder(HashEmbedder())
        self.id, self.dimension = "slow", self.inner.dimension
        self.delay, self.fail = delay, fail
        self.batches: list[list[str]] = []
        self.lock = threading.Lock()

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        with self.lock:
            self.batches.append(list(texts))
        time.sleep(self.delay)
        if self.fail:
            raise recall.EmbedderError("the model is down")
        out: np.ndarray = np.asarray(self.inner.embed_documents(texts), dtype=np.float32)
        return out

    def embed_query(self, text: str) -> np.ndarray:
        row: np.ndarray = self.embed_documents([text])[0]
        return row


def _ask_all(front: QueryFront, texts: list[str]) -> list[np.ndarray | BaseException]:
    out: list[np.ndarray | BaseException] = [np.zeros(0)] * len(texts)
    start = threading.Barrier(len(texts))

    def ask(i: int) -> None:
        start.wait()
        try:
            out[i] = front.embed(texts[i])
        except BaseException as exc:
            out[i] = exc

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(texts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    return out


def test_concurrent_queries_share_model_calls_and_get_their_own_vector() -> None:
    model = SlowModel()
    front = QueryFront(model.embed_documents, cache_size=0)
    texts = [f"query number {i}" for i in range(16)]
    got = _ask_all(front, texts)
    assert front.calls < 16 and front.embedded == 16  # batched, each text once
    assert max(len(b) for b in model.batches) > 1
    for text, vec in zip(texts, got, strict=True):
        assert isinstance(vec, np.ndarray)
        assert np.allclose(vec, model.inner.embed_query(text), atol=1e-6)


def test_a_lone_query_waits_for_nothing() -> None:
    model = SlowModel(delay=0.0)
    front = QueryFront(model.embed_documents)
    front.embed("alone")
    assert model.batches == [["alone"]]


def test_repeated_queries_hit_the_cache_and_callers_get_copies() -> None:
    model = SlowModel(delay=0.0)
    front = QueryFront(model.embed_documents, cache_size=2)
    first = front.embed("a")
    first[:] = 0  # a caller scaling its vector in place changes nobody else's
    again = front.embed("a")
    assert len(model.batches) == 1 and np.linalg.norm(again) > 0.99
    front.embed("b")
    front.embed("c")  # evicts "a" (LRU of 2)
    front.embed("a")
    assert len(model.batches) == 4


def test_only_a_query_embedded_alone_is_cached() -> None:
    model = SlowModel()
    front = QueryFront(model.embed_documents, cache_size=64)
    texts = [f"query {i}" for i in range(6)]
    _ask_all(front, texts)
    together = {t for b in model.batches if len(b) > 1 for t in b}
    assert together  # some were embedded side by side...
    assert not together & set(front._cache)  # ...and none of those was kept
    front.embed("alone")
    assert "alone" in front._cache


def test_a_model_error_reaches_every_waiter_and_nothing_is_cached() -> None:
    model = SlowModel(fail=True)
    front = QueryFront(model.embed_documents)
    got = _ask_all(front, [f"q{i}" for i in range(6)])
    assert all(isinstance(g, recall.EmbedderError) for g in got)
    model.fail = False
    assert isinstance(front.embed("q1"), np.ndarray)  # tried again, not a cached failure


def test_fronted_composite_keeps_its_routing() -> None:
    parts = [adapt_embedder(HashEmbedder(dimension=8)), adapt_embedder(HashEmbedder(dimension=4))]
    composite = CompositeEmbedder(parts, [0.5, 0.5], [1.0, 0.0], [0.0, 1.0])
    front = fronted(composite, 16)
    assert isinstance(front, CompositeEmbedder) and front is not composite
    assert front.id == composite.id and front.dimension == 12
    assert np.allclose(front.embed_query("hello"), composite.embed_query("hello"))
    assert np.allclose(front.embed_query("你好"), composite.embed_query("你好"))
    assert np.allclose(front.embed_documents(["x"]), composite.embed_documents(["x"]))
    assert composite.parts == parts  # the shared composite is not changed


@pytest.mark.real_model
def test_the_default_models_embed_a_query_as_a_one_text_batch() -> None:
    mem_model = recall.load_embedder("minilm-onnx+use-multilingual")
    front = fronted(mem_model, 0)
    for q in ("where did we go hiking", "我们上周去哪里徒步了"):
        assert np.allclose(front.embed_query(q), mem_model.embed_query(q), atol=1e-5)


def test_concurrent_small_writes_share_model_calls_and_a_bulk_call_goes_as_is() -> None:
    model = SlowModel()
    front = QueryFront(model.embed_documents, cache_size=8, max_batch=4)
    texts = [f"summary {i}" for i in range(8)]
    out: dict[int, np.ndarray] = {}
    start = threading.Barrier(8)

    def write(i: int) -> None:
        start.wait()
        out[i] = front.embed_documents([texts[i]])

    threads = [threading.Thread(target=write, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert front.calls < 8 and max(len(b) for b in model.batches) <= 4
    for i, text in enumerate(texts):
        assert out[i].shape == (1, model.dimension)
        assert np.allclose(out[i][0], model.inner.embed_query(text), atol=1e-6)
    assert not front._cache  # documents are not cached; only queries are
    model.batches.clear()
    bulk = [f"note {i}" for i in range(10)]
    assert front.embed_documents(bulk).shape == (10, model.dimension)
    assert model.batches == [bulk]  # past max_batch: one call, as the caller sent it


class CountingModel(SlowModel):
    """A SlowModel that records how many of its calls ran at once, at most."""

    def __init__(self) -> None:
        super().__init__(delay=0.05)
        self.running = self.most = 0

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        try:
            return super().embed_documents(texts)
        finally:
            with self.lock:
                self.running -= 1


@pytest.mark.parametrize("slots", [1, 2])
def test_at_most_slots_model_calls_run_at_once(slots: int) -> None:
    model = CountingModel()
    front = QueryFront(model.embed_documents, cache_size=0, max_batch=2, slots=slots)
    texts = [f"query number {i}" for i in range(12)]
    out = _ask_all(front, texts)
    # Every caller gets its own text's vector, whichever leader embedded it.
    for text, vec in zip(texts, out, strict=True):
        assert isinstance(vec, np.ndarray)
        np.testing.assert_allclose(vec, model.inner.embed_documents([text])[0], atol=1e-6)
    # Two slots use two cores when twelve callers wait; one slot never runs two calls.
    assert model.most == slots
    assert sum(len(b) for b in model.batches) == len(texts)
