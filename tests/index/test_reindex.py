"""Index specs, `recall reindex` and `recall check` on real Chroma, SQLite and both models."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import recall
from recall import ConfigError, IndexStaleError
from recall.cli import main
from recall.index.compare import compare
from recall.index.layout import index_key, vector_index, vector_partitions
from recall.index.rebuild import reindex
from recall.index.spec import SPEC_DIR, IndexSpec, load_spec

DEFAULT = load_spec("default")
MULTI = load_spec("multilingual")


def settings_for(path: Path, spec: str = "default") -> recall.Settings:
    return recall.Settings(path=path, vector_partitions=4, index_spec=spec)


def fill(path: Path, spec: str, users: int, per_user: int) -> None:
    with recall.open(settings=settings_for(path, spec)) as mem:
        for u in range(users):
            mem.add_many(
                [
                    {"text": f"user {u} note {i}: the cache moved to redis on day {i}"}
                    for i in range(per_user)
                ],
                user_id=f"user{u:03d}",
            )


def test_alpha_is_a_setting_not_part_of_a_spec(tmp_path: Path) -> None:
    spec = tmp_path / "old.toml"
    spec.write_text('name = "old"\n[fusion]\nalpha = 0.5\n')
    with pytest.raises(ConfigError, match="RECALL_ALPHA"):
        load_spec(str(spec))


def test_shipped_specs_load_and_differ() -> None:
    assert IndexSpec() == DEFAULT  # the file says what the built-in default says
    assert {p.stem for p in SPEC_DIR.glob("*.toml")} >= {"default", "multilingual"}
    assert MULTI.embedder == "use-multilingual" and MULTI.dimension == 512
    assert DEFAULT.fingerprint != MULTI.fingerprint
    # The fingerprint a folder written by 0.1.0 recorded (tests/fixtures/folder-0.1.0): the
    # spec default-torch; the default moved to MiniLM on onnxruntime in 0.2.0.
    assert load_spec("default-torch").fingerprint == "693e34ec1d61"
    assert DEFAULT.fingerprint == "46531f02eaa6" and DEFAULT.embedder.startswith("minilm-onnx")
    plain = load_spec("plain")  # the blend recall started from, kept to measure against
    assert plain.embedder == "minilm" and not plain.analyzer.stem and plain.bm25.k1 == 1.5
    assert len({plain.fingerprint, DEFAULT.fingerprint, MULTI.fingerprint}) == 3


def test_bad_spec_is_config_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[bm25]\nmethod = "nope"\n')
    with pytest.raises(recall.ConfigError, match="BM25 method"):
        load_spec(str(bad))
    with pytest.raises(recall.ConfigError, match="not found"):
        load_spec("no-such-spec")
    for name in ("x" * 5000, "x" * 5000 + ".toml"):  # too long for the file system: not there
        with pytest.raises(recall.ConfigError, match="not found"):
            load_spec(name)
    bad.write_text('[tokenizer]\nstem = "yes"\n')
    with pytest.raises(recall.ConfigError, match="stem must be true or false"):
        load_spec(str(bad))


@pytest.mark.real_model
def test_model_change_stale_then_reindex(tmp_path: Path, embedder: recall.Embedder) -> None:
    path = tmp_path / "m"
    with recall.open(settings=settings_for(path)) as mem:
        a = mem.add("我们决定下个月去北京旅行", user_id="u1")
        mem.add("The session cache is Redis.", user_id="u1")
    with pytest.raises(IndexStaleError, match="recall reindex"):
        recall.open(settings=settings_for(path, "multilingual"))

    report = reindex(settings_for(path, "multilingual"), MULTI)
    assert report.switched and report.embedded == 2 and report.remaining_users == []
    with recall.open(settings=settings_for(path, "multilingual")) as mem:
        # Cross-lingual: an English query finds the Chinese record through USE.
        hits = mem.deep_recall("trip to Beijing", user_id="u1", top_k=1)
        assert hits[0].id == a and hits[0].vector_score is not None
    # And now the old spec is the stale one.
    with pytest.raises(IndexStaleError):
        recall.open(settings=settings_for(path))

    again = reindex(settings_for(path, "multilingual"), MULTI)
    assert again.embedded == 0 and again.removed == 0 and not again.switched


@pytest.mark.real_model
def test_check_finds_damage_and_reindex_repairs(tmp_path: Path, embedder: recall.Embedder) -> None:
    path = tmp_path / "m"
    fill(path, "default", users=3, per_user=5)
    s = settings_for(path)
    built, rows = compare(s, DEFAULT)
    assert built == DEFAULT.fingerprint and all(r.ok for r in rows) and len(rows) == 3

    # Damage: lose two vectors of user000, plant an orphan for user001.
    store = recall.store.SQLiteStore(path / "recall.sqlite3")
    vectors = vector_index(s, DEFAULT, vector_partitions(store, s))
    store.close()
    ids = sorted(vectors.hashes("user000"))[:2]
    vectors.delete("user000", ids)
    vectors.upsert(
        "user001",
        ["ghost"],
        np.ones((1, DEFAULT.dimension), np.float32) / np.sqrt(DEFAULT.dimension),
        ["short_term"],
        ["x"],
    )
    _, rows = compare(s, DEFAULT)
    bad = {r.user_id: r for r in rows if not r.ok}
    assert bad["user000"].missing == 2 and bad["user001"].orphans == 1

    res = CliRunner().invoke(main, ["check", "--path", str(path), "--json"])
    assert res.exit_code == 1
    users = {u["user_id"]: u for u in json.loads(res.output)["users"]}
    assert users["user000"]["missing"] == 2 and not users["user000"]["ok"]

    report = reindex(s, DEFAULT)
    assert report.embedded == 2 and report.removed == 1
    assert all(r.ok for r in compare(s, DEFAULT)[1])
    res = CliRunner().invoke(main, ["check", "--path", str(path), "--json"])
    assert res.exit_code == 0 and all(u["ok"] for u in json.loads(res.output)["users"])


@pytest.mark.real_model
def test_reindex_cli_single_user_does_not_switch(tmp_path: Path, embedder: recall.Embedder) -> None:
    path = tmp_path / "m"
    fill(path, "default", users=2, per_user=3)
    res = CliRunner().invoke(
        main,
        [
            *("reindex", "--path", str(path), "--spec", "multilingual"),
            *("--user", "user000", "--quiet", "--json"),
        ],
    )
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert report["remaining_users"] == ["user001"] and not report["switched"]
    with pytest.raises(IndexStaleError):
        recall.open(settings=settings_for(path, "multilingual"))
    res = CliRunner().invoke(
        main,
        ["reindex", "--path", str(path), "--spec", "multilingual", "--all", "--quiet", "--json"],
    )
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert report["switched"] and report["embedded"] == 3


def _snapshot(path: Path, spec: IndexSpec) -> dict[str, tuple[dict[str, str], np.ndarray]]:
    s = settings_for(path, spec.name)
    store = recall.store.SQLiteStore(path / "recall.sqlite3")
    vectors = vector_index(s, spec, vector_partitions(store, s))
    out = {}
    for user in store.users():
        loaded = vectors.load(user)
        order = np.argsort(loaded.ids)
        out[user] = (vectors.hashes(user), loaded.matrix[order])
    store.close()
    return out


@pytest.mark.real_model
@pytest.mark.slow
def test_sigkill_halfway_then_rerun_equals_clean_run(tmp_path: Path) -> None:
    # Built with the fast USE model, reindexed to MiniLM (slower: time to kill it halfway).
    src = tmp_path / "src"
    fill(src, "multilingual", users=40, per_user=20)
    clean, killed = tmp_path / "clean", tmp_path / "killed"
    shutil.copytree(src, clean)
    shutil.copytree(src, killed)

    cmd = [
        sys.executable,
        "-m",
        "recall.cli",
        "reindex",
        "--spec",
        "default",
        "--quiet",
        "--json",
        "--path",
    ]
    env = dict(os.environ)
    proc = subprocess.Popen(
        [*cmd, str(killed)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    key = index_key(DEFAULT)
    done = 0
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None:
        with sqlite3.connect(killed / "recall.sqlite3") as db:
            done = db.execute(
                "SELECT COUNT(*) FROM index_state WHERE index_key = ?", (key,)
            ).fetchone()[0]
        if done >= 3:
            proc.send_signal(signal.SIGKILL)
            break
        time.sleep(0.05)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, "reindex finished before it could be killed"
    assert 3 <= done < 40

    # Killed halfway: nothing switched, the old spec still serves.
    with pytest.raises(IndexStaleError):
        recall.open(settings=settings_for(killed, "default"))
    with recall.open(settings=settings_for(killed, "multilingual")) as mem:
        assert mem.deep_recall("redis day 3", user_id="user005", top_k=1)

    embedded = {}
    for path in (killed, clean):
        res = subprocess.run(
            [*cmd, str(path)], env=env, capture_output=True, text=True, check=False
        )
        assert res.returncode == 0, res.stderr
        report = json.loads(res.stdout)
        assert report["switched"]
        embedded[path] = report["embedded"]
    # The rerun continued where the killed run stopped; the clean run did everything.
    assert embedded[clean] == 40 * 20
    assert embedded[killed] <= 40 * 20 - 3 * 20

    a, b = _snapshot(killed, DEFAULT), _snapshot(clean, DEFAULT)
    assert a.keys() == b.keys() and len(a) == 40
    for user in a:
        assert a[user][0] == b[user][0]
        np.testing.assert_allclose(a[user][1], b[user][1], atol=1e-4)
    with recall.open(settings=settings_for(killed, "default")) as mem:
        assert mem.deep_recall("redis day 3", user_id="user005", top_k=1)
