"""Corrections of the long-term article: forget_fact, edit_fact, rollback.

Each reads back through ``long_term`` (the new version, the old kept) and ``deep_recall``
(the Dynamic passages follow the newest version).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import recall


@pytest.fixture
def seeded(settings: recall.Settings, embedder: recall.Embedder) -> Iterator[recall.Memory]:
    """A user whose article was promoted once: Bedrock, Evolutionary and Dynamic filled."""
    with recall.open(settings=settings.replace(short_term_capacity=2, promote_count=2)) as mem:
        mem.update_memory("My name is Ottoline. I am allergic to penicillin.", user_id="u1")
        mem.update_memory(
            "The staging cluster runs on node pool blue-7 this week; it moves back on Monday.",
            user_id="u1",
        )
        mem.update_memory("We renamed the billing queue to invoices-v2.", user_id="u1")
        assert mem.long_term("u1").version == 1
        yield mem


def _dynamic_hits(mem: recall.Memory, query: str) -> list[str]:
    return [h.text for h in mem.deep_recall(query, user_id="u1", kinds=["dynamic"])]


def test_forget_fact_writes_a_version_without_it_and_keeps_the_old(
    seeded: recall.Memory,
) -> None:
    before = seeded.long_term("u1")
    assert "blue-7" in before.render()
    assert any("blue-7" in t for t in _dynamic_hits(seeded, "node pool"))
    after = seeded.forget_fact("u1", "node pool BLUE-7")  # case and spacing ignored
    assert after.version == 2 and "blue-7" not in after.render()
    assert "penicillin" in after.bedrock  # the rest stays
    assert seeded.long_term("u1").version == 2
    assert "blue-7" in seeded.long_term("u1", version=1).render()  # history kept
    assert not any("blue-7" in t for t in _dynamic_hits(seeded, "node pool"))


def test_forget_fact_removes_whole_sentences_only(seeded: recall.Memory) -> None:
    assert "moves back on Monday" in seeded.long_term("u1").render()
    after = seeded.forget_fact("u1", "blue-7")
    assert "moves back on Monday" not in after.render()  # the sentence goes on after ";"


def test_edit_fact_replaces_the_text_everywhere(seeded: recall.Memory) -> None:
    after = seeded.edit_fact("u1", "penicillin", "amoxicillin")
    assert "amoxicillin" in after.bedrock and "penicillin" not in after.render()
    assert "penicillin" in seeded.long_term("u1", version=after.version - 1).bedrock


def test_rollback_is_a_new_version_and_can_be_undone(seeded: recall.Memory) -> None:
    seeded.forget_fact("u1", "blue-7")
    back = seeded.rollback("u1", 1)
    assert back.version == 3 and back.render() == seeded.long_term("u1", version=1).render()
    assert any("blue-7" in t for t in _dynamic_hits(seeded, "node pool"))
    again = seeded.rollback("u1", 2)
    assert again.version == 4 and "blue-7" not in again.render()
    empty = seeded.rollback("u1", 0)
    assert (
        empty.is_empty() and seeded.deep_recall("node pool", user_id="u1", kinds=["dynamic"]) == []
    )


def test_corrections_reject_what_they_cannot_do(seeded: recall.Memory) -> None:
    with pytest.raises(recall.InputError, match="no sentence of the article contains"):
        seeded.forget_fact("u1", "a fact never said")
    with pytest.raises(recall.InputError, match="is not in the article"):
        seeded.edit_fact("u1", "Berlin", "Munich")
    with pytest.raises(recall.InputError, match="non-empty string"):
        seeded.forget_fact("u1", "  ")
    with pytest.raises(recall.InputError, match="no long-term version 9"):
        seeded.rollback("u1", 9)
    with pytest.raises(recall.InputError):
        seeded.forget_fact("", "blue-7")
    assert seeded.long_term("u1").version == 1  # nothing was written
