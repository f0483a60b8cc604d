"""A smoke run of `bench synthetic` through the real facade, Chroma and MiniLM.

It asserts that the harness works and writes the documented JSON shape, not any speed.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import click
import pytest
from click.testing import CliRunner

from recall.bench.baseline import require_rank_bm25
from recall.bench.cli import bench
from recall.bench.output import plot_recall_curves
from recall.errors import ConfigError

MODES = ("bm25", "vector", "hybrid", "rrf", "baseline")
TABLES = Path(__file__).resolve().parents[2] / "benchmarks" / "tables.py"


def tables_script() -> ModuleType:
    """benchmarks/tables.py, a script (benchmarks/ is not a package), loaded from its file."""
    spec = importlib.util.spec_from_file_location("bench_tables", TABLES)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_is_the_click_command_recall_registers() -> None:
    assert isinstance(bench, click.Command) and bench.name == "bench"
    options = {o for p in bench.params for o in getattr(p, "opts", ())}
    assert {"--data", "--out", "--limit", "--spec", "--unit", "--baseline", "--scale"} <= options


@pytest.mark.slow
def test_bench_synthetic_writes_results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results"
    result = CliRunner().invoke(
        bench, ["synthetic", "--users", "1", "--spec", "default", "--out", str(out), "--quiet"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads((out / "synthetic.json").read_text(encoding="utf-8"))
    assert set(MODES) <= set(data["modes"])
    for name in MODES:
        mode = data["modes"][name]
        for key in ("recall@5", "recall@10", "ndcg@10", "mrr@10", "recall_any@10"):
            assert 0.0 <= mode[key] <= 1.0, (name, key)
        assert mode["p95_ms"] >= mode["p50_ms"] > 0.0
        assert mode["queries"] == data["queries"] > 0
        assert set(mode["per_category"]) == {"en-single", "en-multi", "zh-single", "zh-multi"}
    assert sorted(data["alpha_sweep"]) == [f"{a / 10:.1f}" for a in range(11)]
    assert data["alpha_sweep"]["0.5"] == data["modes"]["hybrid"]
    # Planted facts are easy: the product default must find most of them.
    assert data["modes"]["hybrid"]["recall@10"] >= 0.5
    assert data["build"]["docs"] == data["corpus_docs"] > 0
    assert data["build"]["docs_per_s"] > 0
    assert data["baseline_build"]["docs"] == data["corpus_docs"]
    params = data["parameters"]
    assert params["dataset"] == "synthetic" and params["seed"] == 0
    assert "git_commit" in data["environment"] and data["environment"]["versions"]["chromadb"]
    assert (out / "synthetic_recall.png").stat().st_size > 0
    assert "hybrid" in result.output
    tables_script().main(str(out))  # benchmarks/README.md's tables come from the same file
    table = capsys.readouterr().out
    assert "| hybrid |" in table and "| baseline |" in table and "| 0.5 |" in table


@pytest.mark.slow
def test_bench_limit_and_missing_data(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(bench, ["locomo", "--data", str(tmp_path / "none.json")])
    assert missing.exit_code == 2
    assert "pass --data PATH" in missing.output
    bad = tmp_path / "bad.json"
    bad.write_text("[]", encoding="utf-8")
    empty = runner.invoke(bench, ["locomo", "--data", str(bad), "--out", str(tmp_path)])
    assert empty.exit_code == 1
    assert "corpus is empty" in empty.output


@pytest.mark.slow
def test_dev_dependencies_are_imported_only_where_used(monkeypatch: pytest.MonkeyPatch) -> None:
    # recall.bench ships in the wheel: importing it must not need rank_bm25 or matplotlib.
    blocked = "import sys; sys.modules['rank_bm25'] = sys.modules['matplotlib'] = None; "
    load = "import recall.bench.cli, recall.bench.scale; print(recall.bench.cli.bench.name)"
    done = subprocess.run(
        [sys.executable, "-c", blocked + load],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.strip() == "bench", done.stderr

    monkeypatch.setitem(sys.modules, "rank_bm25", None)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ConfigError, match=r"recall-memory\[bench\].*--no-baseline"):
        require_rank_bm25()
    with pytest.raises(ConfigError, match=r"plots need matplotlib.*recall-memory\[bench\]"):
        plot_recall_curves({"hybrid": {"recall@5": 0.5}}, "t", Path("never.png"))
