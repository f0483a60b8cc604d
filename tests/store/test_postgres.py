"""recall on a real PostgreSQL server: the facade end to end, isolation, migrate, crashes.

The store's contract tests run on both backends in ``test_store.py``; several processes
sharing one PostgreSQL and one Chroma server are in ``test_multiprocess.py``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import recall
from recall.cli import main
from recall.errors import ConfigError, StoreError


def _settings(folder: Path, url: str) -> recall.Settings:
    return recall.Settings(path=folder, store_url=url, vector_partitions=2)


def test_memory_on_postgres_end_to_end(tmp_path: Path, pg_url: str) -> None:
    with recall.open(tmp_path / "m", store_url=pg_url) as mem:
        a = mem.add("We chose Redis for the session cache.", user_id="u1")
        mem.add("Another user's cache is Memcached.", user_id="u2")
        assert [h.id for h in mem.deep_recall("session cache", user_id="u1")] == [a]
        for i in range(22):  # past short_term_capacity: a promotion into the article
            mem.update_memory(f"Day {i}: the user shipped parcel {48000 + i}.", user_id="u1")
        assert mem.long_term("u1").version >= 1 and len(mem.short_term("u1")) <= 20
        assert mem.delete([a], user_id="u1") == 1
    assert not (tmp_path / "m" / "recall.sqlite3").exists()  # the store is the server's
    with recall.open(tmp_path / "m", store_url=pg_url) as again:  # reopened: all there
        assert again.long_term("u1").version >= 1
        assert again.deep_recall("parcel 48003", user_id="u1")
        assert again.deep_recall("Memcached", user_id="u2")


def test_bad_store_urls_are_clear_errors(tmp_path: Path, pg_server: object) -> None:
    with pytest.raises(ConfigError, match="postgresql://"):
        recall.open(tmp_path / "m", store_url="mysql://localhost/x")
    gone = pg_server.url.rsplit("/", 1)[0] + "/no_such_db"  # type: ignore[attr-defined]
    # A tenant may read a store error: it says why, not which database (the log does).
    with pytest.raises(StoreError, match="database not found") as err:
        recall.open(tmp_path / "m", store_url=gone)
    assert "no_such_db" not in str(err.value)
    secret = "postgresql://u:hunter2@127.0.0.1:1/x"
    with pytest.raises(StoreError) as err:
        recall.open(tmp_path / "m", store_url=secret)
    assert "hunter2" not in str(err.value) and "connection refused" in str(err.value)


words = ["cache", "redis", "dog", "北京", "旅行", "deploy", "march", "password"]


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    records=st.lists(
        st.tuples(st.sampled_from(["alice", "bob", "carol"]), st.sampled_from(words)),
        min_size=1,
        max_size=15,
    ),
    queries=st.lists(st.tuples(st.sampled_from(["alice", "bob", "carol"]), st.sampled_from(words))),
)
@pytest.mark.slow
def test_no_cross_user_hits_on_postgres(
    tmp_path_factory: pytest.TempPathFactory,
    pg_server: object,
    records: list[tuple[str, str]],
    queries: list[tuple[str, str]],
) -> None:
    url = pg_server.new_database()  # type: ignore[attr-defined]
    folder = tmp_path_factory.mktemp("iso-pg")
    with recall.open(settings=_settings(folder, url)) as mem:
        owner = {mem.add(text, user_id=user): user for user, text in records}
        for user, q in queries:
            for hit in mem.deep_recall(q, user_id=user, top_k=50):
                assert owner[hit.id] == user


@pytest.mark.slow
@pytest.mark.real_model
def test_migrate_a_folder_to_postgres_and_back(tmp_path: Path, pg_url: str) -> None:
    folder, back = tmp_path / "memory", tmp_path / "back"
    with recall.open(folder) as mem:
        for u in ("alice", "bob"):
            mem.add_many([{"text": f"{u} note {i} about the lake"} for i in range(30)], user_id=u)
        for i in range(22):
            mem.update_memory(f"Day {i}: alice fed the heron {i} fish.", user_id="alice")
        article = mem.long_term("alice")
        mem.deep_recall("heron", user_id="alice")  # the index catches up with the lifecycle
    run = CliRunner().invoke(main, ["migrate", "--from", str(folder), "--to", pg_url, "--quiet"])
    assert run.exit_code == 0 and "copied 2 users" in run.output and "verified" in run.output
    again = CliRunner().invoke(main, ["migrate", "--from", str(folder), "--to", pg_url])
    assert "copied 0 users (2 already there)" in again.output  # resumable: done users skipped
    # The copy, with the folder's own vectors: `recall check` finds them in step.
    env = {"RECALL_STORE_URL": pg_url}
    check = CliRunner().invoke(main, ["check", "--path", str(folder)], env=env)
    assert check.exit_code == 0 and "all users in step" in check.output, check.output
    with recall.open(folder, store_url=pg_url) as mem:
        assert mem.long_term("alice") == article
        assert mem.deep_recall("heron fish", user_id="alice")
    back_run = CliRunner().invoke(main, ["migrate", "--from", pg_url, "--to", str(back)])
    assert back_run.exit_code == 0 and "verified" in back_run.output
    with recall.open(back) as mem:  # a new folder: its vectors are rebuilt on first query
        assert len(mem.records("bob")) == 30 and mem.long_term("alice") == article
        assert mem.deep_recall("bob note 7 lake", user_id="bob")


_CHILD = textwrap.dedent(
    """
    import sys
    import recall

    mem = recall.open(sys.argv[1], store_url=sys.argv[2])
    i = 0
    while True:
        mem.add(f"crash note {i}: parcel {48000 + i}", user_id=f"u{i % 3}", id=f"r{i}")
        print(f"r{i}", flush=True)
        i += 1
    """
)


@pytest.mark.real_model
@pytest.mark.slow
def test_sigkill_during_add_on_postgres(tmp_path: Path, pg_url: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(recall.__file__).parent.parent)}
    proc = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(tmp_path / "m"), pg_url],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    acked: list[str] = []
    deadline = time.monotonic() + 120
    while len(acked) < 30:
        line = proc.stdout.readline()
        assert line and time.monotonic() < deadline, "the child died early"
        acked.append(line.strip())
    proc.send_signal(signal.SIGKILL)
    acked += [line.strip() for line in proc.stdout if line.strip()]
    proc.stdout.close()
    proc.wait()
    with recall.open(tmp_path / "m", store_url=pg_url) as mem:
        stored = {r.id for u in ("u0", "u1", "u2") for r in mem.records(u)}
        assert set(acked) <= stored
        last = int(acked[-1][1:])
        hits = mem.deep_recall(f"parcel {48000 + last}", user_id=f"u{last % 3}", top_k=3)
        assert hits[0].id == f"r{last}"


def test_jobs_are_claimed_like_skip_locked(pg_url: str) -> None:
    from datetime import UTC, datetime

    from recall.store.pg import PostgresStore

    a, b, c = (PostgresStore(pg_url) for _ in range(3))
    try:
        now = datetime.now(UTC)
        a.add_job("j1", "u", now, {"summary": "one"})
        a.add_job("j2", "u", now, {"summary": "two"})
        assert a.unfinished_jobs() == ["j1", "j2"]  # its own jobs: still its own
        assert b.unfinished_jobs() == [] and b.has_unfinished_jobs()  # a is alive: skipped
        a.finish_job("j1")
        with a.transaction() as tx:  # a foreground job, journaled with its summary
            tx.add_summarized_job("j3", "u", now)
        assert b.unfinished_jobs() == []
        a.close()  # a dies with j2 pending and j3 summarized: its claims go with it
        assert b.unfinished_jobs() == ["j2", "j3"]
        assert c.unfinished_jobs() == []  # b holds them now: one resumer, not two
        assert not b.record_job_failure("j2", "boom", max_attempts=1)  # failed: released
        b.finish_job("j3")
        assert b.unfinished_jobs() == c.unfinished_jobs() == []
        assert [j.job_id for j in c.failed_jobs()] == ["j2"]
    finally:
        for s in (a, b, c):
            s.close()


def test_an_interrupted_migrate_resumes(tmp_path: Path, pg_url: str) -> None:
    from datetime import UTC, datetime

    from recall.models import Record
    from recall.store import open_store
    from recall.store.migrate import copy_store

    source, target = open_store(tmp_path, None), open_store(tmp_path, pg_url)
    try:

        def rec(i: str, u: str) -> Record:
            return Record(
                id=i, user_id=u, kind="note", text=i, created_at=datetime.now(UTC), tokens=1
            )

        for u in ("a", "b", "c"):
            source.put([rec(f"{u}{i}", u) for i in range(5)])
        target.put([rec("stale", "b")])

        def stop_after_first(done: int, total: int) -> None:
            if done == 1:
                raise KeyboardInterrupt  # the operator's ^C between two users

        with pytest.raises(KeyboardInterrupt):
            copy_store(source, target, progress=stop_after_first)
        assert target.users() == ["a", "b"] and target.version("c") == 0
        report = copy_store(source, target)
        assert (report.copied_users, report.skipped_users, report.ok) == (2, 1, True)
        assert sorted(target.hashes("b")) == [f"b{i}" for i in range(5)]  # leftover gone
        assert target.hashes("c") == source.hashes("c")
    finally:
        source.close()
        target.close()


def test_a_lost_connection_is_replaced_on_the_next_call(pg_url: str) -> None:
    import psycopg

    from recall.store.pg import PostgresDialect, PostgresStore

    def cut(store: PostgresStore) -> None:  # what a server restart does to the session
        assert isinstance(store.sql, PostgresDialect)
        pid = store.sql._conn.info.backend_pid
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        time.sleep(0.2)

    s = PostgresStore(pg_url)
    try:
        s.set_meta("k", "v")
        cut(s)
        assert s.get_meta("k") == "v"  # a read: retried on a new connection
        cut(s)
        s.set_meta("k", "w")  # a write: its BEGIN found the session gone, started again
        assert s.get_meta("k") == "w"
    finally:
        s.close()
