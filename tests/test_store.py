import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from recall import StoreError
from recall.errors import mapped
from recall.models import Record
from recall.store.sqlite import Store


def rec(i: str, user: str = "u1", kind: str = "short_term", text: str = "hello") -> Record:
    return Record(id=i, user_id=user, kind=kind, text=text, created_at=datetime.now(UTC), tokens=1)


def test_wal_and_versions(tmp_path: Path) -> None:
    s = Store(tmp_path / "s.sqlite3")
    assert s._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert s.version("u1") == 0
    assert s.put([rec("a"), rec("b")]) == {"u1": 1}
    assert s.put([rec("c")]) == {"u1": 2}
    assert s.version("u2") == 0
    deleted, v = s.delete("u1", ["a", "zzz"])
    assert deleted == ["a"] and v == 3
    assert [r.id for r in s.records("u1")] == ["b", "c"]
    # Deleting nothing does not bump the version.
    assert s.delete("u1", ["zzz"]) == ([], 3)


def test_same_id_for_two_users_are_two_records(tmp_path: Path) -> None:
    s = Store(tmp_path / "s.sqlite3")
    s.put([rec("a", "u1", text="one"), rec("a", "u2", text="two")])
    assert s.records("u1")[0].text == "one" and s.records("u2")[0].text == "two"


def test_failed_transaction_leaves_nothing(tmp_path: Path) -> None:
    s = Store(tmp_path / "s.sqlite3")
    s.put([rec("a")])
    with pytest.raises(RuntimeError), s.transaction() as db:
        Store.put_in(db, [rec("b")])
        Store.bump_version(db, "u1")
        raise RuntimeError("crash mid-write")
    assert [r.id for r in s.records("u1")] == ["a"] and s.version("u1") == 1


def test_replace_is_one_version(tmp_path: Path) -> None:
    s = Store(tmp_path / "s.sqlite3")
    s.put([rec("p1", kind="dynamic"), rec("p2", kind="dynamic")])
    v = s.replace("u1", ["p1", "p2"], [rec("p3", kind="dynamic")])
    assert v == 2 and [r.id for r in s.records("u1", kinds=["dynamic"])] == ["p3"]


def test_records_pages_long_id_lists(tmp_path: Path) -> None:
    s = Store(tmp_path / "s.sqlite3")
    s.put([rec(f"r{i}") for i in range(1_200)])
    assert len(s.records("u1", ids=[f"r{i}" for i in range(1_200)])) == 1_200


def test_sqlite_errors_are_mapped() -> None:
    with pytest.raises(StoreError, match="SQLite failed while testing"), mapped("testing"):
        raise sqlite3.OperationalError("disk I/O error")


def test_unwritable_folder_is_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError):
        Store(blocker / "sub" / "s.sqlite3")
