"""``recall reindex`` and ``recall check``: rebuild the derived indexes, compare them."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .app import main, path_option, settings_and_spec, url_option

if TYPE_CHECKING:
    from ..index.compare import CheckRow

__all__ = ["check", "reindex"]

_spec_option = click.option(
    "--spec", "spec_name", default=None, help="Index spec: name in indexes/ or path."
)


@main.command()
@_spec_option
@click.option("--user", "users", multiple=True, help="Only this user (repeatable).")
@click.option("--all", "all_users", is_flag=True, help="Every user (the default).")
@click.option("--keep-old", is_flag=True, help="Keep the old spec's vectors after switching.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@path_option
@url_option
def reindex(
    spec_name: str | None,
    users: tuple[str, ...],
    all_users: bool,
    keep_old: bool,
    quiet: bool,
    as_json: bool,
    path: Path,
    chroma_url: str | None,
) -> None:
    """Rebuild the indexes from the store (resumable, idempotent), then switch atomically."""
    from tqdm import tqdm

    from ..index.rebuild import reindex as run_reindex

    if users and all_users:
        raise click.UsageError("give --user or --all, not both")
    settings, spec = settings_and_spec(path, chroma_url, spec_name)
    bar = tqdm(total=0, unit="rec", desc="reindex", disable=quiet, dynamic_ncols=True)

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.n = done
        bar.refresh()

    try:
        report = run_reindex(
            settings, spec, users=users or None, keep_old=keep_old, progress=progress
        )
    finally:
        bar.close()
    if as_json:
        out = {**dataclasses.asdict(report), "records_per_s": report.records_per_s}
        click.echo(json.dumps(out, ensure_ascii=False, default=str))
        return
    click.echo(
        f"spec {report.spec} ({report.fingerprint}): {report.users} users, "
        f"{report.records} records, {report.embedded} embedded, {report.removed} orphans "
        f"removed in {report.seconds:.1f} s ({report.records_per_s:.0f} records/s)"
    )
    if report.switched:
        click.echo(f"switched the memory folder to spec {report.spec}")
    elif report.remaining_users:
        click.echo(
            f"{len(report.remaining_users)} users not yet on this spec; "
            "run `recall reindex --all` to finish and switch"
        )


@main.command()
@_spec_option
@click.option("--json", "as_json", is_flag=True, help="Print the rows as JSON.")
@path_option
@url_option
def check(spec_name: str | None, as_json: bool, path: Path, chroma_url: str | None) -> None:
    """Compare store and index per user; exit code 1 when something needs `recall reindex`
    (indexing merely pending, which the next query catches up, is reported, exit code 0)."""
    from ..index.compare import compare

    settings, spec = settings_and_spec(path, chroma_url, spec_name)
    built, rows = compare(settings, spec)
    problems = [r for r in rows if r.status == "REINDEX"]
    pending = [r for r in rows if r.status == "pending"]
    stale = built is not None and built != spec.fingerprint
    if as_json:
        out = {
            "spec": spec.name,
            "fingerprint": spec.fingerprint,
            "built_with": built,
            "stale": stale,
            "users": [{**dataclasses.asdict(r), "ok": r.ok, "status": r.status} for r in rows],
        }
        click.echo(json.dumps(out, ensure_ascii=False))
    else:
        _print_check(spec.name, spec.fingerprint, built, rows)
        if stale:
            click.echo("the index was built with another spec: run `recall reindex --spec ...`")
        if pending:
            click.echo(
                f"{len(pending)} users pending indexing: their next query catches up "
                "(or run `recall reindex` now)"
            )
        if problems or stale:
            click.echo(f"{len(problems)} users need `recall reindex`")
        elif not pending:
            click.echo("all users in step")
    if problems or stale:
        raise SystemExit(1)


def _print_check(name: str, fingerprint: str, built: str | None, rows: Sequence[CheckRow]) -> None:
    click.echo(f"spec {name}: fingerprint {fingerprint}; index built with {built}")
    click.echo(
        f"{'user':<24} {'records':>8} {'vectors':>8} {'store v':>8} {'index v':>8} "
        f"{'missing':>8} {'orphans':>8}  status"
    )
    for r in rows:
        click.echo(
            f"{r.user_id[:24]:<24} {r.records:>8} {r.vectors:>8} {r.store_version:>8} "
            f"{r.index_version:>8} {r.missing:>8} {r.orphans:>8}  {r.status}"
        )
