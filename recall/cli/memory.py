"""``recall ingest`` and ``recall memory show|versions|diff``: fill a user's memory from a
file, and read it (the corrections on the same group: :mod:`recall.cli.corrections`)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .app import (
    echo_json,
    json_option,
    main,
    open_memory,
    path_option,
    url_option,
    user_memory,
    user_option,
)

if TYPE_CHECKING:
    from ..lifecycle.pipeline import LongTerm
    from ..memory import Memory
    from ..models import Record

__all__ = ["diff", "ingest_command", "memory_group", "render_memory", "show", "versions"]


def _summary_lines(records: Sequence[Record]) -> list[str]:
    out = []
    for i, r in enumerate(records, 1):
        out.append(f"[{i}] {r.created_at.isoformat(timespec='seconds')}  {r.id}")
        out.append(r.text.strip())
        out.append("")
    return out


def render_memory(
    user_id: str,
    article: LongTerm,
    latest: int,
    summaries: Sequence[Record],
    *,
    past: bool,
) -> str:
    """The text ``recall memory show`` prints.

    ``past``: ``summaries`` are the ones promoted into ``article`` (a ``--version`` view),
    not the current short-term memory.
    """
    head = f"user {user_id}: long-term article, version {article.version} of {latest}"
    if article.updated_at is not None:
        head += f", updated {article.updated_at.isoformat(timespec='seconds')}"
    lines = [head, ""]
    if article.version == 0:
        lines += ["(nothing promoted yet: the article starts when short-term memory overflows)"]
    else:
        lines += [article.render()]
    lines.append("")
    if past:
        lines.append(f"summaries promoted into version {article.version} ({len(summaries)}):")
    else:
        lines.append(f"short-term summaries ({len(summaries)}):")
    lines.append("")
    lines += _summary_lines(summaries) if summaries else ["(none)"]
    return "\n".join(lines).rstrip() + "\n"


def _promoted_into(mem: Memory, user_id: str, version: int) -> list[Record]:
    """The archived summaries that fed ``version`` (the lifecycle links them by metadata)."""
    return [
        r
        for r in mem.records(user_id, kinds=["archive"])
        if r.metadata.get("chapter_version") == version
    ]


@main.command("ingest")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@user_option
@click.option("--sample", "samples", multiple=True, help="LoCoMo: only this sample_id.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@path_option
@url_option
def ingest_command(
    file: Path,
    user_id: str,
    samples: tuple[str, ...],
    quiet: bool,
    as_json: bool,
    path: Path,
    chroma_url: str | None,
) -> None:
    """Summarize FILE into USER's memory, promoting as it goes.

    FILE: OpenAI-format chat messages (JSON or JSONL) or a LoCoMo conversation; see
    recall.lifecycle.ingest for the formats and how they are cut into updates.
    """
    from ..errors import InputError
    from ..lifecycle.ingest import ingest, plan_file
    from ..models import validate_user_id
    from ..settings import Settings

    try:
        validate_user_id(user_id)
    except ValueError as exc:
        raise InputError(f"--user: {exc}") from exc
    # The whole file is checked first: a bad one leaves no trace, not even the folder.
    updates = plan_file(file, Settings(path=path), samples=samples)
    with (
        open_memory(path, chroma_url, create=True) as mem,
        click.progressbar(
            length=len(updates),
            label=f"ingest {file.name}",
            file=sys.stderr,
            hidden=quiet,
            show_pos=True,
        ) as bar,
    ):
        report = ingest(mem, updates, user_id=user_id, progress=lambda _u: bar.update(1))
    if as_json:
        echo_json(report.model_dump(mode="json"))
        return
    click.echo(
        f"ingested {report.updates} updates from {file.name} for user {report.user_id} in "
        f"{report.seconds:.1f} s: {report.promotions} promotions, long-term version "
        f"{report.version}, {report.short_term_count} short-term summaries"
    )


@main.group("memory")
def memory_group() -> None:
    """A user's memory: the long-term article, its versions, the short-term summaries."""


@memory_group.command("show")
@user_option
@click.option("--version", "version", type=int, default=None, help="A past article version.")
@click.option("--json", "as_json", is_flag=True, help="Print it as JSON.")
@path_option
@url_option
def show(
    user_id: str, version: int | None, as_json: bool, path: Path, chroma_url: str | None
) -> None:
    """Print USER's long-term article (newest, or --version N) and the summaries."""
    with user_memory(path, chroma_url, user_id) as mem:
        latest = mem.long_term(user_id).version
        article = mem.long_term(user_id, version)  # an unknown version: InputError
        if version is None:
            summaries = mem.short_term(user_id)
        else:
            summaries = _promoted_into(mem, user_id, article.version)
    if as_json:
        out = {
            "user_id": user_id,
            "latest_version": latest,
            "article": article.model_dump(mode="json"),
            "summaries_kind": "short_term" if version is None else "promoted",
            "summaries": [r.model_dump(mode="json") for r in summaries],
        }
        echo_json(out, indent=2)
        return
    click.echo(render_memory(user_id, article, latest, summaries, past=version is not None))


@memory_group.command("versions")
@user_option
@json_option
@path_option
@url_option
def versions(user_id: str, as_json: bool, path: Path, chroma_url: str | None) -> None:
    """List every stored version of USER's long-term article, newest first."""
    with user_memory(path, chroma_url, user_id) as mem:
        rows = mem.article_versions(user_id)
    if as_json:
        echo_json([v.model_dump(mode="json") for v in rows])
        return
    if not rows:
        click.echo(f"user {user_id}: no article version yet (nothing promoted)")
        return
    click.echo(f"{'version':>7}  {'updated':<25}  {'tokens':>6}  {'promoted':>8}")
    for v in rows:
        when = v.updated_at.isoformat(timespec="seconds")
        click.echo(f"{v.version:>7}  {when:<25}  {v.tokens:>6}  {v.promoted:>8}")


@memory_group.command("diff")
@click.argument("old", type=int)
@click.argument("new", type=int, required=False)
@user_option
@json_option
@path_option
@url_option
def diff(
    old: int, new: int | None, user_id: str, as_json: bool, path: Path, chroma_url: str | None
) -> None:
    """What changed in USER's article from version OLD to NEW (default: the newest), per
    chapter, as a unified diff."""
    with user_memory(path, chroma_url, user_id) as mem:
        done = mem.article_diff(user_id, old, new)
    if as_json:
        echo_json(done.model_dump(mode="json"))
        return
    click.echo(f"user {done.user_id}: article version {done.old} -> {done.new}")
    for chapter in done.chapters:
        if not chapter.changed:
            click.echo(f"## {chapter.chapter}: unchanged")
            continue
        click.echo(f"## {chapter.chapter}")
        for line in chapter.lines:
            click.echo(line)
