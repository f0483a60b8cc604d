"""``recall profile``: what is true of a user now, attribute by attribute, and what each
value replaced (:meth:`recall.Memory.profile`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from .app import echo_json, json_option, main, path_option, url_option, user_memory, user_option

if TYPE_CHECKING:
    from ..models import Fact, Profile

__all__ = ["profile_command", "render_profile"]


def _day(fact: Fact) -> str:
    return fact.since.isoformat(timespec="seconds")


def _said(fact: Fact) -> str:
    """The statement, quoted and indented under its value (each of its lines)."""
    return '    "' + fact.statement.strip().replace("\n", "\n     ") + '"'


def render_profile(profile: Profile) -> str:
    """The text ``recall profile`` prints: a block per attribute, its current value first
    (since when, the user's newest statement of it), then the earlier values, newest first,
    each with what replaced it."""
    if not profile.facts:
        return f"user {profile.user_id}: nothing the user said sets an attribute yet\n"
    count = len(profile.facts)
    lines = [f"user {profile.user_id}: {count} attribute{'' if count == 1 else 's'}"]
    for attribute, facts in profile.facts.items():
        if not facts:
            continue
        now, *earlier = reversed(facts)
        lines += ["", f"{attribute}: {now.value}  (since {_day(now)})", _said(now)]
        for fact in earlier:
            replaced = fact.superseded_by or "a later value"
            lines.append(f"  past: {fact.value}  (since {_day(fact)}, replaced by {replaced})")
            lines.append(_said(fact))
    return "\n".join(lines) + "\n"


@main.command("profile")
@user_option
@json_option
@path_option
@url_option
def profile_command(user_id: str, as_json: bool, path: Path, chroma_url: str | None) -> None:
    """What is true of USER now (home, employer, gym...), read from their own words, and
    the values each attribute held before."""
    with user_memory(path, chroma_url, user_id) as mem:
        profile = mem.profile(user_id)
    if as_json:
        echo_json(profile.model_dump(mode="json"))
        return
    click.echo(render_profile(profile), nl=False)
