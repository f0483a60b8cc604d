"""The parts of a user's inspector page, each one macro of ``templates/sections.html``
called from Python (the pages themselves render whole templates: :mod:`.render`).

Every piece of stored or requested text is escaped by the template engine; ``live``: the
page is served (links to other versions and pages, the forms, the correction controls); a
memory report read from disk has none.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...models import Hit
from .templates import macro

__all__ = ["hits_table"]


def _hit_rows(hits: Sequence[Hit]) -> list[str]:
    """Each hit's table row: its fused score (and why it stands above a higher one) and
    both legs' raw and normalized scores and ranks."""
    return [macro("hit_row", n, h) for n, h in enumerate(hits, start=1)]


def hits_table(hits: Sequence[Hit], *, empty: str) -> str:
    """Hits with their fused score and both legs' raw and normalized scores and ranks."""
    return macro("hits_table", hits, empty)
