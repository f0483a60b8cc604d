"""The click CLI: add, search, stats, clean one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import recall  # noqa: F401  (loads the model through the session fixture first)
from recall.cli import main


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
    res = runner.invoke(
        main, ["search", "cache", "--user", "u1", "--path", path, "--top-k", "1", "--json"]
    )
    assert res.exit_code == 0 and [h["text"] for h in json.loads(res.output)] == [
        "We chose Redis for the cache"
    ]
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


def test_add_prints_the_id_search_json_finds(runner: CliRunner, tmp_path: Path) -> None:
    path = str(tmp_path / "m")
    rid = runner.invoke(main, ["add", "Biscuit is the dog", "--user", "u", "--path", path])
    res = runner.invoke(main, ["search", "dog", "--user", "u", "--path", path, "--json"])
    assert [h["id"] for h in json.loads(res.output)] == [rid.output.strip()]
    # --top-k defaults to Settings.retrieval.default_top_k, read from the environment too
    for i in range(3):
        runner.invoke(main, ["add", f"dog fact {i}", "--user", "u", "--path", path])
    env = {"RECALL_DEFAULT_TOP_K": "2"}
    res = runner.invoke(main, ["search", "dog", "--user", "u", "--path", path, "--json"], env=env)
    assert len(json.loads(res.output)) == 2


def test_a_bad_setting_is_one_line_naming_the_variable(runner: CliRunner, tmp_path: Path) -> None:
    res = runner.invoke(main, ["stats", "--path", str(tmp_path / "m")], env={"RECALL_ALPHA": "2"})
    assert res.exit_code == 1 and res.output.count("\n") == 1
    assert res.output.startswith("error: invalid settings: RECALL_ALPHA='2' (environment)")


def test_a_misspelled_variable_is_named_not_ignored(runner: CliRunner, tmp_path: Path) -> None:
    env = {"RECALL_SERVER_PROT": "9000", "RECALL_NOTHING_LIKE_IT": "1", "RECALL_ALPHA": "0.3"}
    res = runner.invoke(main, ["settings", "--json"], env=env)
    assert res.exit_code == 0, res.output
    warned = [ln for ln in res.stderr.splitlines() if ln.startswith("warning:")]
    assert warned == [
        "warning: RECALL_NOTHING_LIKE_IT is not a recall setting and is ignored "
        "(`recall settings` lists them)",
        "warning: RECALL_SERVER_PROT is not a recall setting and is ignored; did you mean "
        "RECALL_SERVER_PORT? (`recall settings` lists them)",
    ]
    assert "RECALL_ALPHA" not in res.stderr  # a setting; RECALL_PATH and the demo's are too
    quiet = runner.invoke(main, ["settings", "--json"], env={"RECALL_PATH": str(tmp_path)})
    assert quiet.exit_code == 0 and "warning" not in quiet.stderr


def test_a_mistyped_user_is_an_error_not_an_empty_answer(runner: CliRunner, tmp_path: Path) -> None:
    folder = ["--path", str(tmp_path / "m")]
    assert runner.invoke(main, ["add", "Tea, no sugar.", "--user", "alice", *folder]).exit_code == 0
    found = runner.invoke(main, ["search", "tea", "--user", "alice", *folder])
    assert found.exit_code == 0 and "Tea, no sugar." in found.output
    for args in (
        ["search", "tea"],
        ["explain", "tea"],
        ["records"],
        ["profile"],
        ["memory", "show"],
        ["forget", "tea"],
    ):
        res = runner.invoke(main, [*args, "--user", "alcie", *folder])
        assert res.exit_code == 1, (args, res.output)
        assert "error: user 'alcie' holds no memory here" in res.stderr, args


def test_settings_command_lists_every_setting(runner: CliRunner) -> None:
    from recall.server.settings import ServerSettings
    from recall.settings import reference

    env = {"RECALL_ALPHA": "0.25", "RECALL_SERVER_PORT": "9001"}
    res = runner.invoke(main, ["settings", "--json"], env=env)
    assert res.exit_code == 0, res.output
    rows = {r["env"]: r for r in json.loads(res.output)}
    assert len(rows) == len(list(reference(also=(ServerSettings,)))) > len(list(reference()))
    assert rows["RECALL_ALPHA"]["value"] == 0.25 and rows["RECALL_ALPHA"]["default"] == "0.5"
    assert rows["RECALL_SERVER_PORT"]["value"] == 9001  # the server's own, listed last


def test_docs_settings_md_is_generated_from_the_code() -> None:
    from recall.cli.settings import markdown_reference

    docs = Path(__file__).resolve().parents[2] / "docs" / "settings.md"
    assert docs.read_text(encoding="utf-8") == markdown_reference(), (
        "docs/settings.md is stale: run `recall settings --markdown > docs/settings.md`"
    )


def test_a_bad_answer_to_the_erase_question_is_an_error_line_of_its_own(tmp_path: Path) -> None:
    """The question goes to stderr without a newline; the error that follows it must still
    be a line that starts with 'error: ' (found by test_cli_fuzz in CI)."""
    res = CliRunner().invoke(
        main, ["delete-user", "--user", "u1", "--path", str(tmp_path / "m")], input=b"\xff\n"
    )
    assert res.exit_code == 1
    assert res.stderr.splitlines()[-1].startswith("error: the input is not valid UTF-8")


def test_a_hit_above_a_higher_score_says_why_in_the_cli_and_the_inspector() -> None:
    from datetime import UTC, datetime

    from recall.cli.records import moved_because
    from recall.models import Hit
    from recall.server.ui.sections import _hit_rows

    fields = {
        "id": "r1",
        "text": "Summit Climbing is my gym now",
        "kind": "turn",
        "created_at": datetime(2026, 3, 1, tzinfo=UTC),
        "score": 0.41,
        "keyword_score": 1.0,
        "keyword_norm": 0.5,
        "keyword_rank": 2,
        "vector_score": 0.4,
        "vector_norm": 0.3,
        "vector_rank": 3,
    }
    moved = Hit(**fields, reason="newest")
    assert moved_because(moved) == " (above higher scores: said after those below)"
    assert moved_because(Hit(**fields)) == ""
    assert "↑ said after those below" in _hit_rows([moved])[0]
    assert "↑" not in _hit_rows([Hit(**fields)])[0]


def test_demo_runs_the_sample_in_a_folder_of_its_own(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`recall demo` (what `make demo` runs): the sample ingested, a deep recall, the built
    context, in a temporary folder it names; nothing written where it was run."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RECALL_DEMO_PATH", raising=False)
    res = runner.invoke(main, ["demo"])
    assert res.exit_code == 0, res.output
    folder = Path(res.output.split("memory folder: ", 1)[1].split("\n", 1)[0])
    assert folder.is_dir() and folder != tmp_path and tmp_path not in folder.parents
    assert "deep_recall hits" in res.output and "built context:" in res.output
    assert "Redis" in res.output.split("deep_recall hits", 1)[1]
    assert list(tmp_path.iterdir()) == []
