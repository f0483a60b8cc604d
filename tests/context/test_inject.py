"""Memory injection: 0.6 · TF-IDF similarity + 0.4 · confidence, exact budgets."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

import pytest

import recall
from recall.context.facts import (
    conversation_context,
    format_memory_for_injection,
    rank_facts,
    similarities,
    tfidf_similarities,
)
from recall.errors import InputError
from recall.settings import Settings
from recall.text import count_tokens

FACTS: list[dict[str, Any]] = [
    {"content": "Runs Docker for containerization", "confidence": 0.9},
    {"content": "Prefers pytest for testing Python code", "confidence": 0.8},
    {"content": "Likes type hints in Python", "confidence": 0.8},
    {"content": "Experienced with React and Next.js performance", "confidence": 0.85},
    {"content": "Expert in Python and FastAPI", "confidence": 0.85},
]


def test_ranking_follows_the_conversation() -> None:
    py = [f.text for f in rank_facts(FACTS, "How should I write Python tests?")]
    assert py[0] == "Prefers pytest for testing Python code"
    assert py.index("Runs Docker for containerization") > 2
    web = [f.text for f in rank_facts(FACTS, "How to optimize my Next.js app with React?")]
    assert web[0] == "Experienced with React and Next.js performance"


def test_score_is_weighted_sum() -> None:
    context = "How should I write Python tests?"
    sims = tfidf_similarities([f["content"] for f in FACTS], context)
    for f in rank_facts(FACTS, context):
        i = next(k for k, x in enumerate(FACTS) if x["content"] == f.text)
        assert math.isclose(f.similarity, sims[i])
        assert math.isclose(f.score, 0.6 * sims[i] + 0.4 * float(FACTS[i]["confidence"]))
    # Weights come from Settings.
    only_conf = rank_facts(FACTS, context, settings=Settings(injection_similarity_weight=0.0))
    assert [f.confidence for f in only_conf] == sorted(
        (float(f["confidence"]) for f in FACTS), reverse=True
    )


def test_question_lifts_the_fact_it_is_about() -> None:
    # The keyword leg's analyzer: "how", "do", "I", "for" match nothing and "tests" meets
    # "testing", so the fact the question is about beats a more confident unrelated one.
    facts = [
        {"content": "Uses Docker", "confidence": 0.9},
        {"content": "Prefers pytest for testing", "confidence": 0.65},
    ]
    turn = [{"role": "user", "content": "How do I write tests?"}]
    ranked = rank_facts(facts, turn)
    assert [f.text for f in ranked] == ["Prefers pytest for testing", "Uses Docker"]
    assert ranked[0].similarity > 0.25 and ranked[1].similarity == 0.0
    assert tfidf_similarities(["How do I do it?"], "how do I") == [0.0]  # stop words only


def test_tfidf_cjk_and_identity() -> None:
    sims = tfidf_similarities(["我们用 Redis 做会话缓存", "周末去爬山"], "会话缓存用的什么")
    assert sims[0] > sims[1] == 0.0
    assert math.isclose(tfidf_similarities(["same words here"], "same words here")[0], 1.0)
    assert tfidf_similarities(["anything"], "") == [0.0]


def test_without_context_confidence_order_and_recency_fallback() -> None:
    text = format_memory_for_injection(FACTS)
    assert text.split("\n")[0] == "- Runs Docker for containerization"  # highest confidence
    # No confidence: recency stands in, newest first (by created_at when all have one).
    dated = [
        {"content": "old fact", "created_at": datetime(2025, 1, 1, tzinfo=UTC)},
        {"content": "new fact", "created_at": "2026-05-01T00:00:00Z"},
        {"content": "mid fact", "created_at": datetime(2025, 6, 1)},
    ]
    assert [f.text for f in rank_facts(dated)] == ["new fact", "mid fact", "old fact"]
    assert [f.text for f in rank_facts(["a", "b", "c"])] == ["c", "b", "a"]  # later = newer


def test_budget_is_exact_and_skips_to_what_fits() -> None:
    facts = [{"content": "长期记忆 " * 40, "confidence": 1.0}] + [
        {"content": f"short fact {i}", "confidence": 0.5} for i in range(30)
    ]
    for budget in (0, 5, 50, 200):
        out = format_memory_for_injection(facts, max_tokens=budget)
        assert count_tokens(out) <= budget
    out = format_memory_for_injection(facts, max_tokens=50)
    assert "长期记忆" not in out and out.startswith("- short fact 0")  # too big: skipped
    assert format_memory_for_injection({"facts": facts}, max_tokens=50) == out  # memory_data shape
    assert format_memory_for_injection([]) == ""


def test_context_from_messages_skips_tools() -> None:
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": "I'm working on a Python project"},
        {"role": "assistant", "content": "Nice."},
        {"role": "user", "content": "It uses FastAPI and SQLAlchemy"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "1", "function": {}}]},
        {"role": "tool", "tool_call_id": "1", "content": "Docker Docker Docker"},
        {"role": "assistant", "content": "Got it."},
        {"role": "user", "content": "How do I write tests?"},
    ]
    ctx = conversation_context(messages)
    assert ctx == (
        "I'm working on a Python project Nice. It uses FastAPI and SQLAlchemy Got it. "
        "How do I write tests?"
    )
    assert conversation_context(messages, max_turns=1) == "How do I write tests?"
    ranked = {f.text: f for f in rank_facts(FACTS, messages)}
    assert ranked["Runs Docker for containerization"].similarity == 0.0  # tool output ignored
    assert ranked["Expert in Python and FastAPI"].similarity > 0


def test_bad_input() -> None:
    with pytest.raises(InputError, match="max_tokens"):
        format_memory_for_injection(FACTS, max_tokens=-1)
    with pytest.raises(InputError, match=r"confidence 1\.5"):
        format_memory_for_injection([{"content": "x", "confidence": 1.5}])
    with pytest.raises(InputError, match="no text"):
        format_memory_for_injection([{"confidence": 0.5}])
    with pytest.raises(InputError, match="fact 0 is a int"):
        format_memory_for_injection([3])
    with pytest.raises(InputError, match="list of facts"):
        format_memory_for_injection("just a string")


# --- by meaning as well as words: recall's own embedder -------------------------------------
DOC_FACTS: list[dict[str, Any]] = [  # the product documents' example (injection notes)
    {"content": "Uses Docker for containerization", "confidence": 0.9},
    {"content": "Prefers pytest for testing", "confidence": 0.8},
    {"content": "Likes type hints in Python", "confidence": 0.8},
    {"content": "Expert in Python and FastAPI", "confidence": 0.8},
]


@pytest.mark.real_model
def test_the_documents_example_puts_pytest_and_type_hints_above_docker(
    real_embedder: recall.Embedder,
) -> None:
    turns = [
        {"role": "user", "content": "I'm working on a Python project"},
        {"role": "user", "content": "It uses FastAPI and SQLAlchemy"},
        {"role": "user", "content": "How do I write tests?"},
    ]
    ranked = [f.text for f in rank_facts(DOC_FACTS, turns, embedder=real_embedder)]
    docker = ranked.index("Uses Docker for containerization")
    assert ranked.index("Prefers pytest for testing") < docker
    assert ranked.index("Likes type hints in Python") < docker
    assert ranked[-1] == "Uses Docker for containerization"


@pytest.mark.real_model
def test_a_fact_sharing_no_word_with_the_question_is_found_by_meaning(
    real_embedder: recall.Embedder,
) -> None:
    facts = [
        {"content": "Runs Debian on every server", "confidence": 0.9},
        {"content": "Prefers asyncpg over psycopg", "confidence": 0.7},
        {"content": "Walks the dog at seven", "confidence": 0.9},
    ]
    question = "Which database driver should I use with asyncio?"
    words = rank_facts(facts, question)
    assert all(f.similarity == 0.0 for f in words)  # TF-IDF alone: no shared word
    meaning = rank_facts(facts, question, embedder=real_embedder)
    assert meaning[0].text == "Prefers asyncpg over psycopg"
    assert similarities(["x y z"], "x y z", real_embedder)[0] == pytest.approx(1.0)  # TF-IDF
    text = format_memory_for_injection(facts, current_context=question, embedder=real_embedder)
    assert text.split("\n")[0] == "- Prefers asyncpg over psycopg"
