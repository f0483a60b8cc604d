"""A large user's query is embedded on another thread while the keyword leg runs: the
same hits as inline, an embedder error still raised (or degraded) as before."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import recall
from recall.index import prefetch


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Iterator[recall.Memory]:
    from recall.testing import HashEmbedder

    path = tmp_path_factory.mktemp("big")
    with recall.open(path, embedder=HashEmbedder()) as mem:
        words = ["redis", "deploy", "garden", "invoice", "hotel", "budget", "tea", "api"]
        items = [
            {"text": f"note {i}: {words[i % 8]} and {words[(i * 3) % 8]} on day {i % 365}"}
            for i in range(prefetch.PREFETCH_MIN + 200)
        ]
        mem.add_many(items, user_id="u1")
        yield mem


def test_prefetched_and_inline_embeddings_rank_alike(
    big: recall.Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    real = prefetch._pool.submit

    def counted(fn, *args):  # type: ignore[no-untyped-def]
        calls.append(args[0])
        return real(fn, *args)

    monkeypatch.setattr(prefetch._pool, "submit", counted)
    queries = ["redis deploy", "where is the hotel invoice", "tea on day 12"]
    ahead = [[h.id for h in big.deep_recall(q, user_id="u1")] for q in queries]
    assert calls == queries  # each query embedded on the pool
    monkeypatch.setattr(prefetch, "PREFETCH_MIN", 10**9)
    inline = [[h.id for h in big.deep_recall(q, user_id="u1")] for q in queries]
    assert ahead == inline and all(ahead)


def test_an_embedder_error_on_the_pool_is_raised_or_degrades(
    big: recall.Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = big.embedder()

    def down(text: str) -> object:
        raise recall.EmbedderError("the model is down")

    monkeypatch.setattr(embedder, "embed_query", down)
    with pytest.raises(recall.EmbedderError):
        big.deep_recall("redis deploy", user_id="u1")
    hits = big.deep_recall("redis deploy", user_id="u1", allow_degraded=True)
    assert hits and all(h.degraded for h in hits)
