"""``recall forget``, ``recall delete``, ``recall memory edit``, ``recall memory rollback``.

The corrections. Each opens an existing folder and calls the facade
(:meth:`recall.Memory.forget`, :meth:`~recall.Memory.delete`,
:meth:`~recall.Memory.edit_fact`, :meth:`~recall.Memory.rollback`), whose checks apply; a
bad input is one ``error:`` line and exit code 1 (:class:`~recall.cli.app.RecallGroup`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from .app import echo_json, main, path_option, url_option, user_memory, user_option
from .memory import memory_group

if TYPE_CHECKING:
    from ..lifecycle.article import LongTerm

__all__ = ["delete", "edit", "forget", "rollback"]


@main.command()
@click.argument("text", required=False)
@user_option
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
    with user_memory(path, chroma_url, user_id) as mem:
        done = mem.forget(user_id, text, ids=list(ids) if ids else None)
    if as_json:
        echo_json(done.model_dump(mode="json"))
        return
    if not done.found:
        click.echo("nothing held it: no record or article version changed")
        return
    version = "no new article version" if done.version is None else f"version {done.version}"
    click.echo(
        f"forgot: {len(done.deleted)} records deleted, {len(done.rewritten)} rewritten, "
        f"article {version}, {len(done.scrubbed_versions)} older versions scrubbed"
    )


@main.command()
@click.argument("ids", nargs=-1, required=True)
@user_option
@click.option("--json", "as_json", is_flag=True, help="Print what was deleted as JSON.")
@path_option
@url_option
def delete(
    ids: tuple[str, ...], user_id: str, as_json: bool, path: Path, chroma_url: str | None
) -> None:
    """Delete USER's records IDS (nothing else: `recall forget` also scrubs a fact from the
    article and the records that repeat it). Ids that hold no record are not an error."""
    with user_memory(path, chroma_url, user_id) as mem:
        deleted = mem.delete(list(ids), user_id=user_id)
    if as_json:
        echo_json({"user_id": user_id, "ids": list(ids), "deleted": deleted})
        return
    click.echo(f"deleted {deleted} of {len(ids)} records")


def _new_version(article: LongTerm, as_json: bool) -> None:
    if as_json:
        echo_json(article.model_dump(mode="json"))
    else:
        click.echo(f"long-term version {article.version}")


@memory_group.command("edit")
@click.argument("old")
@click.argument("new")
@user_option
@click.option("--json", "as_json", is_flag=True, help="Print the new version as JSON.")
@path_option
@url_option
def edit(
    old: str, new: str, user_id: str, as_json: bool, path: Path, chroma_url: str | None
) -> None:
    """Replace OLD (exact text) with NEW in USER's long-term article, as a new version."""
    with user_memory(path, chroma_url, user_id) as mem:
        _new_version(mem.edit_fact(user_id, old, new), as_json)


@memory_group.command("rollback")
@click.argument("version", type=click.IntRange(min=0))
@user_option
@click.option("--json", "as_json", is_flag=True, help="Print the new version as JSON.")
@path_option
@url_option
def rollback(version: int, user_id: str, as_json: bool, path: Path, chroma_url: str | None) -> None:
    """Write USER's article VERSION again as a new version (undo it the same way)."""
    with user_memory(path, chroma_url, user_id) as mem:
        _new_version(mem.rollback(user_id, version), as_json)
