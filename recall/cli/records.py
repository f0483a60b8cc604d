"""``recall add``, ``recall search``, ``recall stats``: write, query and count records."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .app import main, open_memory, path_option, url_option

__all__ = ["add", "search", "stats"]


@main.command()
@click.argument("text", required=False)
@click.option("--user", "user_id", required=True, help="Whose memory.")
@click.option(
    "--kind", default="note", show_default=True, help="Record kind (note: never promoted)."
)
@click.option("--id", "record_id", default=None, help="Record id (default: a new uuid).")
@path_option
@url_option
def add(
    text: str | None,
    user_id: str,
    kind: str,
    record_id: str | None,
    path: Path,
    chroma_url: str | None,
) -> None:
    """Store TEXT (or standard input) as a memory record of USER; prints its id."""
    if text is None:
        # Bytes, decoded strictly: invalid UTF-8 is refused (one line), never half-stored.
        text = sys.stdin.buffer.read().decode("utf-8")
    with open_memory(path, chroma_url, create=True) as mem:
        click.echo(mem.add(text, user_id=user_id, kind=kind, id=record_id))


@main.command()
@click.argument("query")
@click.option("--user", "user_id", required=True, help="Whose memory.")
@click.option(
    "--top-k",
    default=None,
    type=int,
    help="Hits to return.",
    show_default="Settings.retrieval.default_top_k (8)",
)
@click.option("--kind", "kinds", multiple=True, help="Kinds to search (repeatable).")
@click.option("--since", default=None, help="Only what was said on or after this ISO date.")
@click.option("--until", default=None, help="Only what was said on or before this ISO date.")
@click.option("--json", "as_json", is_flag=True, help="Print hits as JSON.")
@path_option
@url_option
def search(
    query: str,
    user_id: str,
    top_k: int | None,
    kinds: tuple[str, ...],
    since: str | None,
    until: str | None,
    as_json: bool,
    path: Path,
    chroma_url: str | None,
) -> None:
    """Deep-recall QUERY in USER's memory (--since/--until: a window on when it was said)."""
    with open_memory(path, chroma_url) as mem:
        hits = mem.deep_recall(
            query, user_id=user_id, top_k=top_k, kinds=kinds or None, since=since, until=until
        )
    if as_json:
        click.echo(json.dumps([h.model_dump(mode="json") for h in hits], ensure_ascii=False))
        return
    if not hits:
        click.echo("no memories found")
    for i, h in enumerate(hits, 1):
        click.echo(
            f"{i:>2}. {h.score:.3f}  [{h.source()}]  kw {h.keyword_norm:.2f} "
            f"vec {h.vector_norm:.2f}  {h.text}"
        )


@main.command()
@path_option
@url_option
def stats(path: Path, chroma_url: str | None) -> None:
    """Users, records per kind and index state of the memory folder (JSON)."""
    with open_memory(path, chroma_url) as mem:
        click.echo(json.dumps(mem.stats(), indent=2, ensure_ascii=False))
