"""``recall memory report``: one user's memory as one static HTML file.

The inspector's view (``recall serve`` at ``/ui``) without a server: the same renderer
(:func:`recall.server.ui.report_page`) over the same read-only views, written to a file
that holds everything it shows: the style sheet inline, no script, no link out. Every
record is listed, every article version, the newest article and the difference between
the last two versions; ``--query`` adds the query explained (its hits, both legs' scores
and ranks, and the hits the relevance floor removed).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import click

from ..errors import InputError
from .app import need_server_extra, path_option, url_option, user_memory, user_option
from .memory import memory_group

__all__ = ["report"]


@memory_group.command("report")
@user_option
@click.option(
    "--out",
    "-o",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    default=Path("report.html"),
    show_default=True,
    help="The HTML file to write.",
)
@click.option("--query", "-q", default=None, help="Also explain this query's hits.")
@path_option
@url_option
def report(user_id: str, out: Path, query: str | None, path: Path, chroma_url: str | None) -> None:
    """Write USER's memory (article, versions, a diff, summaries, every record, and
    --query explained) to one self-contained HTML file that needs no server."""
    need_server_extra("memory report")
    from ..server.ui import Params, gather, report_page

    # The same checks as the inspector's query box (its length bound included).
    params = Params.parse([("q", query)] if query else [])
    with user_memory(path, chroma_url, user_id) as mem:
        view = gather(mem, user_id, params, report=True)
    written = datetime.now(UTC)
    generated = f"Written {written:%Y-%m-%d %H:%M} UTC from the memory folder {path}."
    try:
        out.write_text(report_page(view, generated=generated), encoding="utf-8")
    except OSError as exc:
        raise InputError(
            f"cannot write the report to {out}: {exc.strerror or exc}; pass a writable --out"
        ) from None
    click.echo(
        f"wrote {out}: {view.page.total} records, {len(view.versions)} article versions"
        + (f", {len(view.explained.hits)} hits for the query" if view.explained else "")
    )
