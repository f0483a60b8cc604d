"""``recall add``, ``search``, ``explain``, ``records``, ``stats``: write, query, browse, count.

QUERY (``search``, ``explain``) and TEXT (``add``) may be ``-``: standard input, decoded
strictly, one trailing newline dropped.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from .app import (
    echo_json,
    json_option,
    main,
    open_memory,
    path_option,
    read_query,
    url_option,
    user_memory,
    user_option,
)

if TYPE_CHECKING:
    from ..memory import Memory
    from ..models import Hit, RecallRequest

__all__ = ["MOVED", "add", "explain", "moved_because", "records_command", "search", "stats"]

_F = TypeVar("_F", bound=Callable[..., Any])


def _metadata(
    _ctx: click.Context, _param: click.Parameter, value: str | None
) -> dict[str, Any] | None:
    """``--metadata``: a JSON object, else a usage error naming the flag."""
    if value is None:
        return None
    try:
        data = json.loads(value)
    except ValueError as exc:
        raise click.BadParameter(f"not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise click.BadParameter(f"must be a JSON object ({{...}}), got {type(data).__name__}")
    return data


@main.command()
@click.argument("text", required=False)
@user_option
@click.option(
    "--kind", default="note", show_default=True, help="Record kind (note: never promoted)."
)
@click.option("--id", "record_id", default=None, help="Record id (default: a new uuid).")
@click.option(
    "--metadata",
    default=None,
    callback=_metadata,
    help='A JSON object stored with the record, e.g. \'{"source": "slack"}\'.',
)
@json_option
@path_option
@url_option
def add(
    text: str | None,
    user_id: str,
    kind: str,
    record_id: str | None,
    metadata: dict[str, Any] | None,
    as_json: bool,
    path: Path,
    chroma_url: str | None,
) -> None:
    """Store TEXT (omitted or -: standard input) as a record of USER; prints its id."""
    if text is None or text == "-":
        # Bytes, decoded strictly: invalid UTF-8 is refused (one line), never half-stored.
        text = sys.stdin.buffer.read().decode("utf-8")
    with open_memory(path, chroma_url, create=True) as mem:
        rid = mem.add(text, user_id=user_id, kind=kind, id=record_id, metadata=metadata)
    if as_json:
        echo_json({"id": rid})
        return
    click.echo(rid)


def _query_options(command: _F) -> _F:
    """The arguments ``search`` and ``explain`` share (those of deep_recall)."""
    for option in reversed(
        [
            click.argument("query"),
            user_option,
            click.option(
                "--top-k",
                default=None,
                type=int,
                help="Hits to return.",
                show_default="Settings.retrieval.default_top_k (8)",
            ),
            click.option("--kind", "kinds", multiple=True, help="Kinds to search (repeatable)."),
            click.option(
                "--since", default=None, help="Only what was said on or after this ISO date."
            ),
            click.option(
                "--until", default=None, help="Only what was said on or before this ISO date."
            ),
            json_option,
            path_option,
            url_option,
        ]
    ):
        command = option(command)
    return command


def _hit_line(i: int, h: Hit) -> str:
    vec = "-" if h.vector_score is None else f"{h.vector_score:.3f}"
    return (
        f"{i:>2}. {h.score:.3f}  [{h.source()}]  kw {h.keyword_score:.2f} "
        f"({h.keyword_norm:.2f}, #{h.keyword_rank})  vec {vec} ({h.vector_norm:.2f}, "
        f"#{h.vector_rank or '-'}){moved_because(h)}  {h.text}"
    )


#: How the CLI and the inspector say why a hit stands above a higher score (Hit.reason).
MOVED = {
    "current": "the user's current statement",
    "newest": "said after those below",
    "time_window": "inside the asked time",
}


def moved_because(h: Hit) -> str:
    """`` (above higher scores: why)`` for a hit out of score order, else ""."""
    return f" (above higher scores: {MOVED[h.reason]})" if h.reason else ""


@contextmanager
def _asked(
    query: str,
    user_id: str,
    top_k: int | None,
    kinds: tuple[str, ...],
    since: str | None,
    until: str | None,
    path: Path,
    chroma_url: str | None,
) -> Iterator[tuple[Memory, RecallRequest]]:
    """The memory and the request of ``search``/``explain``, built once (build_request)."""
    query = read_query(query)
    with user_memory(path, chroma_url, user_id) as mem:
        kind = kinds or None
        yield (
            mem,
            mem.build_request(query, user_id, top_k=top_k, kinds=kind, since=since, until=until),
        )


@main.command()
@_query_options
def search(as_json: bool, **asked: Any) -> None:
    """Deep-recall QUERY (-: standard input) in USER's memory (--since/--until: ISO dates,
    a window on when it was said)."""
    with _asked(**asked) as (mem, request):
        hits = mem.deep_recall(request)
    if as_json:
        echo_json([h.model_dump(mode="json") for h in hits])
        return
    if not hits:
        click.echo("no memories found")
    for i, h in enumerate(hits, 1):
        click.echo(
            f"{i:>2}. {h.score:.3f}  [{h.source()}]  kw {h.keyword_norm:.2f} "
            f"vec {h.vector_norm:.2f}{moved_because(h)}  {h.text}"
        )


@main.command()
@_query_options
def explain(as_json: bool, **asked: Any) -> None:
    """Why `recall search QUERY` answers what it does: each hit's keyword and vector legs
    (raw score, normalized, rank), and the hits the relevance floor removed."""
    with _asked(**asked) as (mem, request):
        done = mem.explain(request)
    if as_json:
        echo_json(done.model_dump(mode="json"))
        return
    click.echo("score  [kind · said]  kw raw (normalized, rank)  vec raw (normalized, rank)")
    _hit_block(f"hits ({len(done.hits)}):", done.hits)
    _hit_block(f"removed by the relevance floor ({len(done.floored)}):", done.floored)


def _hit_block(head: str, hits: Sequence[Hit]) -> None:
    click.echo(head)
    for i, h in enumerate(hits, 1):
        click.echo(_hit_line(i, h))
    if not hits:
        click.echo("  (none)")


@main.command("records")
@user_option
@click.option("--kind", "kinds", multiple=True, help="Only this kind (repeatable).")
@click.option("--since", default=None, help="Only what was said on or after this ISO date.")
@click.option("--until", default=None, help="Only what was said before this (a date: its end).")
@click.option("--offset", default=0, show_default=True, type=int, help="Records to skip.")
@click.option("--limit", default=50, show_default=True, type=int, help="Records on the page.")
@json_option
@path_option
@url_option
def records_command(
    user_id: str,
    kinds: tuple[str, ...],
    since: str | None,
    until: str | None,
    offset: int,
    limit: int,
    as_json: bool,
    path: Path,
    chroma_url: str | None,
) -> None:
    """A page of USER's records, newest said first (Memory.browse)."""
    with user_memory(path, chroma_url, user_id) as mem:
        page = mem.browse(
            user_id, kinds=kinds or None, since=since, until=until, offset=offset, limit=limit
        )
    if as_json:
        echo_json(page.model_dump(mode="json"))
        return
    if not page.records:
        click.echo(f"no records here ({page.total} match, from offset {page.offset})")
        return
    last = page.offset + len(page.records)
    click.echo(f"records {page.offset + 1}-{last} of {page.total}, newest said first")
    for r in page.records:
        click.echo(f"{r.created_at.isoformat(timespec='seconds')}  {r.kind}  {r.id}")
        click.echo("    " + r.text.strip().replace("\n", "\n    "))
    if page.next_offset is not None:
        click.echo(f"more: --offset {page.next_offset}")


@main.command()
@json_option
@path_option
@url_option
def stats(as_json: bool, path: Path, chroma_url: str | None) -> None:
    """Users, records per kind and index state of the memory folder (JSON either way:
    --json is accepted like everywhere else)."""
    del as_json  # the text form is this JSON document already
    with open_memory(path, chroma_url) as mem:
        echo_json(mem.stats(), indent=2)
