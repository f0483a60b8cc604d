"""Shared fixtures: real SQLite and embedded Chroma in temp folders; the stand-in embedder.

Every memory a test opens in this process embeds with ``recall.testing.HashEmbedder`` (no
model: deterministic word and n-gram hashes), unless the test is marked ``real_model``:
tests of logic (storage, lifecycle, context, server, errors) need no model, tests of
retrieval quality (a paraphrase, another language, the floor's thresholds) need the real
one, and are slow too (loading the models). A subprocess (the CLI, a server) opens its
folders with the real model.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import recall
import recall.memory.core
from recall.index.own import adapt_embedder
from recall.testing import HashEmbedder


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A ``real_model`` test is ``slow`` too: loading the packaged models takes ~10 s a run."""
    for item in items:
        if item.get_closest_marker("real_model") is not None:
            item.add_marker(pytest.mark.slow)


def _real(request: pytest.FixtureRequest) -> bool:
    return request.node.get_closest_marker("real_model") is not None


@pytest.fixture(autouse=True)
def _stand_in_embedder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A memory opened without an embedder gets a HashEmbedder (not under ``real_model``)."""
    if _real(request):
        return
    init = recall.memory.core.MemoryCore.__init__

    def with_hash(self: recall.memory.core.MemoryCore, *args: Any, **kwargs: Any) -> None:
        if kwargs.get("embedder") is None:
            kwargs["embedder"] = HashEmbedder()
        init(self, *args, **kwargs)

    monkeypatch.setattr(recall.memory.core.MemoryCore, "__init__", with_hash)


@pytest.fixture(autouse=True)
def _one_torch_thread() -> None:
    # The suite embeds tiny batches on a shared 2-core machine: torch's second thread spins
    # against other processes and a one-sentence batch takes ~10x longer. Only once a test
    # has imported torch: importing it takes seconds, for the few tests of torch models.
    torch = sys.modules.get("torch")
    if torch is not None and torch.get_num_threads() != 1:
        torch.set_num_threads(1)


@pytest.fixture(scope="session")
def real_embedder() -> recall.Embedder:
    """The default spec's real packaged model(s), loaded once for the whole run."""
    return recall.load_embedder(recall.load_spec("default").embedder)


@pytest.fixture
def embedder(request: pytest.FixtureRequest) -> recall.Embedder:
    """The embedder the test's memories use: the real model(s) under ``real_model``, else
    the HashEmbedder every memory opened here gets."""
    if _real(request):
        return request.getfixturevalue("real_embedder")  # type: ignore[no-any-return]
    return adapt_embedder(HashEmbedder())


@pytest.fixture
def settings(tmp_path: Path) -> recall.Settings:
    # Few partitions keep Chroma's per-collection start-up cost low in tests.
    return recall.Settings(path=tmp_path / "memory", vector_partitions=4)


@pytest.fixture
def mem(settings: recall.Settings) -> Iterator[recall.Memory]:
    m = recall.open(settings=settings)
    yield m
    m.close()


# --- PostgreSQL: a real server for the whole run, one fresh database per test -------------
@pytest.fixture(scope="session")
def pg_server() -> Iterator[object]:
    """A PostgreSQL server on 127.0.0.1 started for this run (tests/pg_server.py)."""
    from pg_server import PGServer, find_bindir

    bindir = find_bindir()
    if bindir is None:
        pytest.skip("no PostgreSQL binaries (initdb, postgres) on this machine")
    server = PGServer(bindir)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server: object) -> str:
    """The URL of a new, empty database on the test server."""
    return pg_server.new_database()  # type: ignore[attr-defined, no-any-return]


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> str | None:
    """Each store backend in turn: None (the folder's SQLite file) or a PostgreSQL URL."""
    if request.param == "sqlite":
        return None
    return str(request.getfixturevalue("pg_url"))
