"""The relevance floor: raw leg scores decide, deep_recall may return nothing, the tool says so."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

import recall
from recall.index.floor import (
    above_floor,
    apply_floor,
    coverage,
    shows_relevance,
    similarity_floor,
)
from recall.testing import HashEmbedder
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


@pytest.mark.real_model
def test_a_hit_in_the_other_language_is_judged_on_its_own_model_s_scale(
    settings: recall.Settings, embedder: recall.Embedder
) -> None:
    # An English question scores a Chinese memory by USE-multilingual, whose cosines run
    # lower (0.197 here): the English threshold (0.25) answered "nothing relevant" although
    # memory held the answer; judged at min_similarity_cjk it is found.
    with recall.open(settings=settings) as mem:
        mem.add("上周三我和妈妈去超市买了一台新的咖啡机。", user_id="u1")
        mem.add("Our dog Biscuit loves the beach at Ostia.", user_id="u1")
        hits = mem.deep_recall("What appliance did we buy recently?", user_id="u1")
        assert [h.text for h in hits] == ["上周三我和妈妈去超市买了一台新的咖啡机。"]
        assert hits[0].vector_score is not None and 0.125 <= hits[0].vector_score < 0.25
        assert mem.deep_recall("What is the boiling point of tungsten?", user_id="u1") == []


def test_nothing_unless_one_hit_passes_then_a_lower_tail() -> None:
    analyzer = Analyzer(stem=True, stopwords=True)
    strong, weak, junk = _hit(0.0, 0.5, 0), _hit(0.0, 0.2, 1), _hit(0.0, 0.05, 2)
    kept = apply_floor([strong, weak, junk], "q", analyzer, 0.25, 0.5, tail_similarity=0.15)
    assert [h.id for h in kept] == ["h0", "h1"]  # the weaker relevant hit stays
    assert apply_floor([weak, junk], "q", analyzer, 0.25, 0.5, tail_similarity=0.15) == []
    # The tail never rises above the gate: a CJK gate of 0.125 keeps hits down to 0.125.
    low = _hit(0.0, 0.13, 3)
    assert apply_floor([low], "q", analyzer, 0.125, 0.5, tail_similarity=0.15) == [low]


def test_keywords_or_a_current_statement_open_the_floor_only_with_some_similarity() -> None:
    # "What's my blood type?": one shared word ("type") of two, or the asked attribute's
    # newest statement (a check-up's blood pressure), with nothing of the question's
    # meaning, is no sign that memory answers it; once a hit shows it, both still keep hits.
    analyzer = Analyzer(stem=True, stopwords=True)
    words = _hit(2.0, 0.12, 0).model_copy(update={"text": "a simple number type scheme"})
    current = _hit(0.0, 0.05, 1).model_copy(update={"current": True})
    strong = _hit(0.0, 0.4, 2)

    def floor(hits: list[recall.Hit], support: float | None) -> list[str]:
        kept = apply_floor(
            hits,
            "blood type",
            analyzer,
            0.25,
            0.5,
            tail_similarity=0.15,
            support=None if support is None else (lambda _hit: support),
        )
        return [h.id for h in kept]

    assert floor([words, current], None) == ["h0", "h1"]  # any similarity: as before
    assert floor([words, current], 0.2) == []
    assert floor([words, current], 0.1) == ["h0", "h1"]  # the keyword hit reaches 0.1
    assert floor([current], 0.04) == ["h1"]
    assert floor([strong, words, current], 0.2) == ["h2", "h0", "h1"]
    assert shows_relevance(words, 0.5, 0.25, 0.5, support=0.1)
    assert not shows_relevance(words, 0.5, 0.25, 0.5, support=0.2)
    assert not shows_relevance(words, 0.4, 0.25, 0.5, support=0.0)  # too few words anyway
    # A degraded hit (no vector leg) is judged by its keywords alone.
    assert shows_relevance(_hit(3.0, None), 0.5, 0.25, 0.5, support=0.2)


def test_the_support_setting_reaches_deep_recall(tmp_path: Path) -> None:
    # Through the facade: a hit sharing one of the query's two words, at a similarity under
    # the floor (0.24 with this embedder), opens the floor with the rule off (-1) and not
    # when the support asked for is above its similarity.
    text = (
        "We talked about trains, gardens, pianos, mountains, rivers, bakeries, cinemas, "
        "harbours, lanterns and the folder."
    )
    kept = {}
    for support in (-1.0, 0.3):
        settings = recall.Settings(retrieval={"min_similarity_support": support})
        with recall.open(tmp_path / str(support), settings=settings, embedder=HashEmbedder()) as m:
            m.add(text, user_id="u1")
            seen = m.explain("folder colour", user_id="u1")
            assert all((h.vector_score or 0) < 0.25 for h in seen.hits + seen.floored)
            kept[support] = [h.text for h in seen.hits]
    assert kept == {-1.0: [text], 0.3: []}
