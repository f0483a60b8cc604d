"""The relevance floor: raw leg scores decide, deep_recall may return nothing, the tool says so."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

import recall
from recall.index.floor import above_floor, apply_floor, coverage, similarity_floor
from recall.text.analyzer import Analyzer


def _hit(keyword: float, vector: float | None, i: int = 0) -> recall.Hit:
    return recall.Hit(
        id=f"h{i}",
        text="t",
        kind="note",
        created_at=datetime(2024, 1, 1, tzinfo=UTC),
        score=1.0,  # a fused score says nothing about relevance: the floor ignores it
        keyword_score=keyword,
        keyword_norm=1.0,
        keyword_rank=1,
        vector_score=vector,
        vector_norm=1.0,
        vector_rank=1 if vector is not None else None,
    )


@pytest.mark.parametrize(
    ("keyword", "cov", "vector", "kept"),
    [
        (0.0, 0.0, 0.011, False),  # the dog memory for "quantum chromodynamics"
        (0.0, 0.0, 0.35, True),  # similar enough
        (2.5, 1.0, 0.0, True),  # holds every query term
        (0.5, 0.34, 0.0, False),  # shares one word of three
        (0.0, 0.0, None, False),  # degraded and no word shared
        (3.0, 0.5, None, True),  # degraded, keywords enough
    ],
)
def test_a_hit_stays_when_one_leg_is_strong_enough(
    keyword: float, cov: float, vector: float | None, kept: bool
) -> None:
    assert above_floor(_hit(keyword, vector), cov, 0.3, 0.5) is kept


def test_coverage_is_the_share_of_query_terms_held() -> None:
    analyzer = Analyzer(stem=True, stopwords=True)
    terms = frozenset(analyzer.tokens("Which caches did we pick?"))
    assert coverage(terms, analyzer.tokens("We picked Redis for the session cache.")) == 1.0
    assert coverage(terms, analyzer.tokens("The cache is warm.")) == 0.5
    assert coverage(frozenset(), ["cache"]) == 0.0


def test_no_floor_keeps_everything_in_order() -> None:
    analyzer = Analyzer(stem=True, stopwords=True)
    hits = [_hit(0.0, -0.5, 0), _hit(0.0, None, 1), _hit(4.0, 0.9, 2)]
    assert apply_floor(hits, "q", analyzer, -1.0, 0.5) == hits
    assert [h.id for h in apply_floor(hits, "q", analyzer, 0.3, 0.5)] == ["h2"]


@pytest.mark.real_model
def test_deep_recall_returns_nothing_for_what_memory_does_not_hold(
    settings: recall.Settings, embedder: recall.Embedder
) -> None:
    with recall.open(settings=settings) as mem:  # the default floor
        mem.add("Our dog Biscuit loves the beach at Ostia.", user_id="u1")
        mem.add("We chose Redis for the session cache.", user_id="u1")
        assert mem.deep_recall("quantum chromodynamics on a lattice", user_id="u1") == []
        hits = mem.deep_recall("Which cache did we choose?", user_id="u1")
        assert hits and "Redis" in hits[0].text
        assert [h.text for h in mem.deep_recall("cache", user_id="u1")] == [
            "We chose Redis for the session cache."
        ]  # one word: its similarity to a sentence is low, its keyword holds it
        call = {
            "id": "c1",
            "type": "function",
            "function": {"name": "deep_recall", "arguments": '{"query": "launch codes"}'},
        }
        content = json.loads(mem.handle_tool_call(call, user_id="u1")["content"])
        assert content["hits"] == [] and "nothing relevant" in content["note"]


@pytest.mark.real_model
def test_chinese_queries_have_their_own_threshold(
    settings: recall.Settings, embedder: recall.Embedder
) -> None:
    # USE-multilingual scores Chinese with lower cosines than MiniLM scores English: the
    # English threshold dropped relevant Chinese memories (MemDaily R@5 57 -> 36).
    assert similarity_floor("缓存用的是什么", 0.3, 0.125) == 0.125
    assert similarity_floor("which cache?", 0.3, 0.125) == 0.3
    with recall.open(settings=settings) as mem:
        mem.add("上周三我和妈妈去超市买了一台新的咖啡机。", user_id="u1")
        mem.add("Our dog Biscuit loves the beach at Ostia.", user_id="u1")
        # No word shared, cosine 0.18: kept by the Chinese threshold, dropped by 0.3.
        hits = mem.deep_recall("我们家最近添置了什么电器？", user_id="u1")
        assert [h.text for h in hits] == ["上周三我和妈妈去超市买了一台新的咖啡机。"]
        assert hits[0].keyword_score == 0.0
        assert mem.deep_recall("钨的沸点是多少？", user_id="u1") == []


def test_nothing_unless_one_hit_passes_then_a_lower_tail() -> None:
    analyzer = Analyzer(stem=True, stopwords=True)
    strong, weak, junk = _hit(0.0, 0.5, 0), _hit(0.0, 0.2, 1), _hit(0.0, 0.05, 2)
    kept = apply_floor([strong, weak, junk], "q", analyzer, 0.25, 0.5, tail_similarity=0.15)
    assert [h.id for h in kept] == ["h0", "h1"]  # the weaker relevant hit stays
    assert apply_floor([weak, junk], "q", analyzer, 0.25, 0.5, tail_similarity=0.15) == []
    # The tail never rises above the gate: a CJK gate of 0.125 keeps hits down to 0.125.
    low = _hit(0.0, 0.13, 3)
    assert apply_floor([low], "q", analyzer, 0.125, 0.5, tail_similarity=0.15) == [low]
