"""``recall migrate``: copy a memory's store between a folder and a PostgreSQL database."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .app import echo_json, json_option, main, require_folder

if TYPE_CHECKING:
    from ..store import SqlStore

__all__ = ["migrate"]


def _open(where: str, *, source: bool) -> SqlStore:
    from ..store import open_store

    if where.startswith(("postgresql://", "postgres://")):
        return open_store(Path("."), where)
    if source:
        require_folder(Path(where))
    return open_store(Path(where), None)


@main.command("migrate")
@click.option("--from", "source", required=True, help="A memory folder or a postgresql:// URL.")
@click.option("--to", "target", required=True, help="A memory folder or a postgresql:// URL.")
@click.option("--quiet", is_flag=True, help="No progress.")
@json_option
def migrate(source: str, target: str, quiet: bool, as_json: bool) -> None:
    """Copy every record, article and setting from one store to another (resumable).

    Rerun it after an interruption: users already copied are skipped. The vectors stay
    where they are (the folder's chroma/ or the Chroma server): open the copy with the same
    vector store, and `recall check` confirms the two agree.
    """
    from ..settings.redact import redact
    from ..store.migrate import copy_store

    if source == target:
        raise click.UsageError("--from and --to name the same store")
    src = _open(source, source=True)
    dst = _open(target, source=False)
    try:

        def progress(done: int, total: int) -> None:
            if not quiet:
                click.echo(f"\rmigrate: {done}/{total} users", nl=False, err=True)

        report = copy_store(src, dst, progress)
    finally:
        src.close()
        dst.close()
    if not quiet and report.users:
        click.echo("", err=True)
    if as_json:  # exit code 1 on a mismatch all the same
        echo_json(
            {
                **dataclasses.asdict(report),
                "ok": report.ok,
                "source": redact(source),
                "target": redact(target),
            }
        )
    else:
        click.echo(
            f"copied {report.copied_users} users ({report.skipped_users} already there), "
            f"{report.records} records, from {redact(source)} to {redact(target)}; "
            + ("every user verified" if report.ok else f"MISMATCH for {report.mismatched[:5]}")
        )
    if not report.ok:
        sys.exit(1)
