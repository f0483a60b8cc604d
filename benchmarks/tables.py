"""Markdown tables from result files.

.venv/bin/python benchmarks/tables.py benchmarks/results
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

__all__ = ["mode_table", "scale_table"]

_MODES = ("bm25", "vector", "hybrid", "rrf", "baseline")


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def mode_table(modes: dict[str, Any], metrics: tuple[str, ...]) -> str:
    """One row per mode: the metrics (as percentages) and p50/p95 latency."""
    head = "| mode | " + " | ".join(metrics) + " | p50 ms | p95 ms |"
    rows = [head, "|" + "---|" * (len(metrics) + 3)]
    for name in [m for m in _MODES if m in modes] + [m for m in modes if m not in _MODES]:
        m = modes[name]
        cells = " | ".join(_pct(m[k]) for k in metrics)
        rows.append(f"| {name} | {cells} | {m['p50_ms']:.1f} | {m['p95_ms']:.1f} |")
    return "\n".join(rows)


def category_table(modes: dict[str, Any], metric: str) -> str:
    """``metric`` per query category, one row per mode."""
    cats = sorted(next(iter(modes.values())).get("per_category", {}))
    rows = ["| mode | " + " | ".join(cats) + " |", "|" + "---|" * (len(cats) + 1)]
    for name in [m for m in _MODES if m in modes]:
        per = modes[name]["per_category"]
        rows.append(f"| {name} | " + " | ".join(_pct(per[c][metric]) for c in cats) + " |")
    return "\n".join(rows)


def sweep_table(sweep: dict[str, Any], metrics: tuple[str, ...]) -> str:
    """The alpha sweep: one row per alpha."""
    rows = ["| alpha | " + " | ".join(metrics) + " |", "|" + "---|" * (len(metrics) + 1)]
    for alpha, m in sweep.items():
        rows.append(f"| {alpha} | " + " | ".join(_pct(m[k]) for k in metrics) + " |")
    return "\n".join(rows)


def scale_table(rows: list[dict[str, Any]]) -> str:
    """The scale sweep, ours beside the baseline per size."""
    out = [
        "| records | system | build s | docs/s | p50 ms | p95 ms | peak RSS MB |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in sorted(rows, key=lambda r: (r["records"], r["system"] != "recall")):
        out.append(
            f"| {r['records']:,} | {r['system']} | {r['build_s']:.1f} | {r['docs_per_s']:.0f} "
            f"| {r['p50_ms']:.1f} | {r['p95_ms']:.1f} | {r['peak_rss_mb']:.0f} |"
        )
    return "\n".join(out)


def main(folder: str) -> None:
    """Print every table for the result files in ``folder``."""
    for path in sorted(Path(folder).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        print(f"## {path.name}\n")
        if "rows" in data:
            print(scale_table(data["rows"]) + "\n")
            continue
        if "modes" not in data:  # ablation.json and the like: not a `recall bench` result
            print("(not a `recall bench` result: skipped)\n")
            continue
        metrics = ("recall@5", "recall@10", "recall@25", "recall@50", "ndcg@10", "mrr@10")
        print(mode_table(data["modes"], metrics) + "\n")
        if "per_category" in data["modes"].get("hybrid", {}):
            print(category_table(data["modes"], "recall@10") + "\n")
        if data.get("alpha_sweep"):
            print(sweep_table(data["alpha_sweep"], ("recall@5", "recall@10", "ndcg@10")) + "\n")
        for spec, emb in data.get("embedders", {}).items():
            if "modes" in emb:
                print(f"embedder spec {spec}:\n\n" + mode_table(emb["modes"], metrics) + "\n")
        for unit, r in data.get("units", {}).items():
            print(f"unit {unit}:\n\n" + mode_table(r["modes"], ("recall@2", *metrics)) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "benchmarks/results")
