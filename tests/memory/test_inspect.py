"""The read-only views: browse a page of records, the article's versions and their diff,
and a query explained (the hits and what the relevance floor removed)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import recall


@pytest.fixture
def mem(settings: recall.Settings) -> Iterator[recall.Memory]:
    with recall.open(settings=settings.replace(short_term_capacity=2, promote_count=2)) as m:
        yield m


def _notes(mem: recall.Memory, n: int, user: str = "u1") -> None:
    for i in range(n):
        mem.add(f"note {i}: hiking in the alps", user_id=user, created_at=f"2026-{i + 1:02d}-10")


def test_browse_pages_newest_said_first(mem: recall.Memory) -> None:
    _notes(mem, 7)
    first = mem.browse("u1", limit=3)
    assert first.total == 7 and first.next_offset == 3
    assert [r.created_at.month for r in first.records] == [7, 6, 5]
    last = mem.browse("u1", offset=6, limit=3)
    assert [r.created_at.month for r in last.records] == [1] and last.next_offset is None
    seen = [r.id for o in (0, 3, 6) for r in mem.browse("u1", offset=o, limit=3).records]
    assert len(set(seen)) == 7  # every record once over the pages


def test_browse_filters_by_kind_and_said_date(mem: recall.Memory) -> None:
    _notes(mem, 7)
    mem.add("a fact", user_id="u1", kind="fact", created_at="2026-03-15")
    window = mem.browse("u1", since="2026-03-01", until="2026-04-30")
    assert [r.created_at.month for r in window.records] == [4, 3, 3]
    facts = mem.browse("u1", kinds=["fact"])
    assert facts.total == 1 and facts.records[0].text == "a fact"
    assert mem.browse("u2").total == 0  # another user's page is empty, not theirs


@pytest.mark.parametrize(
    ("kwargs", "word"),
    [
        ({"limit": 0}, "limit"),
        ({"limit": 10_000}, "limit"),
        ({"offset": -1}, "offset"),
        ({"since": "2026-05-01", "until": "2026-04-01"}, "before"),
        ({"since": "yesterday-ish"}, "since"),
    ],
)
def test_browse_refuses_bad_bounds(
    mem: recall.Memory, kwargs: dict[str, object], word: str
) -> None:
    with pytest.raises(recall.InputError, match=word):
        mem.browse("u1", **kwargs)  # type: ignore[arg-type]


def test_versions_and_diff_follow_the_article(mem: recall.Memory) -> None:
    assert mem.article_versions("u1") == []
    mem.update_memory("My name is Ottoline. I am allergic to penicillin.", user_id="u1")
    mem.update_memory("We renamed the billing queue to invoices-v2.", user_id="u1")
    mem.update_memory("The staging cluster moved to node pool blue-7.", user_id="u1")
    assert mem.long_term("u1").version == 1
    mem.edit_fact("u1", "penicillin", "amoxicillin")
    versions = mem.article_versions("u1")
    assert [v.version for v in versions] == [2, 1] and versions[1].promoted == 2
    assert all(v.tokens > 0 for v in versions)
    diff = mem.article_diff("u1", 1)
    assert diff.new == 2
    bedrock = next(c for c in diff.chapters if c.chapter == "Bedrock")
    assert bedrock.changed
    assert any(line.startswith("-") and "penicillin" in line for line in bedrock.lines)
    assert any(line.startswith("+") and "amoxicillin" in line for line in bedrock.lines)
    assert not next(c for c in diff.chapters if c.chapter == "Evolutionary").lines
    with pytest.raises(recall.UnknownUserError, match="article_versions"):
        mem.article_diff("u1", 3)


def test_explain_matches_deep_recall_and_names_the_floored(mem: recall.Memory) -> None:
    _notes(mem, 5)
    mem.add("The quarterly tax filing is due in April.", user_id="u1")
    query = "hiking alps"
    explained = mem.explain(query, user_id="u1")
    assert [h.id for h in explained.hits] == [h.id for h in mem.deep_recall(query, user_id="u1")]
    assert explained.hits and all(h.keyword_rank >= 1 for h in explained.hits)
    nothing = mem.explain("zebra quantum chromodynamics", user_id="u1")
    assert nothing.hits == [] and nothing.floored  # ranked, then all under the floor
    assert not {h.id for h in nothing.hits} & {h.id for h in nothing.floored}
