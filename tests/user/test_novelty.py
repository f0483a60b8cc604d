"""A hit of a question about the present is dated by the newest thing it names, as the user
first said it: chatter about a former value, said after the change, goes under the
statement of the new one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from recall.index.hits import newest_asserted
from recall.index.own import adapt_embedder
from recall.models import Record
from recall.testing import HashEmbedder
from recall.text.analyzer import Analyzer
from recall.user import novelty
from recall.user.attributes import AttributeSpace, Example
from recall.user.novelty import named_since, things_named
from recall.user.now import facts_of

T0 = datetime(2026, 3, 1, tzinfo=UTC)
BANK = (
    Example("home", "en", "statement", "I live in a flat by the sea"),
    Example("none", "en", "statement", "please write an email"),
)


def test_things_named_are_names_and_chinese_proper_nouns_not_speaker_labels() -> None:
    assert things_named("User: Mr Pryce still has my deposit.\nAssistant: Ask him.") == {"Pryce"}
    assert things_named("Went to Lisbon with Marta.") == {"Lisbon", "Marta"}  # "Went" opens
    assert "杭州" in things_named("我搬到杭州了。")
    assert things_named("I moved last week and it was hard.") == frozenset()


def _user(text: str, day: int) -> Record:
    return Record(
        id=f"r{day}",
        user_id="u",
        kind="turn",
        text=text,
        created_at=T0 + timedelta(days=day),
        tokens=len(text.split()),
        metadata={"role": "user"},
    )


def _since(
    monkeypatch: pytest.MonkeyPatch, records: list[Record], head: list[Record]
) -> list[datetime | None]:
    """:func:`named_since` of ``head``, the user's words being ``records``."""
    analyzer = Analyzer(stem=True, stopwords=True)
    uf = facts_of({}, records, AttributeSpace(adapt_embedder(HashEmbedder()), bank=BANK), analyzer)
    monkeypatch.setattr(novelty, "user_facts", lambda *_: uf)
    return named_since(None, None, analyzer, head)  # type: ignore[arg-type]


def test_a_hit_is_dated_by_the_newest_shared_thing_it_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    records = [
        _user("Our landlord Mr Pryce came round to look at the boiler.", 1),
        _user("I signed the lease with Mr Okafor, my new landlord, today.", 60),
        _user("Honestly Mr Pryce still has my deposit.", 100),
    ]
    since = _since(monkeypatch, records, records)
    # Pryce is named by two of the hits and was first said on day 1; Okafor by one only,
    # first said there: that hit is dated by it, its own day.
    assert since == [T0 + timedelta(days=1), T0 + timedelta(days=60), T0 + timedelta(days=1)]
    order = np.arange(3, dtype=np.intp)
    # By the day said, the chatter of day 100 goes above the new landlord; by the newest
    # thing named, under him. (The first hit speaks of someone else: it keeps its place.)
    assert newest_asserted(order, records).tolist() == [0, 2, 1]
    assert newest_asserted(order, records, since).tolist() == [0, 1, 2]


def test_a_hit_is_never_dated_after_it_was_said(monkeypatch: pytest.MonkeyPatch) -> None:
    # The assistant named the old city on day 10; the user first said it on day 40. The
    # reply is no news of day 40: it keeps its own day, under the move of day 30.
    reply = _user("Rent in Harwick is lower, but your friends are in Corran.", 10)
    reply = reply.model_copy(update={"metadata": {"role": "assistant"}})
    records = [
        _user("Moved to Harwick last weekend, the flat is tiny.", 30),
        _user("Why would anyone leave Corran, my sister asked.", 40),
        reply,
    ]
    since = _since(monkeypatch, records, records)
    assert since[2] == T0 + timedelta(days=10)  # not day 40, when the user first said Corran
    assert since[0] == T0 + timedelta(days=30)


def test_a_hit_naming_only_what_no_other_hit_names_is_as_old_as_those_things(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "Back in Corran for a wedding" (day 90) names only the old city, which no other hit
    # names: it is as old as the city (day 5), under the move to Harwick (day 40).
    records = [
        _user("Grew up in Corran and still rent a room there.", 5),
        _user("Moved into a flat in Harwick, finally.", 40),
        _user("Back in Corran for a wedding, the rain never stops.", 90),
        _user("The kettle broke again this morning.", 95),
    ]
    head = records[1:]  # the hits to re-order: Corran is named by one of them only
    since = _since(monkeypatch, records, head)
    assert since == [T0 + timedelta(days=40), T0 + timedelta(days=5), None]
    order = np.arange(3, dtype=np.intp)
    assert newest_asserted(order, head, since).tolist() == [2, 0, 1]
