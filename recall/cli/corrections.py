"""``recall forget``, ``recall memory edit``, ``recall memory rollback``: corrections.

Each opens an existing folder and calls the facade (:meth:`recall.Memory.forget`,
:meth:`~recall.Memory.edit_fact`, :meth:`~recall.Memory.rollback`), whose checks apply; a
bad input is one ``error:`` line and exit code 1 (:class:`~recall.cli.app.RecallGroup`).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from .app import main, open_memory, path_option, url_option
from .memory import memory_group

__all__ = ["edit", "forget", "rollback"]


@main.command()
@click.argument("text", required=False)
@click.option("--user", "user_id", required=True, help="Whose memory.")
@click.option("--id", "ids", multiple=True, help="A record id to delete (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print what changed as JSON.")
@path_option
@url_option
def forget(
    text: str | None,
    user_id: str,
    ids: tuple[str, ...],
    as_json: bool,
    path: Path,
    chroma_url: str | None,
) -> None:
    """Forget TEXT everywhere in USER's memory (records, article, its older versions),
    and delete the records --id."""
    if text is None and not ids:
        raise click.UsageError("name the TEXT to forget, or --id of records to delete")
    with open_memory(path, chroma_url) as mem:
        done = mem.forget(user_id, text, ids=list(ids) if ids else None)
    if as_json:
        click.echo(json.dumps(done.model_dump(mode="json"), ensure_ascii=False))
        return
    if not done.found:
        click.echo("nothing held it: no record or article version changed")
        return
    version = "no new article version" if done.version is None else f"version {done.version}"
    click.echo(
        f"forgot: {len(done.deleted)} records deleted, {len(done.rewritten)} rewritten, "
        f"article {version}, {len(done.scrubbed_versions)} older versions scrubbed"
    )


@memory_group.command("edit")
@click.argument("old")
@click.argument("new")
@click.option("--user", "user_id", required=True, help="Whose memory.")
@path_option
@url_option
def edit(old: str, new: str, user_id: str, path: Path, chroma_url: str | None) -> None:
    """Replace OLD (exact text) with NEW in USER's long-term article, as a new version."""
    with open_memory(path, chroma_url) as mem:
        click.echo(f"long-term version {mem.edit_fact(user_id, old, new).version}")


@memory_group.command("rollback")
@click.argument("version", type=click.IntRange(min=0))
@click.option("--user", "user_id", required=True, help="Whose memory.")
@path_option
@url_option
def rollback(version: int, user_id: str, path: Path, chroma_url: str | None) -> None:
    """Write USER's article VERSION again as a new version (undo it the same way)."""
    with open_memory(path, chroma_url) as mem:
        click.echo(f"long-term version {mem.rollback(user_id, version).version}")
