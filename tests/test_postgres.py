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
    with pytest.raises(StoreError, match="no_such_db"):
        recall.open(tmp_path / "m", store_url=gone)
    secret = "postgresql://u:hunter2@127.0.0.1:1/x"
    with pytest.raises(StoreError) as err:
        recall.open(tmp_path / "m", store_url=secret)
    assert "hunter2" not in str(err.value) and "***" in str(err.value)


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
