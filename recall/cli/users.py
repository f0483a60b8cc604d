"""``recall delete-user``, ``recall export-user``, ``recall import-user``: a user as a whole.

``export-user`` has no ``--json``: what it writes is JSON Lines already, the format
``import-user`` reads back.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import click

from .app import echo_json, json_option, main, open_memory, path_option, url_option

if TYPE_CHECKING:
    from ..settings import Settings

__all__ = ["delete_user", "export_user", "import_user"]


@main.command("delete-user")
@click.option("--user", "user_id", required=True, help="Whose memory to erase.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.option(
    "--vacuum",
    is_flag=True,
    help="Then remove what the database files keep of deleted rows: VACUUM (FULL on "
    "PostgreSQL: locks each table while it is rewritten) and the write-ahead log "
    "truncated; the embedded Chroma's file too.",
)
@json_option
@path_option
@url_option
def delete_user(
    user_id: str, yes: bool, vacuum: bool, as_json: bool, path: Path, chroma_url: str | None
) -> None:
    """Erase every record, article version, job and vector of USER (cannot be undone).

    The rows are gone for every reader at once; with --vacuum the files are rewritten
    without them too (also for a user erased before, through the server or the library:
    the vacuum is of the whole store). What PostgreSQL's WAL, backups and Chroma's log
    still keep: docs/server.md, "Erasure on a server store".
    """
    if not yes:  # the question on stderr: stdout holds the answer alone (--json)
        try:
            click.confirm(f"Erase all memory of user {user_id!r} in {path}?", abort=True, err=True)
        except UnicodeError:  # end the question's line: the error is a line of its own
            click.echo("", err=True)
            raise
    with open_memory(path, chroma_url) as mem:
        done = mem.delete_user(user_id)
        settings = mem.settings
    if not done.existed and not vacuum:
        raise click.ClickException(f"user {user_id!r} holds no memory in {path}")
    if not as_json and done.existed:  # said before the vacuum, which may fail after it
        click.echo(
            f"erased user {user_id}: {done.records} records, {done.articles} article "
            f"versions, {done.jobs} jobs, {done.vectors} vectors"
        )
    elif not as_json:  # erased before (REST, MCP, the library): the files may still hold it
        click.echo(f"user {user_id} holds no memory in {path} (nothing to erase); vacuuming")
    lines = _vacuum(settings) if vacuum else None
    if as_json:
        echo_json({**done.model_dump(mode="json"), "vacuum": lines})
        return
    for line in lines or ():
        click.echo(line)


def _vacuum(settings: Settings) -> list[str]:
    """VACUUM the store, then the embedded Chroma's SQLite file; what was done, a line each.

    Run once the memory is closed: the Chroma client holds its file open while it lives.
    """
    from ..errors import StoreError
    from ..store import open_store
    from ..store.vacuum import vacuum_sqlite_file

    storage = settings.storage
    store = open_store(storage.path, storage.store_url, timeout_s=storage.store_timeout_s)
    try:
        lines = store.vacuum()
    finally:
        store.close()
    if storage.chroma_url:
        lines.append(
            "the Chroma server's files are its own: run `chroma vacuum --path DATA` where it "
            "runs; its log keeps the vectors until its index persists past them"
        )
        return lines
    chroma = Path(storage.path) / "chroma" / "chroma.sqlite3"
    if chroma.is_file():
        try:
            lines += vacuum_sqlite_file(chroma)
        except StoreError as exc:  # another process has the folder open: nothing changed
            lines.append(f"skipped {chroma}: {exc}")
    lines.append(
        "  Chroma's own log (embeddings_queue in chroma.sqlite3) keeps the erased vectors "
        "and ids until its index persists past them (docs/server.md: Erasure on a server store)"
    )
    return lines


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
@json_option
@path_option
@url_option
def import_user(
    source: TextIO, user_id: str | None, as_json: bool, path: Path, chroma_url: str | None
) -> None:
    """Load an export (a file, or - for standard input) into a user that holds nothing yet."""
    with open_memory(path, chroma_url, create=True) as mem:
        done = mem.import_user(source.read(), user_id=user_id)
    if as_json:
        echo_json(done.model_dump(mode="json"))
        return
    click.echo(
        f"imported {done.records} records and {done.articles} article versions as user "
        f"{done.user_id} (from {done.source_user_id})"
    )
