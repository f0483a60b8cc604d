"""A user as a whole: delete_user leaves nothing behind; export/import moves one intact."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

import recall
from recall.cli import main
from recall.index.purge import user_vector_counts
from recall.store import SQLiteStore
from recall.store.users import UnknownUserError, UserExistsError

VICTIM = "gdpr-victim-7f3a"
OTHER = "bystander-21"
SECRET = "zebracorn"  # a word found nowhere but in the victim's texts


@pytest.fixture
def small(settings: recall.Settings, embedder: recall.Embedder) -> Iterator[recall.Memory]:
    """A memory whose short-term tier overflows after 3 summaries (articles come quickly)."""
    m = recall.open(settings=settings.replace(short_term_capacity=2, promote_count=2))
    yield m
    m.close()


def _fill(m: recall.Memory) -> None:
    for i in range(4):
        m.update_memory(
            f"The user keeps a {SECRET} named Pip{i}; it eats kale. "
            f"This morning the {SECRET} escaped into the garden again.",
            user_id=VICTIM,
        )
    m.add(f"{SECRET} note: allergic to pollen", user_id=VICTIM, id=f"{SECRET}-note")
    m.add("Bystander prefers tea over coffee.", user_id=OTHER)
    # A job journaled for the victim that no worker has taken (a crash left it, say).
    job_id, at = recall.store.new_job_id()
    m._store.add_job(job_id, VICTIM, at, {"states": f"{SECRET} pending job"})


def _all_values(db_path: Path) -> list[str]:
    db = sqlite3.connect(db_path)
    try:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return [
            str(value)
            for table in tables
            for row in db.execute(f"SELECT * FROM {table}")
            for value in row
        ]
    finally:
        db.close()


def test_delete_user_removes_every_row_vector_and_byte(small: recall.Memory) -> None:
    _fill(small)
    before = small.long_term(VICTIM)
    assert before.version >= 1 and SECRET in before.render()  # articles exist to be erased
    assert {r.kind for r in small.records(VICTIM)} >= {"short_term", "archive", "dynamic", "note"}
    assert small.deep_recall(SECRET, user_id=VICTIM)  # the BM25 partition is cached now
    assert sum(user_vector_counts(small._vectors.client, VICTIM).values()) > 0

    done = small.delete_user(VICTIM)

    assert done.existed and done.records > 5 and done.articles == before.version
    assert done.jobs == 1 and done.vectors == done.records
    db_path = small.path / "recall.sqlite3"
    # Every table, every column: nothing names the victim or holds their text.
    assert not [v for v in _all_values(db_path) if VICTIM in v or SECRET in v]
    # The raw file and its write-ahead log: no free page keeps the deleted bytes.
    for f in (db_path, db_path.with_name(db_path.name + "-wal")):
        raw = f.read_bytes() if f.exists() else b""
        assert VICTIM.encode() not in raw and SECRET.encode() not in raw, f
    assert user_vector_counts(small._vectors.client, VICTIM) == {}
    assert VICTIM not in small._store.users()
    assert small.deep_recall(SECRET, user_id=VICTIM) == []
    assert small.long_term(VICTIM).version == 0
    # The bystander is untouched, in the store and in the index.
    assert [h.text for h in small.deep_recall("tea", user_id=OTHER)] == [
        "Bystander prefers tea over coffee."
    ]
    assert sum(user_vector_counts(small._vectors.client, OTHER).values()) == 1
    again = small.delete_user(VICTIM)
    assert not again.existed


def test_export_then_import_moves_a_user_intact(small: recall.Memory) -> None:
    _fill(small)
    small._store.finish_job(small._store.unfinished_jobs()[0])  # exports carry no jobs
    lines = small.export_user(VICTIM)
    header = json.loads(lines[0])
    assert header["user_id"] == VICTIM and header["articles"] >= 1
    assert all(line.endswith("\n") for line in lines)

    done = small.import_user("".join(lines), user_id="moved")

    assert (done.user_id, done.source_user_id) == ("moved", VICTIM)
    old, new = small.records(VICTIM), small.records("moved")
    assert [(r.id, r.kind, r.text, r.created_at, r.metadata) for r in new] == [
        (r.id, r.kind, r.text, r.created_at, r.metadata) for r in old
    ]
    assert [
        a.render() for a in (small.long_term(VICTIM, v) for v in range(1, done.articles + 1))
    ] == [a.render() for a in (small.long_term("moved", v) for v in range(1, done.articles + 1))]
    assert not small._sync.lag("moved")  # indexed at once, not on the first query
    hits = small.deep_recall("allergic to pollen", user_id="moved", top_k=1)
    assert hits[0].id == f"{SECRET}-note"


def test_import_refuses_a_user_that_holds_memory_and_writes_nothing(mem: recall.Memory) -> None:
    mem.add("first life", user_id="a")
    mem.add("second life", user_id="b")
    export = "".join(mem.export_user("a"))
    with pytest.raises(UserExistsError, match="already holds memory"):
        mem.import_user(export, user_id="b")
    assert [r.text for r in mem.records("b")] == ["second life"]


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda lines: lines[:-1], "truncated"),
        (lambda lines: ["{not json\n", *lines[1:]], "not JSON"),
        (lambda lines: [lines[0].replace('"format": 1', '"format": 9'), *lines[1:]], "format"),
        (lambda lines: [*lines, '{"type": "secret"}\n'], "unknown row type"),
        (lambda _lines: [], "empty"),
    ],
)
def test_a_bad_export_is_refused_with_its_reason(
    mem: recall.Memory, mangle: Callable[[list[str]], list[str]], message: str
) -> None:
    mem.add("one", user_id="a")
    mem.add("two", user_id="a")
    lines = mangle(mem.export_user("a"))
    with pytest.raises(recall.InputError, match=message):
        mem.import_user(lines, user_id="c")
    assert mem.records("c") == []


def test_exporting_a_user_never_written_is_unknown(mem: recall.Memory) -> None:
    with pytest.raises(UnknownUserError, match="holds no memory here") as caught:
        mem.export_user("nobody")
    assert str(mem.path) not in str(caught.value)  # a server answers with it: no folder path


def test_holds_tells_a_user_from_a_typo(mem: recall.Memory) -> None:
    assert not mem.holds("u1")
    mem.add("Tea, no sugar.", user_id="u1")
    assert mem.holds("u1") and not mem.holds("u2")
    mem.delete_user("u1")
    assert not mem.holds("u1")  # erased: as if never held
    with pytest.raises(recall.InputError):
        mem.holds(" ")


def test_the_store_checks_article_order_and_ownership(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.sqlite3")
    row = recall.store.ArticleRow("u", 2, "b", "e", "d", datetime(2026, 1, 1))
    with pytest.raises(recall.InputError, match="run 1, 2"):
        store.import_user("u", [], [row])
    with pytest.raises(recall.InputError, match="belong to user"):
        store.import_user("v", [], [row])
    store.close()


def test_cli_exports_deletes_and_imports(tmp_path: Path, embedder: recall.Embedder) -> None:
    folder = tmp_path / "memory"
    with recall.open(folder, settings=recall.Settings(vector_partitions=4)) as m:
        m.add("We chose Redis for the session cache.", user_id="u1")
    run = CliRunner().invoke
    out = tmp_path / "u1.jsonl"
    res = run(main, ["export-user", "--user", "u1", "--out", str(out), "--path", str(folder)])
    assert res.exit_code == 0, res.output
    res = run(main, ["delete-user", "--user", "u1", "--path", str(folder)], input="y\n")
    assert res.exit_code == 0 and "1 records" in res.output, res.output
    res = run(main, ["delete-user", "--user", "u1", "--yes", "--path", str(folder)])
    assert res.exit_code == 1 and "holds no memory" in res.output
    res = run(main, ["import-user", str(out), "--user", "u2", "--path", str(folder)])
    assert res.exit_code == 0 and "as user u2 (from u1)" in res.output, res.output
    with recall.open(folder, settings=recall.Settings(vector_partitions=4)) as m:
        assert [h.text for h in m.deep_recall("cache", user_id="u2")] == [
            "We chose Redis for the session cache."
        ]
        assert m.records("u1") == []
