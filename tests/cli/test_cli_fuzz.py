"""Every CLI command under hostile arguments: exit 0, 1 or 2, an error line, no traceback.

Arguments are drawn from each command's own options and a pool of hostile values: raw
bytes that are not UTF-8 (which Python hands over as lone surrogates), NUL, huge and
negative numbers, empty strings, a mistyped ``--path``. A failure must end in
``error: ...`` (exit 1, our errors) or click's ``Error: ...`` (exit 2, usage), and a
read command must never create the folder it was pointed at.

``serve``, ``bench`` and ``ingest`` run long jobs when their arguments happen to be valid,
so they get a fixed list of hostile invocations instead of random ones.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import recall
from recall.cli import main

pytestmark = pytest.mark.real_model  # `recall check` judges the folder by the default spec

_LONG_RUNNING = {"serve", "bench", "ingest"}


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    # Every command the group lists, those it imports only when named included.
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        assert cmd is not None, name
        if name in _LONG_RUNNING:
            continue
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, (*prefix, name))
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


def _options(cmd: click.Command) -> list[str]:
    return sorted({o for p in cmd.params if isinstance(p, click.Option) for o in p.opts})


_hostile = st.sampled_from(
    [
        "u1",
        "",
        " ",
        "0",
        "-1",
        str(10**30),
        "nan",
        "a\udcffb",  # the byte 0xff as Python's argv decoding hands it over
        "\udcc3\udca9",
        "a\x00b".replace("\x00", "\\0"),  # argv cannot hold NUL: its escaped spelling
        "x" * 5000,
        "le héron 鹭",
        "--json",
        "-",
    ]
) | st.text(st.characters(codec=None, exclude_characters="\x00"), max_size=12)  # argv: no NUL


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "memory"
    with recall.open(settings=recall.Settings(path=path, vector_partitions=2)) as m:
        m.add("the heron stands in the shallow water", user_id="u1")
    return path


def _assert_clean(result: Result, argv: list[str]) -> None:
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{argv!r} raised {result.exception!r}") from result.exception
    assert result.exit_code in (0, 1, 2), (argv, result.exit_code)
    assert "Traceback" not in result.stderr + result.stdout, argv
    if result.exit_code == 1:  # ours (error:) or a click.ClickException (Error:): one line
        # (after any progress a command had drawn before the error came, or the question
        # delete-user asks on stderr when its answer was not UTF-8)
        lines = result.stderr.rstrip("\n").split("\n")
        assert lines[-1].startswith(("error: ", "Error: ")), (argv, result.stderr)
        assert all("\r" in line or line.endswith("[y/N]: ") for line in lines[:-1]), (
            argv,
            result.stderr,
        )
    elif result.exit_code == 2:  # click's usage errors: the usage, then one Error: line
        assert "\nError: " in "\n" + result.stderr, (argv, result.stderr)


@pytest.mark.parametrize("command", list(_commands(main)), ids=" ".join)
def test_hostile_arguments(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: tuple[str, ...]
) -> None:
    monkeypatch.chdir(tmp_path)  # a relative --path that a writing command creates lands here
    options = _options(_command(command))
    token = st.sampled_from(options) | _hostile if options else _hostile
    missing = tmp_path / "no-such-folder"

    @settings(
        max_examples=25,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(args=st.lists(token, max_size=6), where=st.sampled_from([folder, missing]))
    def run(args: list[str], where: Path) -> None:
        argv = [*command, *args, "--path", str(where)]
        result = CliRunner().invoke(main, argv, input=b"\xff\xfe not utf-8")
        _assert_clean(result, argv)
        if command not in (("add",), ("import-user",)):
            assert not missing.exists(), f"{argv!r} created the folder it was pointed at"

    run()


@pytest.mark.parametrize(
    "argv",
    [
        ["serve", "--port", str(10**30)],
        ["serve", "--transport", "carrier-pigeon"],
        ["bench", "locomo", "--data", "/no/such/data"],
        ["bench", "nosuchbench"],
        ["ingest", "/no/such/file.json", "--user", "u1"],
        ["ingest", "NOTUTF8", "--user", "u1"],
        ["ingest", "NOTUTF8", "--user", "a\udcffb"],
    ],
)
def test_long_running_commands_refuse_bad_arguments(
    folder: Path, tmp_path: Path, argv: list[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'[{"role": "user", "content": "\xff\xfe"}]')
    argv = [str(bad) if a == "NOTUTF8" else a for a in argv]
    result = CliRunner().invoke(main, [*argv, "--path", str(folder)])
    _assert_clean(result, argv)
    assert result.exit_code in (1, 2), (argv, result.output)


def test_a_path_too_long_for_the_filesystem_is_one_line() -> None:
    # Found by the fuzz above: Path.is_file() raises ENAMETOOLONG instead of saying False.
    result = CliRunner().invoke(main, ["delete", "--path", "x" * 4000, "--user", "u1", "r1"])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "File name too long" in result.output and len(result.output) < 400
