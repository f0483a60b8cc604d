"""Bring your own embedder: ``recall.open(embedder=...)`` and ``recall.testing.HashEmbedder``
(issue 25). Real SQLite and Chroma; no packaged model is ever loaded here."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import recall
import recall.index.embed
import recall.index.rebuild
import recall.memory.core
from recall import ConfigError, EmbedderError, IndexStaleError
from recall.index.layout import FINGERPRINT_KEY
from recall.index.own import AdaptedEmbedder, adapt_embedder, embedder_id, own_spec
from recall.index.rebuild import reindex
from recall.index.spec import IndexSpec, load_spec
from recall.testing import HashEmbedder


@pytest.fixture(autouse=True)
def _stand_in_embedder() -> None:
    """No stand-in here (tests/conftest.py's is replaced): each test names its embedder."""


@pytest.fixture(autouse=True)
def _no_packaged_model(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Loading any packaged model fails the test: a user's embedder replaces them all."""

    def refuse(*args: object, **kwargs: object) -> recall.Embedder:
        raise AssertionError(f"a packaged model was loaded: {args}")

    for module in (recall.index.embed, recall.memory.core, recall.index.rebuild):
        monkeypatch.setattr(module, "load_embedder", refuse)
    loaded = dict(recall.index.embed._loaded)
    yield
    assert recall.index.embed._loaded == loaded


def _settings(path: Path, **kw: Any) -> recall.Settings:
    return recall.Settings(path=path / "memory", vector_partitions=2, **kw)


class Minimal:
    """Nothing but ``embed``, answering plain lists, not normalized."""

    def __init__(self) -> None:
        self.inner = HashEmbedder(32)
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        return [[3.0 * float(x) for x in row] for row in self.inner.embed(texts)]


class Bad:
    """An embedder whose answers are wrong in the way ``fault`` says."""

    def __init__(self, fault: str, dimension: int | None = 8) -> None:
        self.fault = fault
        if dimension is not None:
            self.dimension = dimension

    def embed(self, texts: Sequence[str]) -> Any:
        rows = np.ones((len(texts), 8))
        if self.fault == "dimension":
            return rows[:, :4]
        if self.fault == "nan":
            rows[-1, 2] = np.nan
        if self.fault == "rows":
            return rows[:-1] if len(texts) > 1 else np.ones((2, 8))
        if self.fault == "ragged":
            return [[1.0] * (8 + i) for i in range(len(texts))] + [[1.0]]
        return rows


def test_hash_embedder_is_deterministic_normalized_and_shares_words() -> None:
    h = HashEmbedder()
    a, b, c, zh1, zh2, empty = h.embed(
        [
            "The session cache moved to Redis.",
            "Which cache did we choose for sessions?",
            "Bananas at the market.",
            "我们把会话缓存换成了Redis",
            "缓存用的是什么",
            "",
        ]
    )
    assert a.dtype == np.float32 and a.shape == (256,)
    assert np.allclose([np.linalg.norm(v) for v in (a, b, c, zh1, zh2)], 1.0, atol=1e-5)
    assert not empty.any()
    assert float(a @ b) > float(a @ c) >= 0.0
    assert float(zh1 @ zh2) > 0.0  # jieba's words: 缓存 in both
    assert np.array_equal(HashEmbedder().embed(["same text"]), h.embed(["same text"]))
    assert HashEmbedder(64).id != h.id


@pytest.mark.parametrize("cache_mb", [None, 0])
def test_open_with_hash_embedder_recalls_through_the_vector_leg(
    tmp_path: Path, cache_mb: int | None
) -> None:
    extra = {} if cache_mb is None else {"vector_cache_mb": cache_mb}
    own = HashEmbedder()
    with recall.open(settings=_settings(tmp_path, **extra), embedder=own) as mem:
        assert id(mem.embedder()) != id(own) and mem.embedder().id == own.id  # wrapped
        assert mem.spec.embedder == f"own:{own.id}" and mem.spec.dimension == 256
        mem.add("We chose Redis for the session cache.", user_id="u1", id="redis")
        mem.add("Bought bananas at the market.", user_id="u1", id="bananas")
        mem.add("我们把会话缓存换成了Redis。", user_id="u1", id="zh")
        hits = mem.deep_recall("which session cache did we choose?", user_id="u1")
        assert hits[0].id == "redis"
        assert hits[0].vector_score is not None and hits[0].vector_score > 0.0
        assert hits[0].vector_rank is not None
        zh = mem.deep_recall("会话缓存用的是什么", user_id="u1")
        assert zh[0].id == "zh" and (zh[0].vector_score or 0.0) > 0.0
        # The fingerprint is the spec's with this embedder: id and dimension.
        fingerprint = own_spec(load_spec("default"), mem.embedder()).fingerprint
        assert mem.stats()["fingerprint"] == fingerprint != IndexSpec().fingerprint
        assert mem._store.get_meta(FINGERPRINT_KEY) == fingerprint


def test_an_object_with_only_embed_is_adapted(tmp_path: Path) -> None:
    model = Minimal()
    with recall.open(settings=_settings(tmp_path), embedder=model) as mem:
        assert model.calls == 1  # the probe that told its dimension
        assert mem.embedder().dimension == 32
        assert mem.spec.embedder == "own:Minimal"
        mem.add_many(
            [{"text": "The deploy runs on Fridays.", "id": "d"}, {"text": "Tea, not coffee."}],
            user_id="u",
        )
        row = mem.embedder().embed_query("deploy")
        assert row.dtype == np.float32 and abs(float(np.linalg.norm(row)) - 1.0) < 1e-5
        hits = mem.deep_recall("when does the deploy run?", user_id="u")
        assert hits[0].id == "d" and (hits[0].vector_score or 0.0) > 0.0


def test_the_identity_is_id_then_model_id_then_the_class() -> None:
    class WithModelId(Minimal):
        model_id = "org/model-v2"

    assert embedder_id(HashEmbedder(id="mine")) == "mine"
    assert embedder_id(WithModelId()) == "org/model-v2"
    assert embedder_id(Minimal()) == "Minimal"


def test_a_full_embedder_is_used_as_it_is(tmp_path: Path) -> None:
    class Full:
        id = "full-hash"
        dimension = 64

        def __init__(self) -> None:
            self.inner = HashEmbedder(64)

        def embed_documents(self, texts: Sequence[str]) -> Any:
            return self.inner.embed(texts)

        def embed_query(self, text: str) -> Any:
            return self.inner.embed([text])[0]

    full = Full()
    assert adapt_embedder(full) is full
    with recall.open(settings=_settings(tmp_path), embedder=full) as mem:
        assert mem.embedder() is full and mem.spec.embedder == "own:full-hash"
        mem.add("The cache is Redis.", user_id="u")
        assert mem.deep_recall("cache", user_id="u")[0].text == "The cache is Redis."


def test_reopening_with_another_embedder_is_a_spec_change(tmp_path: Path) -> None:
    s = _settings(tmp_path)
    with recall.open(settings=s, embedder=HashEmbedder(id="first")) as mem:
        mem.add("We chose Redis for the session cache.", user_id="u1")
    with recall.open(settings=s, embedder=HashEmbedder(id="first")) as mem:  # the same: fine
        assert mem.deep_recall("session cache", user_id="u1")
    with pytest.raises(IndexStaleError, match="another embedder or index spec"):
        recall.open(settings=s, embedder=HashEmbedder(id="second"))
    with pytest.raises(IndexStaleError, match="another embedder or index spec"):
        recall.open(settings=s, embedder=HashEmbedder(64, id="first"))  # another dimension
    with pytest.raises(IndexStaleError, match="another index spec"):
        recall.open(settings=s)  # the packaged models: refused before any is loaded


def test_reindex_moves_a_folder_to_another_embedder(tmp_path: Path) -> None:
    s = _settings(tmp_path)
    with recall.open(settings=s, embedder=HashEmbedder(id="first")) as mem:
        mem.add("We chose Redis for the session cache.", user_id="u1", id="r")
        mem.add("Bought bananas at the market.", user_id="u2")
    second = HashEmbedder(64, id="second")
    report = reindex(s, load_spec("default"), embedder=second)
    assert report.switched and report.embedded == 2 and not report.remaining_users
    with recall.open(settings=s, embedder=second) as mem:
        hits = mem.deep_recall("which session cache?", user_id="u1")
        assert hits[0].id == "r" and (hits[0].vector_score or 0.0) > 0.0
    with pytest.raises(IndexStaleError):
        recall.open(settings=s, embedder=HashEmbedder(id="first"))


def test_the_lifecycle_runs_on_the_own_embedder(tmp_path: Path) -> None:
    s = _settings(tmp_path).replace(short_term_capacity=2, promote_count=2)
    with recall.open(settings=s, embedder=HashEmbedder()) as mem:
        mem.update_memory("My name is Ottoline. I am allergic to penicillin.", user_id="u")
        mem.update_memory("Staging runs PostgreSQL 16 on port 5433.", user_id="u")
        res = mem.update_memory("Order 4471 ships to Vienna next week.", user_id="u")
        assert res.promoted
        out = mem.get_relevant_memories("Which Postgres version does staging run?", user_id="u")
        assert "PostgreSQL 16" in out
        hits = mem.deep_recall("PostgreSQL staging", user_id="u", depth="archive")
        assert any("PostgreSQL 16" in h.text for h in hits)


@pytest.mark.parametrize("fault", ["dimension", "nan", "rows", "ragged"])
def test_bad_vectors_raise_embedder_error(fault: str) -> None:
    adapted = AdaptedEmbedder(Bad(fault))
    with pytest.raises(EmbedderError, match="embedder 'Bad'"):
        adapted.embed_documents(["one", "two"])
    assert issubclass(EmbedderError, ConfigError)


def test_bad_vectors_are_refused_at_open_and_at_read(tmp_path: Path) -> None:
    with pytest.raises(EmbedderError, match="one vector per text"):
        recall.open(settings=_settings(tmp_path), embedder=Bad("rows", dimension=None))
    with pytest.raises(EmbedderError, match="NaN"):
        recall.open(settings=_settings(tmp_path), embedder=Bad("nan", dimension=None))
    with recall.open(settings=_settings(tmp_path), embedder=Bad("dimension")) as mem:
        # The write is committed before indexing, so it stands (the index lags); the
        # read that needs the vectors says what is wrong.
        mem.add("a note", user_id="u", id="n")
        assert [r.id for r in mem.records("u")] == ["n"]
        with pytest.raises(EmbedderError, match="4 dimensions, not 8"):
            mem.deep_recall("note", user_id="u")
    with pytest.raises(ConfigError, match="no method embed"):
        recall.open(settings=_settings(tmp_path), embedder=object())  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="positive int"):
        AdaptedEmbedder(Bad("none", dimension=0))


class Flaky(Minimal):
    """A remote model that goes down after open: its client raises its own error."""

    down = False

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if self.down:
            raise ConnectionError("model endpoint unreachable")
        return super().embed(texts)


def test_an_embedder_outage_loses_no_write_and_raises_ours(tmp_path: Path) -> None:
    model = Flaky()
    with recall.open(settings=_settings(tmp_path), embedder=model) as mem:
        mem.add("The deploy runs on Fridays.", user_id="u", id="d")
        model.down = True
        # Stored before indexing: the write stands, the index lags, nothing is raised.
        mem.add("The standup moved to ten.", user_id="u", id="s")
        assert {r.id for r in mem.records("u")} == {"d", "s"}
        with pytest.raises(EmbedderError, match="ConnectionError"):
            mem.deep_recall("deploy", user_id="u")
        degraded = mem.deep_recall("standup", user_id="u", allow_degraded=True)
        assert [h.id for h in degraded] == ["s"]
        model.down = False
        assert {h.id for h in mem.deep_recall("standup deploy", user_id="u")} == {"d", "s"}
