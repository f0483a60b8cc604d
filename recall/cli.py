"""The ``recall`` command line: add, search, stats (and bench, when benchmarks/ is present).

Every command takes ``--path`` (default ``RECALL_PATH``, else ``./memory``). Library errors
become one-line messages on stderr with exit code 1, never tracebacks.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from .errors import RecallError

__all__ = ["main"]

F = TypeVar("F", bound=Callable[..., Any])


def _clean_errors(fn: F) -> F:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except RecallError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


path_option = click.option(
    "--path",
    type=click.Path(file_okay=False, path_type=Path),
    default=lambda: os.environ.get("RECALL_PATH", "memory"),
    show_default="$RECALL_PATH or ./memory",
    help="The memory folder.",
)
url_option = click.option(
    "--chroma-url",
    default=lambda: os.environ.get("RECALL_CHROMA_URL"),
    help="Chroma server URL (default: $RECALL_CHROMA_URL, else the embedded store).",
)


def _open(path: Path, chroma_url: str | None) -> Any:
    from .memory import open as open_memory

    return open_memory(path, chroma_url=chroma_url or None)


@click.group()
@click.version_option(package_name="recall")
def main() -> None:
    """recall: long-term memory for LLM agents, with hybrid deep recall."""
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")


@main.command()
@click.argument("text", required=False)
@click.option("--user", "user_id", required=True, help="Whose memory.")
@click.option("--kind", default="short_term", show_default=True, help="Record kind.")
@click.option("--id", "record_id", default=None, help="Record id (default: a new uuid).")
@path_option
@url_option
@_clean_errors
def add(
    text: str | None, user_id: str, kind: str, record_id: str | None, path: Path, chroma_url: str
) -> None:
    """Store TEXT (or standard input) as a memory record of USER."""
    if text is None:
        text = sys.stdin.read()
    with _open(path, chroma_url) as mem:
        click.echo(mem.add(text, user_id=user_id, kind=kind, id=record_id))


@main.command()
@click.argument("query")
@click.option("--user", "user_id", required=True, help="Whose memory.")
@click.option("--top-k", default=8, show_default=True, type=int, help="Hits to return.")
@click.option("--kind", "kinds", multiple=True, help="Kinds to search (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print hits as JSON.")
@path_option
@url_option
@_clean_errors
def search(
    query: str,
    user_id: str,
    top_k: int,
    kinds: tuple[str, ...],
    as_json: bool,
    path: Path,
    chroma_url: str,
) -> None:
    """Deep-recall QUERY in USER's memory."""
    with _open(path, chroma_url) as mem:
        hits = mem.deep_recall(query, user_id=user_id, top_k=top_k, kinds=kinds or None)
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
@_clean_errors
def stats(path: Path, chroma_url: str) -> None:
    """Users, records per kind and index state of the memory folder."""
    with _open(path, chroma_url) as mem:
        click.echo(json.dumps(mem.stats(), indent=2, ensure_ascii=False))


def _register_bench() -> None:
    # The benchmark harness lives in the repository's benchmarks/ package; an install
    # without it simply has no `recall bench`.
    try:
        from benchmarks.cli import bench
    except ImportError:
        return
    main.add_command(bench, "bench")


_register_bench()
