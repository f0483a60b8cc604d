"""Schema migrations on real SQLite files: an 0.1.0 folder opens, newer files are refused,
and a failing migration changes nothing.

tests/fixtures/folder-0.1.0 was written by recall 0.1.0 (tests/fixtures/make_folder_0_1_0.py):
its tables exist at ``user_version`` 0. Tests work on copies; the fixture stays untouched.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import cast

import pytest

import recall
from recall import StoreError
from recall.store import SCHEMA_VERSION, SQLiteStore
from recall.store.schema import LATEST, MIGRATIONS, Migration, migrate
from recall.store.sqlite import SQLiteDialect

FIXTURE = Path(__file__).parents[1] / "fixtures" / "folder-0.1.0"


def _connect(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None)


def _user_version(path: Path) -> int:
    db = _connect(path)
    try:
        return int(db.execute("PRAGMA user_version").fetchone()[0])
    finally:
        db.close()


def _dump(path: Path) -> list[str]:
    """Every table definition and row of the file, in a stable order."""
    db = _connect(path)
    try:
        return list(db.iterdump())
    finally:
        db.close()


def _rows(path: Path) -> set[tuple[str, str, str, str]]:
    db = _connect(path)
    try:
        return set(db.execute("SELECT user_id, id, kind, text FROM records").fetchall())
    finally:
        db.close()


@pytest.fixture
def old_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "folder-0.1.0"
    shutil.copytree(FIXTURE, folder)
    return folder


@pytest.mark.real_model
def test_an_0_1_0_folder_opens_and_migrates(old_folder: Path, embedder: recall.Embedder) -> None:
    db_file = old_folder / "recall.sqlite3"
    assert _user_version(db_file) == 0
    before = _rows(db_file)
    kinds = {(u, k) for u, _, k, _ in before}
    assert {("alice", k) for k in ("short_term", "archive", "dynamic", "turn")} <= kinds
    assert any(u == "bob" for u, _ in kinds)

    # 0.1.0 built its vectors with MiniLM on torch: the spec default-torch.
    old = recall.Settings(path=old_folder, index_spec="default-torch")
    mem = recall.open(old_folder, settings=old)
    try:
        assert _user_version(db_file) == LATEST == SCHEMA_VERSION
        after = {
            (r.user_id, r.id, r.kind, r.text)
            for user in ("alice", "bob")
            for r in mem.records(user)
        }
        assert after == before  # every record of both users, unchanged
        assert mem.long_term("alice").version == 2
        hits = mem.deep_recall("cache", user_id="alice", kinds=["short_term", "dynamic"])
        assert hits[0].text == "We chose Redis for the session cache."
    finally:
        mem.close()

    # A second open (the folder now remembers its spec) finds the file at the latest
    # version and writes nothing at all.
    dumped = _dump(db_file)
    with recall.open(old_folder) as again:
        assert again.long_term("alice").version == 2
    assert _user_version(db_file) == LATEST
    assert _dump(db_file) == dumped


@pytest.mark.real_model
def test_an_old_folder_on_the_new_default_says_how_to_upgrade(
    old_folder: Path, embedder: recall.Embedder
) -> None:
    with pytest.raises(recall.IndexStaleError) as err:
        recall.open(old_folder, settings=recall.Settings(path=old_folder, index_spec="default"))
    assert "recall reindex --all" in str(err.value) and "--spec default-torch" in str(err.value)
    from recall.index.rebuild import reindex

    report = reindex(recall.Settings(path=old_folder), recall.load_spec("default"))
    assert report.switched and report.embedded == report.records
    with recall.open(old_folder) as mem:  # remembered: the new default now
        assert mem.spec.name == "default"
        hits = mem.deep_recall("cache", user_id="alice", kinds=["short_term", "dynamic"])
        assert hits[0].text == "We chose Redis for the session cache."


def test_migrating_an_old_file_keeps_its_schema(old_folder: Path, tmp_path: Path) -> None:
    # Migration 1 is the 0.1.0 schema: an old file and a new one end with the same tables.
    SQLiteStore(old_folder / "recall.sqlite3").close()
    SQLiteStore(tmp_path / "new.sqlite3").close()

    def schema(path: Path) -> set[tuple[str, str]]:
        db = _connect(path)
        try:
            rows = db.execute("SELECT type, name FROM sqlite_master WHERE sql IS NOT NULL")
            return set(rows.fetchall())
        finally:
            db.close()

    assert schema(old_folder / "recall.sqlite3") == schema(tmp_path / "new.sqlite3")
    assert _user_version(tmp_path / "new.sqlite3") == LATEST


def test_a_file_from_a_newer_recall_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "recall.sqlite3"
    SQLiteStore(path).close()
    db = _connect(path)
    db.execute(f"PRAGMA user_version = {LATEST + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer recall") as err:
        SQLiteStore(path)
    message = str(err.value)
    assert str(path) in message and "Upgrade recall" in message
    assert f"version {LATEST + 1}" in message
    assert _user_version(path) == LATEST + 1  # refused, not rewritten
    with pytest.raises(StoreError, match="newer recall"):
        recall.open(tmp_path, settings=recall.Settings(path=tmp_path))


def test_a_failing_migration_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "recall.sqlite3"
    steps = ("CREATE TABLE added (x)", "SELECT * FROM nope")
    broken = Migration(LATEST + 1, "a table, then a statement that fails", steps)
    sql = SQLiteDialect(path)
    try:
        with pytest.raises(StoreError, match="nope"):
            migrate(sql, [*MIGRATIONS, broken])
        # The earlier migrations ran in the same transaction as the failing one: none is left.
        assert sql.read(lambda db: db.execute("PRAGMA user_version").fetchone()[0]) == 0
        assert sql.read(lambda db: db.execute("SELECT name FROM sqlite_master").fetchall()) == []
        assert not sql.read(lambda db: cast(sqlite3.Connection, db).in_transaction)
    finally:
        sql.close()
    SQLiteStore(path).close()  # the untouched file still opens and migrates normally
    assert _user_version(path) == LATEST


def test_a_later_migration_applies_on_top_of_the_current_schema(tmp_path: Path) -> None:
    path = tmp_path / "recall.sqlite3"
    store = SQLiteStore(path)
    store.put([])
    store.close()
    extra = Migration(LATEST + 1, "a new table", ("CREATE TABLE IF NOT EXISTS added (x TEXT)",))
    sql = SQLiteDialect(path)
    try:
        assert migrate(sql, [*MIGRATIONS, extra]) == LATEST + 1
        assert migrate(sql, [*MIGRATIONS, extra]) == LATEST + 1  # no-op now
        assert sql.read(lambda db: db.execute("SELECT COUNT(*) FROM added").fetchone()[0]) == 0
    finally:
        sql.close()
    assert _user_version(path) == LATEST + 1
    with pytest.raises(StoreError, match="newer recall"):
        SQLiteStore(path)  # this code's migrations stop at LATEST


def test_migrations_must_be_numbered_in_order(tmp_path: Path) -> None:
    sql = SQLiteDialect(tmp_path / "recall.sqlite3")
    try:
        with pytest.raises(ValueError, match="numbered"):
            migrate(sql, [*MIGRATIONS, Migration(LATEST + 2, "skips one", ())])
    finally:
        sql.close()
