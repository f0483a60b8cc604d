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

from ..errors import RecallError

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
    from ..memory import open as open_memory

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


@main.command()
@click.option("--spec", "spec_name", default=None, help="Index spec: name in indexes/ or path.")
@click.option("--user", "users", multiple=True, help="Only this user (repeatable).")
@click.option("--all", "all_users", is_flag=True, help="Every user (the default).")
@click.option("--keep-old", is_flag=True, help="Keep the old spec's vectors after switching.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@path_option
@url_option
@_clean_errors
def reindex(
    spec_name: str | None,
    users: tuple[str, ...],
    all_users: bool,
    keep_old: bool,
    quiet: bool,
    path: Path,
    chroma_url: str,
) -> None:
    """Rebuild the indexes from the store (resumable, idempotent), then switch atomically."""
    from tqdm import tqdm

    from ..index.rebuild import reindex as run_reindex

    if users and all_users:
        raise click.UsageError("give --user or --all, not both")
    settings, spec = _settings_and_spec(path, chroma_url, spec_name)
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
@click.option("--spec", "spec_name", default=None, help="Index spec: name in indexes/ or path.")
@path_option
@url_option
@_clean_errors
def check(spec_name: str | None, path: Path, chroma_url: str) -> None:
    """Compare store and index per user; exit code 1 when something needs `recall reindex`."""
    from ..index.rebuild import check as run_check

    settings, spec = _settings_and_spec(path, chroma_url, spec_name)
    built, rows = run_check(settings, spec)
    click.echo(f"spec {spec.name}: fingerprint {spec.fingerprint}; index built with {built}")
    click.echo(
        f"{'user':<24} {'records':>8} {'vectors':>8} {'store v':>8} {'index v':>8} "
        f"{'missing':>8} {'orphans':>8}  status"
    )
    for r in rows:
        click.echo(
            f"{r.user_id[:24]:<24} {r.records:>8} {r.vectors:>8} {r.store_version:>8} "
            f"{r.index_version:>8} {r.missing:>8} {r.orphans:>8}  {'ok' if r.ok else 'REINDEX'}"
        )
    problems = [r for r in rows if not r.ok]
    stale = built is not None and built != spec.fingerprint
    if stale:
        click.echo("the index was built with another spec: run `recall reindex --spec ...`")
    if problems or stale:
        click.echo(f"{len(problems)} users need `recall reindex`")
        sys.exit(1)
    click.echo("all users in step")


def _settings_and_spec(path: Path, chroma_url: str | None, spec_name: str | None) -> Any:
    from ..index.spec import load_spec
    from ..settings import Settings

    updates: dict[str, Any] = {"path": path}
    if chroma_url:
        updates["chroma_url"] = chroma_url
    if spec_name:
        updates["index_spec"] = spec_name
    settings = Settings(**updates)
    return settings, load_spec(settings.retrieval.index_spec)


def _register_bench() -> None:
    # The benchmark harness lives in the repository's benchmarks/ package; an install
    # without it simply has no `recall bench`.
    try:
        from benchmarks.cli import bench
    except ImportError:
        return
    main.add_command(bench, "bench")


def _register_context() -> None:
    # `recall context` (the context builder, issue 4) lives in its own module.
    from .context import context_command

    if context_command.callback is not None:
        context_command.callback = _clean_errors(context_command.callback)
    main.add_command(context_command)


def _register_memory() -> None:
    # `recall ingest` and `recall memory show` (the lifecycle, issue 3) live in their own
    # module; it is handed the shared options rather than importing this one.
    from .memory import memory_commands

    for command in memory_commands([path_option, url_option]):
        subcommands = command.commands.values() if isinstance(command, click.Group) else ()
        for cmd in (command, *subcommands):
            if cmd.callback is not None:
                cmd.callback = _clean_errors(cmd.callback)
        main.add_command(command)


_register_bench()
_register_context()
_register_memory()
