"""CLI parity with the API (issue 26): a query from standard input, ``add --metadata``, the
corrections and browsing views as commands, and ``--json`` on every command that prints.

Everything runs in process (CliRunner), so memories embed with the HashEmbedder stand-in.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

import recall
import recall.index.rebuild
from recall.cli import main
from recall.testing import HashEmbedder

#: Commands that print but take no --json, and why (docs/cli.md says the same).
NO_JSON = {
    # Runs the server until stopped; what it prints are log lines on stderr.
    ("serve",): "a server",
    # Writes OUT/DATASET.json (and plots) itself; stdout is progress and the file names.
    ("bench",): "writes its JSON file",
    # Its output is JSON Lines already: the format import-user reads back.
    ("export-user",): "JSON Lines",
    # Writes an HTML file (recall/cli/report.py); the one line it prints names the file.
    ("memory", "report"): "writes HTML",
    # A walk-through for a person's first look (what `make demo` runs), not data.
    ("demo",): "a walk-through",
}

SMALL = {"RECALL_SHORT_TERM_CAPACITY": "2", "RECALL_PROMOTE_COUNT": "2"}


def _leaves(group: click.Group, prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    # Every command the group lists, those it imports only when named included.
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        assert cmd is not None, name
        if isinstance(cmd, click.Group):
            yield from _leaves(cmd, (*prefix, name))
        else:
            yield (*prefix, name)


def _command(path: tuple[str, ...]) -> click.Command:
    cmd: click.Command = main
    for name in path:
        assert isinstance(cmd, click.Group)
        found = cmd.get_command(click.Context(cmd), name)
        assert found is not None, name
        cmd = found
    return cmd


def _has_json(path: tuple[str, ...]) -> bool:
    return any(isinstance(p, click.Option) and "--json" in p.opts for p in _command(path).params)


def _path_of(argv: list[str]) -> tuple[str, ...]:
    """The command an argv runs: its leading names down to a leaf."""
    out: tuple[str, ...] = ()
    while isinstance(_command(out), click.Group):
        out = (*out, argv[len(out)])
    return out


def test_every_command_that_prints_takes_json() -> None:
    leaves = set(_leaves(main))
    assert set(NO_JSON) <= leaves, f"stale NO_JSON entries: {set(NO_JSON) - leaves}"
    missing = sorted(" ".join(p) for p in leaves - set(NO_JSON) if not _has_json(p))
    assert not missing, f"no --json (add it, or say why in NO_JSON and docs/cli.md): {missing}"
    assert not [p for p in NO_JSON if _has_json(p)], "NO_JSON names a command with --json"


def _fill(path: Path) -> None:
    settings = recall.Settings(path=path, short_term_capacity=2, promote_count=2)
    with recall.open(settings=settings.replace(vector_partitions=2)) as m:
        m.update_memory("My name is Ottoline. I am allergic to penicillin.", user_id="u1")
        m.update_memory("We renamed the billing queue to invoices-v2.", user_id="u1")
        m.update_memory("The staging cluster moved to node pool blue-7.", user_id="u1")
        assert m.long_term("u1").version == 1


def _run(argv: list[str], path: Path | None, stdin: str | bytes | None = None) -> Result:
    where = [] if path is None else ["--path", str(path)]
    return CliRunner().invoke(main, [*argv, *where], input=stdin, env=SMALL)


Check = Callable[[Any], object]


@pytest.mark.slow
def test_every_json_output_is_one_document(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "memory"
    _fill(path)
    # `recall reindex` builds with the spec's model; here with the stand-in, as the folder.
    rebuild = recall.index.rebuild.reindex
    monkeypatch.setattr(
        recall.index.rebuild,
        "reindex",
        lambda *a, **kw: rebuild(*a, embedder=HashEmbedder(), **kw),
    )
    export = tmp_path / "u1.jsonl"
    assert _run(["export-user", "--user", "u1", "--out", str(export)], path).exit_code == 0
    session = tmp_path / "session.json"
    session.write_text(json.dumps([{"role": "user", "content": "what is my dog called?"}]))
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": "My dog Biscuit likes sand."}]))
    said: dict[str, str] = {}

    def keep_id(doc: dict[str, str]) -> str:
        said["rid"] = doc["id"]
        return said["rid"]

    # In order: each may rely on what the ones before it wrote. None: runs without --path.
    table: list[tuple[list[str], Check, Path | None]] = [
        (["add", "Biscuit the dog", "--user", "u1", "--metadata", '{"n": 1}'], keep_id, path),
        (["search", "dog", "--user", "u1"], lambda d: d[0]["id"] == said["rid"], path),
        (["explain", "dog", "--user", "u1"], lambda d: d["hits"][0]["vector_rank"] == 1, path),
        (["records", "--user", "u1", "--kind", "note"], lambda d: d["total"] == 1, path),
        (["stats"], lambda d: d["users"] == 1, path),
        (["profile", "--user", "u1"], lambda d: d["user_id"] == "u1" and "facts" in d, path),
        (["memory", "show", "--user", "u1"], lambda d: d["latest_version"] == 1, path),
        (["memory", "versions", "--user", "u1"], lambda d: d[0]["version"] == 1, path),
        (
            ["memory", "edit", "--user", "u1", "penicillin", "amoxicillin"],
            lambda d: d["version"] == 2,
            path,
        ),
        (["memory", "diff", "--user", "u1", "1"], lambda d: d["chapters"][0]["changed"], path),
        (["memory", "rollback", "--user", "u1", "1"], lambda d: d["version"] == 3, path),
        (["forget", "Ottoline", "--user", "u1"], lambda d: d["version"] == 4, path),
        (["delete", "{rid}", "no-such-id", "--user", "u1"], lambda d: d["deleted"] == 1, path),
        (["context", "--user", "u1", "--session", str(session)], lambda d: d["report"], path),
        (["ingest", str(chat), "--user", "u3", "--quiet"], lambda d: d["updates"] == 1, path),
        (["import-user", str(export), "--user", "u2"], lambda d: d["records"] > 0, path),
        (["delete-user", "--user", "u2", "--yes"], lambda d: d["vacuum"] is None, path),
        (["settings"], lambda d: any(r["env"] == "RECALL_ALPHA" for r in d), None),
        (["reindex", "--quiet"], lambda d: d["users"] == 2, path),
        (["check"], lambda d: [u["user_id"] for u in d["users"]] == ["u1", "u3"], path),
        (["migrate", "--from", str(path), "--to", str(tmp_path / "copy")], lambda d: d["ok"], None),
    ]
    covered = {_path_of(argv) for argv, _, _ in table}
    wanted = {p for p in _leaves(main) if _has_json(p)}
    assert covered == wanted, f"add these to the table: {wanted - covered}"
    for template, check, where in table:
        argv = [a.replace("{rid}", said.get("rid", "")) for a in template]
        res = _run([*argv, "--json"], where)
        # `check` exits 1 when the index needs work: still one document on stdout.
        assert res.exit_code == 0 or argv == ["check"], (argv, res.output)
        doc = json.loads(res.stdout)  # stdout holds the document and nothing else
        assert check(doc), (argv, doc)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "memory"
    res = _run(["add", "Biscuit the dog likes the beach", "--user", "u1"], path)
    assert res.exit_code == 0, res.output
    return path


def _query(path: Path, stdin: str | bytes) -> Result:
    return _run(["explain", "-", "--user", "u1", "--json"], path, stdin)


def test_a_query_from_standard_input(folder: Path) -> None:
    by_arg = json.loads(_run(["search", "dog", "--user", "u1", "--json"], folder).stdout)
    res = _run(["search", "-", "--user", "u1", "--json"], folder, "dog\n")
    assert res.exit_code == 0 and json.loads(res.stdout) == by_arg
    # One trailing newline is dropped, no more; CRLF counts as one.
    assert json.loads(_query(folder, "dog\r\n").stdout)["query"] == "dog"
    assert json.loads(_query(folder, "dog\n\n").stdout)["query"] == "dog\n"
    for empty in ("", "\n", "  \n"):
        res = _query(folder, empty)
        assert res.exit_code == 1 and res.stdout == ""
        assert res.stderr == "error: the query read from standard input (QUERY -) is empty\n"
    res = _query(folder, b"\xff\xfe dog")
    assert res.exit_code == 1 and res.stderr.startswith("error: the input is not valid UTF-8")


def test_add_metadata_is_a_json_object(folder: Path) -> None:
    res = _run(["add", "-", "--user", "u1", "--metadata", '{"source": "slack", "n": 2}'], folder)
    assert res.exit_code == 1  # `-`: standard input, which holds nothing here
    res = _run(["add", "--user", "u1", "--metadata", '{"source": "slack"}', "--json"], folder, "x")
    assert res.exit_code == 0, res.output
    rid = json.loads(res.stdout)["id"]
    page = json.loads(_run(["records", "--user", "u1", "--json"], folder).stdout)
    assert {r["id"]: r["metadata"] for r in page["records"]}[rid] == {"source": "slack"}
    for bad, why in (("[1, 2]", "must be a JSON object"), ("{oops", "not valid JSON")):
        res = _run(["add", "y", "--user", "u1", "--metadata", bad], folder)
        assert res.exit_code == 2 and "'--metadata'" in res.stderr and why in res.stderr


def test_browsing_and_corrections_print_text(folder: Path) -> None:
    for i in range(3):
        _run(["add", f"heron note {i}", "--user", "u1", "--id", f"h{i}"], folder)
    res = _run(["records", "--user", "u1", "--limit", "2"], folder)
    assert res.exit_code == 0 and res.stdout.startswith("records 1-2 of 4, newest said first")
    assert res.stdout.rstrip().endswith("more: --offset 2")
    res = _run(["explain", "heron note", "--user", "u1"], folder)
    assert "hits (3):" in res.stdout and "removed by the relevance floor (1):" in res.stdout
    assert _run(["delete", "h0", "h9", "--user", "u1"], folder).stdout == "deleted 1 of 2 records\n"
    res = _run(["memory", "versions", "--user", "u1"], folder)
    assert res.stdout == "user u1: no article version yet (nothing promoted)\n"
    res = _run(["memory", "diff", "1", "--user", "u1"], folder)
    assert res.exit_code == 1 and "no article version 1" in res.stderr
