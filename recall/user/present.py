"""A question about the present gets the newest statement of what it asks first.

"Where do I live now?" asks what holds now (:func:`recall.user.slots.asks_present`: "now",
"currently", "these days", "现在", "目前", ...) of the ``home`` slot
(:func:`recall.user.slots.query_slots`). Among the hits, those whose user statements set
that slot (:func:`recall.user.superseded.statement_slots`) are re-ordered newest said first,
in the places they held: the move to Ghent takes the rank the old Antwerp record had, and
hits about anything else keep theirs; the newest one that replaces a value also goes above
older hits that never named the slot. Only a question about the user ("I", "my", "我") and
only the leading ten hits: the set of the top ten does not change (recall at 10 is
untouched), only their order. A question without a word of the present, or about history
("where did I live before?", "我以前住哪"), keeps the fused order, so the older value is
still found.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..models import Record
from .slots import asks_present, query_slots, replaces
from .superseded import statement_slots

__all__ = ["present_first"]


#: Only the leading hits are re-ordered: with a long result list (top_k 50) the newest
#: statement ranked 40th must not displace what ranked first.
LEADING = 10
# The question is about the user: "where do I live", "我住哪", not "where does Caroline live".
_ABOUT_ME = re.compile(r"\b(?:i|i'm|i've|me|my|mine)\b|我", re.IGNORECASE)


def present_first(query: str, records: Sequence[Record]) -> list[int]:
    """The positions of ``records`` (in rank order) in their new order (see module docs)."""
    order = list(range(len(records)))
    wanted = query_slots(query)
    if not wanted or len(records) < 2 or not asks_present(query) or not _ABOUT_ME.search(query):
        return order
    lead = records[:LEADING]
    group = [i for i, r in enumerate(lead) if statement_slots(r.text) & wanted]
    newest = sorted(group, key=lambda i: (-records[i].created_at.timestamp(), i))
    for place, i in zip(group, newest, strict=True):
        order[place] = i
    if not newest or not replaces(records[newest[0]].text, wanted):
        return order
    # The newest statement replaces the old value ("sold the scooter, I take the metro now"):
    # it also goes above the older hits that never named the slot ("my Vespa is perfect").
    first, said = order.index(newest[0]), records[newest[0]].created_at
    above = next((q for q in range(first) if records[order[q]].created_at < said), first)
    order.insert(above, order.pop(first))
    return order
