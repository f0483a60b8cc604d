"""The profile part of a user's inspector page: what is true of the user now, attribute by
attribute, and what each value replaced (:meth:`recall.Memory.profile`).

A pure function like its siblings in :mod:`.sections`: every stored text (attribute, value,
statement) passes :func:`~.page.esc`.
"""

from __future__ import annotations

from ...models import Fact, Profile
from .page import esc
from .sections import _card, _table, _td, _when

__all__ = ["profile_section"]

_HEAD = (
    "<tr><th>Attribute</th><th>Value</th><th>Since</th><th>Last said</th>"
    "<th>Statement</th><th>Replaced by</th></tr>"
)


def _row(fact: Fact, *, first: bool) -> str:
    state = "now" if fact.current else "past"
    value = f"<b>{esc(fact.value)}</b>" if fact.current else esc(fact.value)
    replaced = (
        '<span class="muted">–</span>' if fact.superseded_by is None else esc(fact.superseded_by)
    )
    attribute = esc(fact.attribute) if first else '<span class="muted">earlier</span>'
    cells = [
        _td("attribute", "", attribute),
        _td("value", "", f'<span class="kind">{state}</span> {value}'),
        _td("since", "when", _when(fact.since)),
        _td("last said", "when", _when(fact.last_said)),
        _td("statement", "text wide", esc(fact.statement)),
        _td("replaced by", "", replaced),
    ]
    return f'<tr class="{state}">{"".join(cells)}</tr>'


def profile_section(profile: Profile | None) -> str:
    """Each attribute's current value first, then the values it held before, newest first."""
    rows = []
    held = {} if profile is None else profile.facts
    for facts in held.values():
        ordered = list(reversed(facts))  # the current value (the last one) leads
        rows += [_row(fact, first=i == 0) for i, fact in enumerate(ordered)]
    meta = (
        '<p class="meta">What the user\'s own words say is true now, and what each value '
        "replaced.</p>"
    )
    table = _table("stack", _HEAD, rows, empty="Nothing the user said sets an attribute yet.")
    return _card("profile", "Profile", meta + table)
