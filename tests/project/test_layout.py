"""The house rules the tree itself must keep: layers, module size, packaging."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import recall

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _lint_imports(cwd: Path, pythonpath: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(cwd / "pyproject.toml"), "--no-cache"],
        cwd=cwd,
        env={"PYTHONPATH": str(pythonpath), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_layers_contract_holds() -> None:
    done = _lint_imports(ROOT, ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 kept, 0 broken" in done.stdout


@pytest.mark.slow
def test_the_layers_contract_fails_when_a_lower_layer_imports_a_higher_one(
    tmp_path: Path,
) -> None:
    shutil.copytree(ROOT / "recall", tmp_path / "recall")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    store = tmp_path / "recall" / "store" / "sqlite.py"
    store.write_text(store.read_text() + "\nfrom ..cli import app as _app  # a violation\n")
    done = _lint_imports(tmp_path, tmp_path)
    assert done.returncode != 0
    assert "recall.store is not allowed to import recall.cli" in done.stdout


@pytest.mark.parametrize(
    "engine", ["store", "index.retriever", "lifecycle.article", "inputs", "user.asked"]
)
def test_the_server_importing_the_engine_breaks_the_wall(tmp_path: Path, engine: str) -> None:
    # Issue 34: the server is a client of recall's public face, as a third party's would be.
    shutil.copytree(ROOT / "recall", tmp_path / "recall")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    breach = tmp_path / "recall" / "server" / "breach.py"
    breach.write_text(f"from ..{engine} import __name__ as engine  # a violation\n")
    done = _lint_imports(tmp_path, tmp_path)
    assert done.returncode != 0
    assert re.search(r"public face only[^\n]*\n?[^\n]*BROKEN", done.stdout), done.stdout
    assert f"recall.server.breach -> recall.{engine}" in done.stdout


def test_the_server_does_not_reach_under_the_facade() -> None:
    # Memory's wiring is private (_store, _sync, _retriever, _vectors): reaching it by the
    # old public names fails under mypy, by the private ones here.
    wiring = re.compile(r"\b(memory|mem)\.(_[a-z]\w*|store|sync|spec|retriever|vectors)\b")
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "recall" / "server").rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if wiring.search(line)
    ]
    assert not found, f"the server reaches into Memory's wiring: {found}"


def test_no_module_is_over_300_lines() -> None:
    long = {
        str(p.relative_to(ROOT)): n
        for p in (ROOT / "recall").rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 300
    }
    assert not long, f"split these modules: {long}"


@pytest.mark.slow
def test_the_wheel_carries_the_specs_and_no_benchmarks(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            *(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"),
            *("-w", str(tmp_path), str(ROOT)),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (wheel,) = tmp_path.glob("*.whl")
    assert wheel.name.startswith(f"recall_memory-{recall.__version__}-")
    names = zipfile.ZipFile(wheel).namelist()
    specs = {n for n in names if n.startswith("recall/indexes/")}
    shipped = ("default", "default-torch", "multilingual", "plain")
    assert specs == {f"recall/indexes/{s}.toml" for s in shipped}
    assert "recall/index/models/minilm-tokenizer.json" in names  # the default's tokenizer
    assert {n.split("/")[0] for n in names} == {
        "recall",
        wheel.name.split("-py3")[0] + ".dist-info",
    }
    assert "recall/prompts/summarize.txt" in names and "recall/py.typed" in names
