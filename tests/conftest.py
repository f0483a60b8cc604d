"""Shared fixtures: real SQLite and embedded Chroma in temp folders, the real MiniLM model."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import recall


@pytest.fixture(autouse=True, scope="session")
def _one_torch_thread() -> Iterator[None]:
    # The suite embeds tiny batches on a shared 2-core machine: torch's second thread spins
    # against other processes and a one-sentence batch takes ~10x longer.
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="session")
def embedder() -> recall.Embedder:
    """The default spec's real packaged model(s), loaded once for the whole run."""
    return recall.load_embedder(recall.load_spec("default").embedder)


@pytest.fixture
def settings(tmp_path: Path) -> recall.Settings:
    # Few partitions keep Chroma's per-collection start-up cost low in tests.
    return recall.Settings(path=tmp_path / "memory", vector_partitions=4)


@pytest.fixture
def mem(settings: recall.Settings, embedder: recall.Embedder) -> Iterator[recall.Memory]:
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
