import sqlite3
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from recall import StoreError
from recall.errors import mapped
from recall.models import Record
from recall.store import ArticleRow, SQLiteStore, SqlStore, Store, open_store


@pytest.fixture
def make_store(tmp_path: Path, backend: str | None) -> Iterator[Callable[[], SqlStore]]:
    """Opens the test's store: the same SQLite file or PostgreSQL database every call."""
    opened: list[SqlStore] = []

    def make() -> SqlStore:
        opened.append(open_store(tmp_path, backend))
        return opened[-1]

    yield make
    for s in opened:
        s.close()


def rec(i: str, user: str = "u1", kind: str = "short_term", text: str = "hello") -> Record:
    return Record(id=i, user_id=user, kind=kind, text=text, created_at=datetime.now(UTC), tokens=1)


def test_versions(make_store: Callable[[], SqlStore], backend: str | None) -> None:
    s = make_store()
    assert s.journal_mode() == ("wal" if backend is None else "postgresql")
    assert s.version("u1") == 0
    assert s.put([rec("a"), rec("b")]) == {"u1": 1}
    assert s.put([rec("c")]) == {"u1": 2}
    assert s.version("u2") == 0
    deleted, v = s.delete("u1", ["a", "zzz"])
    assert deleted == ["a"] and v == 3
    assert [r.id for r in s.records("u1")] == ["b", "c"]
    # Deleting nothing does not bump the version.
    assert s.delete("u1", ["zzz"]) == ([], 3)


def test_same_id_for_two_users_are_two_records(make_store: Callable[[], SqlStore]) -> None:
    s = make_store()
    s.put([rec("a", "u1", text="one"), rec("a", "u2", text="two")])
    assert s.records("u1")[0].text == "one" and s.records("u2")[0].text == "two"


def test_failed_transaction_leaves_nothing(make_store: Callable[[], SqlStore]) -> None:
    s = make_store()
    s.put([rec("a")])
    with pytest.raises(RuntimeError), s.transaction() as tx:
        tx.put([rec("b")])
        tx.bump_version("u1")
        raise RuntimeError("crash mid-write")
    assert [r.id for r in s.records("u1")] == ["a"] and s.version("u1") == 1


def test_swaps_in_one_transaction_are_one_version(make_store: Callable[[], SqlStore]) -> None:
    s = make_store()
    s.put([rec("p1", kind="dynamic"), rec("p2", kind="dynamic"), rec("s1"), rec("s2")])
    with s.transaction() as tx:
        assert tx.count("u1", "short_term", ["s1", "s2", "p1", "nope"]) == 2
        tx.replace_ids("u1", ["s1"], [rec("ar-s1", kind="archive")])
        tx.replace_kind("u1", "dynamic", [rec("p3", kind="dynamic")])
        assert tx.bump_version("u1") == 2
    assert s.version("u1") == 2
    assert [r.id for r in s.records("u1", kinds=["dynamic"])] == ["p3"]
    assert sorted(r.id for r in s.records("u1")) == ["ar-s1", "p3", "s2"]


def test_records_pages_long_id_lists(make_store: Callable[[], SqlStore]) -> None:
    s = make_store()
    s.put([rec(f"r{i}") for i in range(1_200)])
    assert len(s.records("u1", ids=[f"r{i}" for i in range(1_200)])) == 1_200


def test_sqlite_errors_are_mapped() -> None:
    with pytest.raises(StoreError, match="SQLite failed while testing"), mapped("testing"):
        raise sqlite3.OperationalError("disk I/O error")


def test_unwritable_folder_is_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError):
        SQLiteStore(blocker / "sub" / "s.sqlite3")


def _article(version: int, user: str = "u1") -> ArticleRow:
    return ArticleRow(user, version, "b", "e", f"d{version}", datetime.now(UTC), ("s1", "s2"))


def test_article_versions_are_optimistic(make_store: Callable[[], SqlStore]) -> None:
    s = make_store()
    assert s.article("u1") is None and s.article_version("u1") == 0
    with s.transaction() as tx:
        assert tx.latest_article_version("u1") == 0
        assert not tx.insert_article(_article(2))  # skips version 1: refused
        assert tx.insert_article(_article(1))
        assert not tx.insert_article(_article(1))  # lost the race to version 1
        assert tx.insert_article(_article(2))
    assert s.article_version("u1") == 2 and s.article_version("u2") == 0
    newest = s.article("u1")
    assert newest is not None and newest.version == 2 and newest.dynamic == "d2"
    assert newest.promoted == ("s1", "s2") and newest.updated_at.tzinfo is not None
    old = s.article("u1", 1)
    assert old is not None and old.dynamic == "d1"
    assert s.article("u1", 3) is None


