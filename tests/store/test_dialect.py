"""The backend contract: SQLite and PostgreSQL both implement ``recall.store.Dialect``, and
the one store class needs nothing else from a backend (issue 25: the store by composition).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

import pytest

from recall import StoreError
from recall.models import Record
from recall.store import ArticleRow, Db, Dialect, SqlStore, open_store
from recall.store.pg import PostgresDialect
from recall.store.schema import LATEST
from recall.store.sqlite import SQLiteDialect

T = TypeVar("T")

#: What a new backend implements: the protocol's public methods, and ``where``.
CONTRACT = sorted(
    name for name, value in vars(Dialect).items() if not name.startswith("_") and callable(value)
)


def _dialect(tmp_path: Path, backend: str | None) -> Dialect:
    if backend is None:
        return SQLiteDialect(tmp_path / "recall.sqlite3")
    return PostgresDialect(backend)


def test_the_contract_is_the_documented_method_list() -> None:
    import recall.store

    documented = ["claim", "close", "ddl", "erase", "journal_mode", "read", "release"]
    documented += ["schema_version", "set_schema_version", "upsert", "vacuum", "write"]
    assert documented == CONTRACT
    doc = recall.store.__doc__ or ""
    assert all(f"``{name}``" in doc for name in [*CONTRACT, "where"])


@pytest.mark.parametrize("cls", [SQLiteDialect, PostgresDialect])
def test_each_backend_implements_every_method_with_its_signature(cls: type) -> None:
    for name in CONTRACT:
        wanted = inspect.signature(getattr(Dialect, name))
        have = inspect.signature(getattr(cls, name))
        assert list(have.parameters) == list(wanted.parameters), (cls.__name__, name)
        assert getattr(cls, name).__doc__, (cls.__name__, name)


def test_each_backend_is_a_dialect_at_runtime(tmp_path: Path, backend: str | None) -> None:
    sql = _dialect(tmp_path, backend)
    try:
        assert isinstance(sql, Dialect)
        assert isinstance(sql.where, str) and "@" not in sql.where  # never a server's URL
        store = SqlStore(sql)  # the whole store over the dialect alone
        assert store.schema_version() == LATEST
    finally:
        sql.close()
    sql.close()  # idempotent


class Recording:
    """A third "backend": every call goes to another dialect and is written down."""

    def __init__(self, inner: Dialect) -> None:
        self.inner = inner
        self.where = inner.where
        self.calls: set[str] = set()

    def _note(self, name: str) -> Dialect:
        self.calls.add(name)
        return self.inner

    def read(self, run: Callable[[Db], T]) -> T:
        return self._note("read").read(run)

    def write(self) -> AbstractContextManager[Db]:
        return self._note("write").write()

    def erase(self) -> AbstractContextManager[Db]:
        return self._note("erase").erase()

    def upsert(self, table: str, columns: Sequence[str], keys: Sequence[str]) -> str:
        return self._note("upsert").upsert(table, columns, keys)

    def ddl(self, statement: str) -> str:
        return self._note("ddl").ddl(statement)

    def schema_version(self, db: Db) -> int:
        return self._note("schema_version").schema_version(db)

    def set_schema_version(self, db: Db, version: int) -> None:
        self._note("set_schema_version").set_schema_version(db, version)

    def claim(self, job_id: str) -> bool:
        return self._note("claim").claim(job_id)

    def release(self, job_id: str) -> None:
        self._note("release").release(job_id)

    def vacuum(self, lock_timeout_s: float) -> list[str]:
        return self._note("vacuum").vacuum(lock_timeout_s)

    def journal_mode(self) -> str:
        return self._note("journal_mode").journal_mode()

    def close(self) -> None:
        self._note("close").close()


@pytest.fixture
def recorded(tmp_path: Path, backend: str | None) -> Iterator[tuple[SqlStore, Recording]]:
    if backend is None:
        inner: Dialect = SQLiteDialect(tmp_path / "new" / "recall.sqlite3")
    else:
        inner = PostgresDialect(backend)
    sql = Recording(inner)
    store = SqlStore(sql)
    yield store, sql
    store.close()


def _rec(i: str, user: str = "u1") -> Record:
    now = datetime.now(UTC)
    return Record(id=i, user_id=user, kind="note", text=f"t {i}", created_at=now, tokens=1)


def test_the_whole_store_runs_through_the_contract(
    recorded: tuple[SqlStore, Recording], backend: str | None
) -> None:
    store, sql = recorded
    assert isinstance(sql, Dialect)
    assert {"read", "write", "ddl", "schema_version", "set_schema_version"} <= sql.calls
    assert store.put([_rec("a"), _rec("b"), _rec("c", "u2")]) == {"u1": 1, "u2": 1}
    assert store.put([_rec("a")]) == {"u1": 2}  # replaced through the dialect's upsert
    assert sorted(r.id for r in store.records("u1")) == ["a", "b"] and "upsert" in sql.calls
    at = datetime.now(UTC)
    with store.transaction() as tx:
        tx.add_summarized_job("j1", "u1", at)
        assert tx.insert_article(ArticleRow("u1", 1, "b", "e", "d", at))
        tx.bump_version("u1")
    store.add_job("j2", "u1", at, {"text": "x"})
    assert store.unfinished_jobs() == ["j1", "j2"] and "claim" in sql.calls
    store.finish_job("j1")
    assert not store.record_job_failure("j2", "boom", max_attempts=1)
    assert "release" in sql.calls and [j.job_id for j in store.failed_jobs()] == ["j2"]
    assert store.delete_user("u1")["records"] == 2 and "erase" in sql.calls
    assert store.users() == ["u2"] and store.version("u1") == 0
    assert store.journal_mode() == ("wal" if backend is None else "postgresql")
    assert store.vacuum(lock_timeout_s=5.0) and "vacuum" in sql.calls
    store.close()
    assert set(CONTRACT) <= sql.calls  # every method was used: none is dead weight


def test_a_store_from_a_newer_recall_is_refused_on_both(
    tmp_path: Path, backend: str | None
) -> None:
    store = open_store(tmp_path, backend)
    with store.sql.write() as db:
        store.sql.set_schema_version(db, LATEST + 1)
    store.close()
    with pytest.raises(StoreError, match="newer recall") as err:
        open_store(tmp_path, backend)
    assert f"version {LATEST + 1}" in str(err.value)
    assert backend is None or backend.split("@")[-1] not in str(err.value)  # no server named
