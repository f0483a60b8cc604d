"""The click CLI: add, search, stats, clean one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import recall  # noqa: F401  (loads the model through the session fixture first)
from recall.cli.main import main


@pytest.fixture
def runner(embedder: object) -> CliRunner:
    return CliRunner()


def test_add_search_stats(runner: CliRunner, tmp_path: Path) -> None:
    path = str(tmp_path / "m")
    res = runner.invoke(
        main, ["add", "We chose Redis for the cache", "--user", "u1", "--path", path]
    )
    assert res.exit_code == 0, res.output
    rid = res.output.strip()
    res = runner.invoke(main, ["add", "--user", "u1", "--path", path], input="The dog is Biscuit\n")
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["search", "cache", "--user", "u1", "--path", path, "--json"])
    assert res.exit_code == 0, res.output
    hits = json.loads(res.output)
    assert hits[0]["id"] == rid and {"score", "keyword_score", "vector_score"} <= set(hits[0])
    res = runner.invoke(main, ["search", "cache", "--user", "u1", "--path", path, "--top-k", "1"])
    assert res.exit_code == 0 and "Redis" in res.output
    res = runner.invoke(main, ["stats", "--path", path])
    assert res.exit_code == 0 and json.loads(res.output)["records"] == 2


def test_path_from_env(runner: CliRunner, tmp_path: Path) -> None:
    env = {"RECALL_PATH": str(tmp_path / "envmem")}
    assert runner.invoke(main, ["add", "hello", "--user", "u"], env=env).exit_code == 0
    assert (tmp_path / "envmem" / "recall.sqlite3").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["search", "   ", "--user", "u1"],
        ["search", "x", "--user", "u1", "--top-k", "0"],
        ["add", "", "--user", "u1"],
    ],
)
def test_errors_are_one_line_exit_1(runner: CliRunner, tmp_path: Path, args: list[str]) -> None:
    res = runner.invoke(main, [*args, "--path", str(tmp_path / "m")])
    assert res.exit_code == 1
    assert res.output.startswith("error: ") and res.output.count("\n") == 1
    assert "Traceback" not in res.output
