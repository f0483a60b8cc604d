"""get_relevant_memories: chapters then relevant summaries, within the memory budget.

Pure budgeting and ranking functions with the exact tiktoken count, then the real Memory
(SQLite, embedded Chroma, MiniLM, offline summarizer and reconstructor) end to end.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

import recall
from recall.context.memory_block import (
    SHORT_TERM_HEADING,
    fit_leading_paragraphs,
    memory_block,
    rank_summaries,
    recency_scores,
    relevant_memories,
    summary_similarities,
)
from recall.context.ranking import blend_rank
from recall.errors import InputError
from recall.lifecycle.article import Article
from recall.models import Record
from recall.text import count_tokens

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)

BEDROCK = (
    "My name is Ottoline Quarrington and I work as a glassblower in Murano.\n\n"
    "I am allergic to penicillin; never suggest it."
)
EVOLUTIONARY = (
    "I prefer terse answers with code first.\n\n"
    "### Long-term goals\n"
    "I plan to open a furnace studio in Lisbon by 2027.\n\n"
    "I usually work on the kiln schedule every Monday morning.\n\n"
    "We agreed to keep every invoice in the shared ledger."
)
DYNAMIC = (
    "The annealer in bay 3 was repaired on Tuesday.\n\n"
    "Order 4471 of amber goblets ships to Vienna next week.\n\n"
    "The gas supplier raised prices by 12 percent."
)
ARTICLE = Article(bedrock=BEDROCK, evolutionary=EVOLUTIONARY, dynamic=DYNAMIC)


def paragraphs(text: str) -> list[str]:
    return [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]


def record(i: int, text: str, at: datetime) -> Record:
    return Record(
        id=f"st-{i}",
        user_id="u1",
        kind="short_term",
        text=text,
        created_at=at,
        tokens=count_tokens(text),
    )


# --- pure parts ---------------------------------------------------------------------------
def test_recency_is_linear_newest_one_oldest_zero() -> None:
    assert recency_scores([]) == []
    assert recency_scores([5.0]) == [1.0]
    assert recency_scores([3.0, 3.0]) == [1.0, 1.0]
    assert recency_scores([10.0, 30.0, 20.0]) == [0.0, 1.0, 0.5]


def test_rank_weights_similarity_and_recency() -> None:
    old, new = T0, T0 + timedelta(days=1)
    recs = [record(0, "a", old), record(1, "b", new), record(2, "c", old)]
    ranked = rank_summaries(recs, [0.9, 0.1, 0.2], similarity_weight=0.6, recency_weight=0.4)
    assert [r.id for r in ranked] == ["st-0", "st-1", "st-2"]
    assert ranked[0].score == pytest.approx(0.54) and ranked[1].score == pytest.approx(0.46)
    # Same similarity: the newer one first; recency alone decides.
    ranked = rank_summaries(recs[:2], [0.5, 0.5], similarity_weight=0.6, recency_weight=0.4)
    assert [r.id for r in ranked] == ["st-1", "st-0"]


def test_blend_rank_is_the_weighted_sum_best_first() -> None:
    ranked = blend_rank(
        [0.9, 0.1, 0.5], [0.0, 1.0, 0.5], similarity_weight=0.6, confidence_weight=0.4
    )
    assert [i for i, _ in ranked] == [0, 2, 1]
    assert [s for _, s in ranked] == pytest.approx([0.54, 0.5, 0.46])
    # Ties: the caller's order, unless a tiebreak says otherwise.
    even: dict[str, Any] = {"similarity_weight": 1.0, "confidence_weight": 0.0}
    assert [i for i, _ in blend_rank([0.5, 0.5], [0.1, 0.9], **even)] == [0, 1]
    assert [i for i, _ in blend_rank([0.5, 0.5], [0.1, 0.9], **even, tiebreak=[0.1, 0.9])] == [1, 0]
    assert blend_rank([], [], **even) == []
    with pytest.raises(ValueError, match="one similarity per confidence"):
        blend_rank([0.5], [], **even)


def test_fit_leading_paragraphs_keeps_headings_and_first_paragraphs() -> None:
    full = count_tokens(EVOLUTIONARY)
    assert fit_leading_paragraphs(EVOLUTIONARY, full, count_tokens) == EVOLUTIONARY
    for budget in range(1, full):
        out = fit_leading_paragraphs(EVOLUTIONARY, budget, count_tokens)
        assert count_tokens(out) <= budget
        if not out:
            continue
        kept = paragraphs(out)
        assert out.startswith("I prefer terse answers")  # the leading paragraph survives
        assert "### Long-term goals" in out  # the heading stays while paragraphs go
        body = [p for p in kept if not p.startswith("#")]
        originals = [p.split("\n")[-1] for p in paragraphs(EVOLUTIONARY)]
        assert body == originals[: len(body)]  # whole paragraphs, leading ones, in order
    assert fit_leading_paragraphs(EVOLUTIONARY, 3, count_tokens) == ""
    cut = fit_leading_paragraphs(EVOLUTIONARY, 11, count_tokens, allow_cut=True)
    assert cut.startswith("I prefer") and "truncated" in cut and count_tokens(cut) <= 11


def test_block_never_exceeds_budget_and_keeps_priority() -> None:
    summaries = ["Kiln 2 needs a new thermocouple.", "Bought sand from the Dolomites supplier."]
    whole = memory_block(ARTICLE, summaries, 10_000, count_tokens)
    heads = [ln for ln in whole.split("\n") if ln.startswith("## ")]
    assert heads == ["## Bedrock", "## Evolutionary", "## Dynamic", SHORT_TERM_HEADING]
    bedrock_section = f"## Bedrock\n\n{BEDROCK}"
    for budget in range(0, count_tokens(whole) + 5, 3):
        out = memory_block(ARTICLE, summaries, budget, count_tokens)
        assert count_tokens(out) <= budget
        if budget >= count_tokens(bedrock_section):
            assert out.startswith(bedrock_section)  # Bedrock first and whole
        elif out:
            assert out.startswith("## Bedrock\n\nM")  # cut, yet still first
        for line in out.split("\n"):
            if line.startswith("## "):
                section = out.split(line, 1)[1].split("\n## ", 1)[0]
                assert section.strip(), f"heading {line!r} without content at {budget}"
    assert memory_block(Article(), [], 1000, count_tokens) == ""
    assert memory_block(Article(), ["only a summary"], 1000, count_tokens) == (
        f"{SHORT_TERM_HEADING}\n\nonly a summary"
    )


def test_cut_chapter_keeps_its_heading_and_whole_paragraphs() -> None:
    head = memory_block(ARTICLE, [], 10_000, count_tokens).split("## Dynamic")[0]
    first = "## Dynamic\n\nThe annealer in bay 3 was repaired on Tuesday."
    budget = count_tokens(head + first) + 2  # the Dynamic heading and one paragraph
    out = memory_block(ARTICLE, [], budget, count_tokens)
    assert count_tokens(out) <= budget
    dynamic = out.split("## Dynamic\n\n", 1)[1]
    assert dynamic == "The annealer in bay 3 was repaired on Tuesday."
    assert "Order 4471" not in out


# --- the real memory ----------------------------------------------------------------------
def test_similarity_prefers_the_related_text(embedder: recall.Embedder) -> None:
    texts = ["The staging database runs PostgreSQL 16.", "We bought bananas at the market."]
    sims = summary_similarities(embedder, "Which Postgres version does staging use?", texts)
    assert sims[0] > sims[1] >= 0.0
    assert summary_similarities(embedder, "x", []) == []


def test_get_relevant_memories_end_to_end(
    settings: recall.Settings, embedder: recall.Embedder
) -> None:
    # Capacity 2, promote 2: the third update promotes the first two into the article.
    s = settings.replace(short_term_capacity=2, promote_count=2)
    with recall.open(settings=s) as mem:
        assert mem.get_relevant_memories("hello", user_id="u1") == ""
        mem.update_memory(
            "My name is Ottoline Quarrington. I am allergic to penicillin.", user_id="u1"
        )
        mem.update_memory("I prefer terse answers. The annealer in bay 3 was fixed.", user_id="u1")
        res = mem.update_memory("Order 4471 ships to Vienna next week.", user_id="u1")
        assert res.promoted and mem.long_term("u1").bedrock
        # Two summaries of the same age, the irrelevant one listed first (ids order equal
        # times): only the similarity can put the other one ahead.
        mem.add(
            "Bought oat milk and bananas at the market.",
            user_id="u1",
            id="a",
            created_at=T0,
            kind="short_term",
        )
        mem.add(
            "Staging runs PostgreSQL 16 on port 5433.",
            user_id="u1",
            id="b",
            created_at=T0,
            kind="short_term",
        )
        assert [r.id for r in mem.short_term("u1")][:2] == ["a", "b"]
        question = "Which Postgres version does the staging database use?"
        out = mem.get_relevant_memories(question, user_id="u1")
        assert out.startswith(f"## Bedrock\n\n{mem.long_term('u1').bedrock.strip()}")
        assert count_tokens(out) <= s.context.memory_budget_tokens
        short = out.split(f"{SHORT_TERM_HEADING}\n\n", 1)[1]
        assert short.index("PostgreSQL 16") < short.index("oat milk")
        assert "Order 4471" in short  # the newest summary is there too
        # The same memory under many budgets: never over, Bedrock always leads.
        article, shorts = mem.long_term("u1"), mem.short_term("u1")
        for budget in (0, 4, 12, 30, 60, 120, 250):
            tight = s.replace(memory_budget_tokens=budget)
            text = relevant_memories(question, article, shorts, mem.embedder, settings=tight)
            assert count_tokens(text) <= budget
            assert not text or text.startswith("## Bedrock")
        for bad in ("", "   ", None, 42):
            with pytest.raises(InputError, match="user_input"):
                mem.get_relevant_memories(bad, user_id="u1")  # type: ignore[arg-type]
        with pytest.raises(InputError, match="user_id"):
            mem.get_relevant_memories("hello", user_id="")
        with pytest.raises(InputError, match="user_id"):
            mem.get_relevant_memories("hello", user_id=7)  # type: ignore[arg-type]
        assert mem.get_relevant_memories("hello", user_id="someone-else") == ""


def test_chapters_leave_room_for_summaries_that_need_it(
    settings: recall.Settings, embedder: recall.Embedder
) -> None:
    # A Dynamic chapter long enough to fill the block on its own: with the default share it
    # keeps half of the room after the Bedrock and the relevant summary gets in; with a
    # share of 1 (the chapters first, whole) the summary is crowded out.
    long_dynamic = "\n\n".join(
        f"Batch {i} of goblets was fired in kiln {i % 4}." for i in range(200)
    )
    article = Article(bedrock=BEDROCK, evolutionary=EVOLUTIONARY, dynamic=long_dynamic)
    summary = record(
        1,
        "Staging runs PostgreSQL 16 on port 5433, behind PgBouncer in transaction mode, "
        "with a nightly base backup to the cold bucket and WAL archived every five minutes; "
        "the replica in the second zone lags about two seconds at peak and is read-only. "
        "Connections go through the service account svc-staging-db, rotated monthly by the "
        "vault agent; schema changes run through the migration job, never by hand.",
        T0,
    )
    question = "Which port does the staging PostgreSQL use?"

    def block(share: float) -> str:
        s = settings.replace(memory_chapter_share=share)
        return relevant_memories(
            question, article, [summary], lambda: embedder, settings=s, budget=1000
        )

    shared = block(0.5)
    assert "port 5433" in shared and "glassblower" in shared
    assert count_tokens(shared) <= 1000
    assert "port 5433" not in block(1.0)
    # No summaries: the chapters take the whole budget.
    alone = relevant_memories(
        question, article, [], lambda: embedder, settings=settings, budget=1000
    )
    assert count_tokens(alone) > count_tokens(shared.split(SHORT_TERM_HEADING)[0])
