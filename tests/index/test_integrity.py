"""Store and vector index stay honest with each other, and a folder's resources are released.

* A truncated, missing or replaced store is refused with a StoreError (never taken for an
  empty memory), and the refused open leaves the file as it found it.
* Vectors removed behind recall's back (the ``chroma/`` folder deleted, rows deleted
  through Chroma's own API) are reported by ``recall check`` and re-embedded by the next
  query.
* Opening and closing many folders in one process leaves descriptors and threads flat.
"""

from __future__ import annotations

import gc
import os
import shutil
import sqlite3
import threading
from pathlib import Path
from typing import cast

import chromadb
import pytest
from chromadb.api.client import Client
from click.testing import CliRunner

import recall
from recall.cli import main
from recall.errors import StoreError
from recall.index.integrity import MARKER


def _fill(path: Path, n: int = 6) -> None:
    with recall.open(settings=recall.Settings(path=path, vector_partitions=2)) as m:
        m.add_many(
            [{"text": f"heron sighting number {i} by the lake"} for i in range(n)], user_id="u"
        )
        m.add("the otter ate a trout", user_id="v")


def _vectors(path: Path) -> int:
    client = cast(Client, chromadb.PersistentClient(path=str(path / "chroma")))
    try:
        return sum(client.get_collection(c.name).count() for c in client.list_collections())
    finally:
        client.close()


@pytest.mark.parametrize("damage", ["truncate", "delete"])
def test_a_lost_store_is_refused_not_taken_for_empty(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "memory"
    _fill(path)
    store = path / "recall.sqlite3"
    for side in path.glob("recall.sqlite3-*"):
        side.unlink()
    if damage == "truncate":
        store.write_bytes(b"")
    else:
        store.unlink()
    with pytest.raises(StoreError, match=r"every record would be lost.*cannot help"):
        recall.open(path)
    assert not store.exists() or store.stat().st_size == 0  # no fresh schema written
    result = CliRunner().invoke(main, ["stats", "--path", str(path)])
    assert result.exit_code == 1 and result.stderr.startswith("error: the store")


def test_a_store_emptied_after_open_is_refused(tmp_path: Path) -> None:
    """A store whose tables were wiped (or replaced by a new empty one) is not a new folder."""
    path = tmp_path / "memory"
    _fill(path)
    db = sqlite3.connect(path / "recall.sqlite3")
    db.executescript("DELETE FROM records; DELETE FROM users; DELETE FROM meta;")
    db.close()
    with pytest.raises(StoreError, match="truncated or replaced"):
        recall.open(path)


def test_a_store_from_another_folder_is_refused(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    _fill(a)
    _fill(b)
    shutil.copy(a / "recall.sqlite3", b / "recall.sqlite3")
    with pytest.raises(StoreError, match="belongs to another memory folder"):
        recall.open(b)


def test_a_folder_from_before_folder_ids_is_adopted(tmp_path: Path) -> None:
    path = tmp_path / "memory"
    _fill(path)
    (path / MARKER).unlink()
    db = sqlite3.connect(path / "recall.sqlite3")
    db.execute("DELETE FROM meta WHERE key = 'folder_id'")
    db.commit()
    db.close()
    with recall.open(path) as m:
        assert m.deep_recall("heron", user_id="u")
    assert (path / MARKER).is_file()
    recall.open(path).close()  # and it opens again


@pytest.mark.real_model
@pytest.mark.parametrize("how", ["rmtree", "chroma-api"])
def test_vectors_removed_behind_recalls_back_are_reported_and_repaired(
    tmp_path: Path, how: str
) -> None:
    path = tmp_path / "memory"
    _fill(path)
    assert _vectors(path) == 7
    if how == "rmtree":
        shutil.rmtree(path / "chroma")
    else:
        client = cast(Client, chromadb.PersistentClient(path=str(path / "chroma")))
        for c in client.list_collections():
            col = client.get_collection(c.name)
            col.delete(ids=col.get()["ids"][:4])
        client.close()
    assert _vectors(path) < 7

    report = CliRunner().invoke(main, ["check", "--path", str(path), "--json"])
    assert report.exit_code == 1, report.output  # something needs repair: said, not hidden
    assert "REINDEX" in CliRunner().invoke(main, ["check", "--path", str(path)]).output

    with recall.open(path) as m:
        hits = m.deep_recall("heron sighting by the lake", user_id="u", top_k=6)
        assert len(hits) == 6 and all(h.vector_norm > 0 for h in hits[:1])
        assert m.deep_recall("otter trout", user_id="v")
    assert _vectors(path) == 7
    assert CliRunner().invoke(main, ["check", "--path", str(path)]).exit_code == 0


def test_read_commands_never_create_a_folder(tmp_path: Path) -> None:
    missing = tmp_path / "typo"
    for argv in (
        ["search", "heron", "--user", "u"],
        ["stats"],
        ["memory", "show", "--user", "u"],
        ["check"],
        ["export-user", "--user", "u"],
    ):
        result = CliRunner().invoke(main, [*argv, "--path", str(missing)])
        assert result.exit_code == 1 and "no memory folder" in result.stderr, argv
        assert not missing.exists(), argv


def _fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _threads() -> int:
    return len(os.listdir("/proc/self/task"))  # OS threads: Chroma's are not Python's


@pytest.mark.slow
def test_open_close_leaves_descriptors_and_threads_flat(tmp_path: Path) -> None:
    counts = []
    for i in range(200):
        settings = recall.Settings(path=tmp_path / f"f{i}", vector_partitions=1)
        with recall.open(settings=settings) as m:
            if i % 20 == 0:  # touch Chroma's files and threads now and then, not every time
                m.add("a heron", user_id="u")
                m.deep_recall("heron", user_id="u")
        if i in (1, 199) or i % 50 == 0:
            gc.collect()
            counts.append((_fds(), _threads(), threading.active_count()))
    first, last = counts[1], counts[-1]
    assert last[0] - first[0] <= 4, counts
    assert last[1] - first[1] <= 4, counts
    assert last[2] - first[2] <= 1, counts