def test_job_journal(make_store: Callable[[], SqlStore]) -> None:
    s = make_store()
    at = datetime.now(UTC)
    assert not s.has_unfinished_jobs() and s.job("j1") is None
    s.add_job("j1", "u1", at, {"text": "hello"})
    with s.transaction() as tx:
        tx.add_summarized_job("j2", "u1", at)
    assert s.has_unfinished_jobs() and s.unfinished_jobs() == ["j1", "j2"]
    job = s.job("j1")
    assert job is not None and job.status == "pending" and job.payload == {"text": "hello"}
    with s.transaction() as tx:
        assert tx.mark_job_summarized("j1") and not tx.mark_job_summarized("j1")
    assert s.job("j1") == job._replace(status="summarized", payload=None)
    assert s.record_job_failure("j2", "boom", max_attempts=2)
    assert not s.record_job_failure("j2", "boom again", max_attempts=2)
    assert [(j.job_id, j.payload, j.attempts) for j in s.failed_jobs()] == [
        ("j2", {"error": "boom again"}, 2)
    ]
    s.finish_job("j1")
    assert s.job("j1") is None and not s.has_unfinished_jobs()


def test_meta_and_index_state(make_store: Callable[[], SqlStore]) -> None:
    s = make_store()
    assert s.get_meta("k") is None
    s.set_meta("k", "v")
    s.set_metas({"k": "w", "other": "x"})
    assert (s.get_meta("k"), s.get_meta("other")) == ("w", "x")
    assert s.index_version("vec", "u1") == 0
    assert s.set_index_version("vec", "u1", 3)
    assert not s.set_index_version("vec", "u1", 5, expected=4)  # raced: left as it was
    assert s.set_index_version("vec", "u1", 4, expected=3) and s.index_version("vec", "u1") == 4


def test_store_implements_the_interface(make_store: Callable[[], SqlStore]) -> None:
    s: Store = make_store()  # mypy checks the protocol here too
    wanted = {n for n in dir(Store) if not n.startswith("_")}
    assert wanted <= set(dir(s))
    s.close()


def test_a_reopened_store_keeps_everything(make_store: Callable[[], SqlStore]) -> None:
    s = make_store()
    s.put([rec("a"), rec("b", "u2")])
    s.set_meta("k", "v")
    s.close()
    again = make_store()  # the schema is not re-applied: the data stays
    assert [r.id for r in again.records("u1")] == ["a"] and again.users() == ["u1", "u2"]
    assert again.get_meta("k") == "v" and again.version("u1") == 1
    again.close()


def test_delete_user_erases_every_row(make_store: Callable[[], SqlStore]) -> None:
    s = make_store()
    s.put([rec("a"), rec("b"), rec("c", "u2")])
    s.add_job("j1", "u1", datetime.now(UTC), {"text": "x"})
    with s.transaction() as tx:
        assert tx.insert_article(_article(1))
    removed = s.delete_user("u1")
    assert removed["records"] == 2 and removed["lt_articles"] == 1 and removed["lt_jobs"] == 1
    assert s.records("u1") == [] and s.version("u1") == 0 and s.users() == ["u2"]
    assert [r.id for r in s.records("u2")] == ["c"]
    s.close()


def test_two_writers_lose_no_version_and_no_article(
    make_store: Callable[[], SqlStore],
) -> None:
    """Two connections (two processes' stores) writing at once: every bump and article kept."""
    import threading

    stores = [make_store(), make_store()]
    won = [0, 0]

    def write(n: int) -> None:
        s = stores[n]
        for i in range(25):
            s.put([rec(f"w{n}-{i}")])
            with s.transaction() as tx:  # read-then-insert: the optimistic article check
                if tx.insert_article(_article(tx.latest_article_version("u1") + 1)):
                    won[n] += 1

    threads = [threading.Thread(target=write, args=(n,)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    s = stores[0]
    assert s.version("u1") == 50 and len(s.records("u1")) == 50
    assert s.article_version("u1") == sum(won) == 50  # serialized: no insert ever lost
    assert [a.version for a in s.articles("u1")] == list(range(1, 51))
