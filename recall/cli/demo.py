"""``recall demo``: the sample a newcomer runs first (what ``make demo`` runs)."""

from __future__ import annotations

import click

from .app import main

__all__ = ["demo"]


@main.command()
def demo() -> None:
    """Ingest a sample conversation into a fresh folder, run a deep recall and print what
    the model would see. Writes nothing outside that temporary folder (its path is
    printed; ``RECALL_DEMO_PATH`` names another)."""
    from ..demo import main as run_demo

    run_demo()
    click.echo(
        "next: recall add / recall search --path DIR (docs/cli.md); recall serve (docs/server.md)"
    )
