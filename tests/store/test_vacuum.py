"""``recall delete-user --vacuum`` (issue 23, item 9): after an erasure, the files too.

On PostgreSQL a DELETE leaves the row's bytes in the table and index files, and so does a
plain VACUUM; the test reads the database's files before and after ``--vacuum``. On SQLite
the free pages are dropped and the log truncated; the embedded Chroma's file is vacuumed.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import recall
from recall.cli import main

MARK = "ZEBRAPASSPHRASE"  # in every erased record's text


def _fill(mem: recall.Memory) -> None:
    mem.add_many(
        [{"text": f"{MARK} {i}: the victim's diary, entry {i}. " * 8} for i in range(60)],
        user_id="victim",
    )
    mem.add("The other user's cache is Redis.", user_id="other")


def _freelist(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("PRAGMA freelist_count").fetchone()[0])
    finally:
        db.close()


def test_delete_user_vacuum_on_sqlite(tmp_path: Path, embedder: recall.Embedder) -> None:
    folder = tmp_path / "m"
    with recall.open(settings=recall.Settings(path=folder, vector_partitions=2)) as mem:
        _fill(mem)
    store, chroma = folder / "recall.sqlite3", folder / "chroma" / "chroma.sqlite3"
    size = store.stat().st_size
    result = CliRunner().invoke(
        main, ["delete-user", "--user", "victim", "--yes", "--vacuum", "--path", str(folder)]
    )
    assert result.exit_code == 0, result.output
    assert "erased user victim: 60 records" in result.output
    assert f"VACUUM {store}" in result.output and f"VACUUM {chroma}" in result.output
    assert "embeddings_queue" in result.output  # what Chroma's log keeps is said
    assert _freelist(store) == 0 and _freelist(chroma) == 0  # no free page left to read
    assert store.stat().st_size < size  # the erased pages are gone from the file
    wal = Path(f"{store}-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    with recall.open(folder) as mem:  # the rest of the memory is intact
        assert mem.deep_recall("cache Redis", user_id="other")
        assert not mem.records("victim")


def _files_holding(folder: Path, text: bytes) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file() and text in p.read_bytes()]


def test_delete_user_vacuum_on_postgres(
    tmp_path: Path,
    pg_server: object,
    pg_url: str,
    embedder: recall.Embedder,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import psycopg

    data = getattr(pg_server, "data", None)
    if data is None or not Path(data).is_dir():
        pytest.skip("the server's files are not on this machine")
    folder = tmp_path / "m"
    settings = recall.Settings(path=folder, store_url=pg_url, vector_partitions=2)
    with recall.open(settings=settings) as mem:
        _fill(mem)
    with psycopg.connect(pg_url, autocommit=True) as admin:
        oid = admin.execute("SELECT oid FROM pg_database WHERE datname = current_database()")
        files = Path(data) / "base" / str(oid.fetchone()[0])  # type: ignore[index]

        def on_disk() -> list[Path]:
            admin.execute("CHECKPOINT")  # what the buffers hold reaches the files
            return _files_holding(files, MARK.encode())

        assert on_disk()
        with recall.open(settings=settings) as mem:
            mem.delete_user("victim")
        # The rows are gone for every reader, not from the files, and a plain VACUUM (what
        # autovacuum runs) leaves them there too: the reason for --vacuum.
        assert on_disk()
        admin.execute("VACUUM")
        assert on_disk()
        monkeypatch.setenv("RECALL_STORE_URL", pg_url)
        result = CliRunner().invoke(
            main, ["delete-user", "--user", "other", "--yes", "--vacuum", "--path", str(folder)]
        )
        assert result.exit_code == 0, result.output
        assert "VACUUM FULL records" in result.output and "CHECKPOINT" in result.output
        assert "WAL" in result.output  # what it cannot remove is said
        assert on_disk() == []


def test_tables_this_role_may_not_vacuum_are_said_not_skipped_silently(pg_url: str) -> None:
    import psycopg

    from recall.store.pg import PostgresStore

    PostgresStore(pg_url).close()  # the tables, owned by the server's superuser
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute("DROP ROLE IF EXISTS recall_helper")
        admin.execute("CREATE ROLE recall_helper LOGIN")
        admin.execute("GRANT CREATE, USAGE ON SCHEMA public TO recall_helper")
        admin.execute("GRANT ALL ON ALL TABLES IN SCHEMA public TO recall_helper")
    try:
        store = PostgresStore(pg_url.replace("://postgres@", "://recall_helper@"))
        try:
            lines = store.vacuum()
        finally:
            store.close()
        assert lines[0].startswith("skipped ") and "records" in lines[0], lines
        assert not any(line.startswith("VACUUM FULL") for line in lines)
    finally:
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("DROP OWNED BY recall_helper")
            admin.execute("DROP ROLE recall_helper")


SECRET = "OKAPIWHISPER"  # short records: ANALYZE keeps such values in pg_statistic too


def _relation_files(admin: Any, data: Path) -> list[Path]:
    """The files of every table that holds user rows, their TOAST tables and indexes
    (``pg_relation_filepath``: each main fork and its 1 GB segments)."""
    from recall.store.users import USER_TABLES

    rows = admin.execute(
        "SELECT pg_relation_filepath(c.oid) FROM pg_class c "
        "WHERE c.relname = ANY(%(t)s) "
        "OR c.oid IN (SELECT reltoastrelid FROM pg_class WHERE relname = ANY(%(t)s)) "
        "OR c.oid IN (SELECT indexrelid FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid "
        "WHERE t.relname = ANY(%(t)s) OR t.oid IN "
        "(SELECT reltoastrelid FROM pg_class WHERE relname = ANY(%(t)s)))",
        {"t": list(USER_TABLES)},
    ).fetchall()
    files = [data / r[0] for r in rows if r[0]]
    return [p for f in files for p in f.parent.glob(f"{f.name}*") if p.is_file()]


def test_an_erased_user_leaves_no_copy_in_the_heap_files_after_the_operator_step(
    tmp_path: Path,
    pg_server: object,
    pg_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 35 item 5: the erasure (as ``DELETE /v1/users/{user}`` runs it), a checkpoint,
    then the documented step as a command of its own: ``recall delete-user --vacuum`` on
    the user already erased vacuums (it refused with "holds no memory" before), and no
    relation file of the store, nor any file of the database, holds the text after it."""
    import psycopg

    data = getattr(pg_server, "data", None)
    if data is None or not Path(data).is_dir():
        pytest.skip("the server's files are not on this machine")
    folder = tmp_path / "m"
    settings = recall.Settings(path=folder, store_url=pg_url, vector_partitions=2)
    with recall.open(settings=settings) as mem:
        notes = [{"text": f"{SECRET} pin {i}"} for i in range(40)]
        mem.add_many(notes, user_id="victim")
        mem.update_memory(f"{SECRET}: the victim's summary.", user_id="victim")
        mem.add("The other user's cache is Redis.", user_id="other")
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute("ANALYZE")  # what autovacuum runs on its own: samples in pg_statistic
        oid = admin.execute("SELECT oid FROM pg_database WHERE datname = current_database()")
        database = Path(data) / "base" / str(oid.fetchone()[0])  # type: ignore[index]

        def holding(files: list[Path]) -> list[Path]:
            admin.execute("CHECKPOINT")  # what the buffers hold reaches the files
            return [p for p in files if SECRET.encode() in p.read_bytes()]

        with recall.open(settings=settings) as mem:
            assert mem.delete_user("victim").existed
        assert holding(_relation_files(admin, Path(data)))  # the reason for the step
        monkeypatch.setenv("RECALL_STORE_URL", pg_url)
        result = CliRunner().invoke(
            main, ["delete-user", "--user", "victim", "--yes", "--vacuum", "--path", str(folder)]
        )
        assert result.exit_code == 0, result.output
        assert "holds no memory" in result.output and "VACUUM FULL records" in result.output
        assert holding(_relation_files(admin, Path(data))) == []
        assert holding([p for p in database.rglob("*") if p.is_file()]) == []
    with recall.open(settings=settings) as mem:  # the rest of the memory is intact
        assert [r.text for r in mem.records("other")] == ["The other user's cache is Redis."]
    # Without --vacuum, a user that holds nothing is still an error.
    refused = CliRunner().invoke(
        main, ["delete-user", "--user", "victim", "--yes", "--path", str(folder)]
    )
    assert refused.exit_code == 1 and "holds no memory" in refused.output
