"""How new is what a hit talks about: the day the user first said the newest thing it names.

A question about the user's present re-orders its first hits newest first
(:func:`recall.index.hits.newest_asserted`). By the day a hit was said, chatter about a
former value outranks the statement of the new one: "<old landlord> still has my deposit"
(October) comes before "I signed the lease with <new landlord> today" (September). What
holds now is the value introduced last, not the one mentioned last (:mod:`.now`). So each
hit is dated by the things it names that another of the first hits names too (the competing
values: a thing named once is more likely an aside), at the day the user first said the
newest of them; a hit naming none of them is dated by the newest thing it names alone
("back in <old city> for a wedding" is as old as the city), one naming nothing keeps its
own day, and none is dated after its own day.

Things are names: capitalized words not opening a sentence (:func:`recall.text.stance.names_in`)
and, in Chinese, the words jieba tags as proper nouns (people, places, organisations, other
proper names) or writes in Latin letters. The day a thing was first said is read from the
user's own sentences (:class:`.now.UserFacts`), by the keyword analyzer's tokens. No word
list: measured in benchmarks/README.md ("the newest thing a hit names").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache

from ..index.embed import Embedder
from ..index.partitions import Partition
from ..models import Record
from ..text import has_cjk
from ..text.analyzer import Analyzer
from ..text.speakers import without_labels
from ..text.stance import names_in
from ..text.tokenize import pos_tags
from .asked import user_facts

__all__ = ["named_since", "things_named"]

#: Hits among the re-ordered ones that must name a thing for it to date them.
SHARED = 2
#: jieba's part-of-speech tags of proper nouns (person, place, organisation, other), and
#: of a word written in Latin letters inside Chinese text ("Excel", "SaaS").
_PROPER = frozenset({"nr", "nrt", "nrfg", "ns", "nt", "nz", "eng"})


@lru_cache(maxsize=16_384)
def things_named(text: str) -> frozenset[str]:
    """The names ``text`` holds (see module docs), as written."""
    text = without_labels(text)  # a stored exchange's "User:" names nobody
    out = set(names_in(text))
    if has_cjk(text):
        out |= {w for w, flag in pos_tags(text) if flag in _PROPER and len(w.strip()) >= 2}
    return frozenset(out)


def named_since(
    part: Partition, embedder: Embedder, analyzer: Analyzer, head: Sequence[Record]
) -> list[datetime | None]:
    """For each of ``head`` (the hits to re-order), the day the user first said the newest
    thing it names that another of ``head`` names too (naming none of those: the newest
    thing it names), or the hit's own day when that is earlier (the assistant may name a
    thing before the user does); None when it names nothing the user ever said."""
    first = user_facts(part, embedder, analyzer).first_said
    named = [
        {t for name in things_named(r.text) for t in analyzer.tokens(name) if t in first}
        for r in head
    ]
    shared = {t for t, n in Counter(t for ts in named for t in ts).items() if n >= SHARED}
    out: list[datetime | None] = []
    for r, ts in zip(head, named, strict=True):
        # The things other hits name too (the competing values); with none, those it names
        # alone ("back in <old city> for a wedding" is as old as the city).
        dating = (ts & shared) or ts
        # Never later than the hit itself: what the assistant named before the user first
        # said it ("...rent there is lower than in <city>") is no news of a later day.
        out.append(min(max(first[t] for t in dating), r.created_at) if dating else None)
    return out
