"""``recall delete-user``, ``recall export-user``, ``recall import-user``: a user as a whole."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

import click

from .app import main, open_memory, path_option, url_option

__all__ = ["delete_user", "export_user", "import_user"]


@main.command("delete-user")
@click.option("--user", "user_id", required=True, help="Whose memory to erase.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@path_option
@url_option
def delete_user(user_id: str, yes: bool, path: Path, chroma_url: str | None) -> None:
    """Erase every record, article version, job and vector of USER (cannot be undone)."""
    if not yes:
        click.confirm(f"Erase all memory of user {user_id!r} in {path}?", abort=True)
    with open_memory(path, chroma_url) as mem:
        done = mem.delete_user(user_id)
    if not done.existed:
        raise click.ClickException(f"user {user_id!r} holds no memory in {path}")
    click.echo(
        f"erased user {user_id}: {done.records} records, {done.articles} article versions, "
        f"{done.jobs} jobs, {done.vectors} vectors"
    )


@main.command("export-user")
@click.option("--user", "user_id", required=True, help="Whose memory to export.")
@click.option(
    "--out",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the JSONL here (default: standard output).",
)
@path_option
@url_option
def export_user(user_id: str, out: Path | None, path: Path, chroma_url: str | None) -> None:
    """Write USER's records and every article version as JSONL."""
    with open_memory(path, chroma_url) as mem:
        text = "".join(mem.export_user(user_id))
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")
        click.echo(f"exported user {user_id} to {out}", err=True)


@main.command("import-user")
@click.argument("source", type=click.File("r", encoding="utf-8"))
@click.option(
    "--user", "user_id", default=None, help="Import as this user (default: the exported one)."
)
@path_option
@url_option
def import_user(source: TextIO, user_id: str | None, path: Path, chroma_url: str | None) -> None:
    """Load an export (a file, or - for standard input) into a user that holds nothing yet."""
    with open_memory(path, chroma_url, create=True) as mem:
        done = mem.import_user(source.read(), user_id=user_id)
    click.echo(
        f"imported {done.records} records and {done.articles} article versions as user "
        f"{done.user_id} (from {done.source_user_id})"
    )
