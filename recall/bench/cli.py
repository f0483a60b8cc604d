"""``recall bench DATASET``: every retrieval mode and the peer baseline, in one command."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import click

from ..errors import RecallError
from .baseline import BENCH_EXTRA, baseline_missing
from .data import Dataset, DatasetError
from .extras import (
    multilingual_available,
    plots,
    spec_uses_torch,
    torch_threads,
    try_plot,
    want_baseline,
)
from .locomo import UNITS, load_locomo
from .memdaily import load_memdaily
from .output import environment, plot_latency, write_json
from .runner import RunConfig, run_dataset
from .scale import DEFAULT_SIZES, scale_sweep
from .scifact import load_scifact
from .synthetic import synthetic

__all__ = ["bench"]

# recall/bench -> the repository: a checkout finds ../shared/datasets beside itself.
ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "datasets"
DEFAULT_DATA = {
    "locomo": SHARED / "locomo" / "locomo_dev7.json",
    "memdaily": SHARED / "memdaily",
    "scifact": SHARED / "scifact",
}
DATASETS = ("synthetic", "locomo", "memdaily", "scifact", "lifecycle")
_spec_uses_torch = spec_uses_torch  # where tests/project/test_plain_install.py imports it from


def _data_path(dataset: str, data: Path | None) -> Path:
    path = data or DEFAULT_DATA[dataset]
    if data is None and not path.exists():
        # An installed wheel has no checkout around it: try ../shared from the cwd.
        path = Path.cwd().parent / "shared" / "datasets" / path.relative_to(SHARED)
    if not path.exists():
        raise click.UsageError(
            f"{dataset} data not found at {path}; pass --data PATH to the dataset's file or "
            "folder (docs/cli.md says which), or run `recall bench synthetic`, which needs no data"
        )
    return path


def _load(dataset: str, data: Path | None, opts: dict[str, Any]) -> list[tuple[str, Dataset]]:
    """(label, dataset) pairs to run; LoCoMo gives one per unit, turns first."""
    limit = opts["limit"]
    if dataset == "synthetic":
        return [("synthetic", synthetic(users=opts["users"], seed=opts["seed"]).limited(limit))]
    path = _data_path(dataset, data)
    if dataset == "locomo":
        units = opts["unit"] or UNITS
        return [(u, load_locomo(path, u).limited(limit)) for u in units]
    if dataset == "memdaily":
        return [
            (
                "memdaily",
                load_memdaily(path, haystack=opts["haystack"], seed=opts["seed"], limit=limit),
            )
        ]
    return [("scifact", load_scifact(path, split=opts["split"]).limited(limit))]


@click.command("bench")
@click.argument("dataset", type=click.Choice(DATASETS))
@click.option("--data", type=click.Path(path_type=Path), help="Dataset file or folder.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("benchmarks") / "results",
    show_default=True,
    help="Folder for <dataset>.json and the PNG plots.",
)
@click.option(
    "--limit",
    type=int,
    help="Score only the first N queries (MemDaily: an even seeded sample of N over its files).",
)
@click.option(
    "--spec",
    "specs",
    multiple=True,
    help="Index spec(s); the first gets every "
    "mode. Default: default, plus multilingual when installed.",
)
@click.option("--unit", multiple=True, type=click.Choice(UNITS), help="LoCoMo units.")
@click.option("--haystack", default=100, show_default=True, help="MemDaily messages per user.")
@click.option("--split", default="test", show_default=True, help="SciFact qrels split.")
@click.option("--users", default=4, show_default=True, help="Synthetic users per language.")
@click.option("--seed", default=0, show_default=True, help="Seed for generated or mixed data.")
@click.option("--sweep/--no-sweep", default=True, show_default=True, help="Alpha 0..1 sweep.")
@click.option(
    "--baseline/--no-baseline",
    default=None,
    help="Run the LangChain EnsembleRetriever recipe beside ours; it needs the bench extra "
    f"({BENCH_EXTRA}). Default: run it when installed, else skip it with a notice.",
)
@click.option(
    "--threads",
    default=1,
    show_default=True,
    help="torch threads, set only when torch runs: spec default-torch, the baseline, "
    "--scale (1 avoids oversubscription on shared CPUs).",
)
@click.option("--scale", is_flag=True, help="Also run the synthetic scale sweep (slow).")
@click.option(
    "--scale-sizes",
    default=",".join(map(str, DEFAULT_SIZES)),
    show_default=True,
    help="Record counts for --scale, comma-separated.",
)
@click.option("--quiet", is_flag=True, help="No progress bars.")
@click.option(
    "--budget", default=3000, show_default=True, help="lifecycle: tokens each mode may use."
)
def bench(
    dataset: str,
    data: Path | None,
    out: Path,
    limit: int | None,
    specs: tuple[str, ...],
    **opts: Any,
) -> None:
    """Benchmark recall on DATASET (synthetic, locomo, memdaily, scifact, lifecycle).

    ``lifecycle`` feeds LoCoMo (default; or --data MEMDAILY_DIR) through update_memory and
    scores what each memory tier returns against the raw turns (see recall.bench.lifecycle).

    Writes OUT/DATASET.json (metrics per mode as fractions, latencies in ms, parameters,
    versions, git commit) and OUT/DATASET_*.png (recall@k per mode; with matplotlib).

    A plain install runs it: torch is imported only when something chosen runs on it, and
    the baseline (the bench extra) is skipped with a one-line notice when not installed.
    """
    torch_users: list[str] = []
    if dataset != "lifecycle":
        if not specs:
            specs = ("default", "multilingual") if multilingual_available() else ("default",)
        torch_users = [f"spec {s}" for s in specs if spec_uses_torch(s)]
        opts["baseline"] = want_baseline(opts["baseline"])
        if opts["baseline"]:
            torch_users.append("the baseline")
        if opts["scale"]:
            if missing := baseline_missing():
                raise click.ClickException(
                    f"--scale runs the baseline, which needs {', '.join(missing)}: {BENCH_EXTRA}"
                )
            torch_users.append("--scale")
    with torch_threads(opts["threads"], torch_users):
        _bench(dataset, data, out, limit, specs, opts)


def _bench(
    dataset: str,
    data: Path | None,
    out: Path,
    limit: int | None,
    specs: tuple[str, ...],
    opts: dict[str, Any],
) -> None:
    if dataset == "lifecycle":  # the memory the product builds, not a retrieval corpus
        from .lifecycle import bench_lifecycle

        path = _data_path("locomo", data)
        try:
            written = bench_lifecycle(path, out, limit, opts["budget"], opts["seed"])
        except RecallError as exc:
            raise click.ClickException(str(exc)) from exc
        click.echo(f"wrote {written}")
        return
    cfg = RunConfig(
        specs=specs, sweep=opts["sweep"], baseline=opts["baseline"], progress=not opts["quiet"]
    )
    params = {
        "dataset": dataset,
        "data": str(data) if data else None,
        "limit": limit,
        "specs": list(specs),
        "threads": opts["threads"],
        "top_k": cfg.top_k,
        "sweep": cfg.sweep,
        "baseline": cfg.baseline,
        "seed": opts["seed"],
    }
    env = environment()  # before the run: the load average it started under
    try:
        parts = _load(dataset, data, {**opts, "limit": limit})
        started = time.perf_counter()
        results = {}
        for label, ds in parts:
            click.echo(
                f"{label}: {len(ds.corpus)} docs, {len(ds.queries)} queries, "
                f"{len(ds.docs_by_user())} users",
                err=True,
            )
            results[label] = run_dataset(ds, cfg)
            results[label]["parameters"] = ds.params
    except DatasetError as exc:
        raise click.ClickException(str(exc)) from exc
    except RecallError as exc:
        raise click.ClickException(f"recall failed: {exc}") from exc
    first = next(iter(results.values()))
    result: dict[str, Any] = {
        **first,
        "parameters": {**params, **first["parameters"]},
        "environment": env,
        "loadavg_at_end": list(os.getloadavg()),
        "total_s": time.perf_counter() - started,
    }
    if len(results) > 1:
        result["units"] = {label: r for label, r in list(results.items())[1:]}
        result["primary_unit"] = next(iter(results))
    path = write_json(result, out / f"{dataset}.json")
    click.echo(f"wrote {path}")
    plots(dataset, results, out)
    if opts["scale"]:
        sizes = [int(s) for s in opts["scale_sizes"].split(",") if s.strip()]
        env = environment()
        rows = scale_sweep(sizes, threads=opts["threads"], progress=not opts["quiet"])
        write_json(
            {
                "rows": rows,
                "parameters": {"sizes": sizes, "threads": opts["threads"]},
                "environment": env,
                "loadavg_at_end": list(os.getloadavg()),
            },
            out / "scale.json",
        )
        try_plot(lambda: plot_latency(rows, out / "scale_latency.png"))
        click.echo(f"wrote {out / 'scale.json'}")
    _summary(result)


def _summary(result: dict[str, Any]) -> None:
    click.echo(f"{'mode':10} {'R@5':>6} {'R@10':>6} {'nDCG@10':>8} {'p50 ms':>8} {'p95 ms':>8}")
    for name, m in result["modes"].items():
        click.echo(
            f"{name:10} {m['recall@5']:6.3f} {m['recall@10']:6.3f} {m['ndcg@10']:8.3f} "
            f"{m['p50_ms']:8.1f} {m['p95_ms']:8.1f}"
        )
