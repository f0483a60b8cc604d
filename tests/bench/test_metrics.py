"""Benchmark metrics on hand-computed cases, plus a few properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from recall.bench.baseline import weighted_rrf
from recall.bench.metrics import (
    mean,
    mrr_at_k,
    ndcg_at_k,
    percentile,
    recall_any_at_k,
    recall_at_k,
)

RANKED = ["a", "b", "c", "d", "e"]


def test_recall_is_share_of_relevant_found() -> None:
    rel = {"b": 1, "e": 1, "z": 1}
    assert recall_at_k(RANKED, rel, 1) == 0.0
    assert recall_at_k(RANKED, rel, 2) == pytest.approx(1 / 3)
    assert recall_at_k(RANKED, rel, 5) == pytest.approx(2 / 3)
    assert recall_at_k(RANKED, rel, 50) == pytest.approx(2 / 3)  # k past the list
    assert recall_at_k(RANKED, {"a", "c"}, 3) == 1.0  # a plain set of ids works too


def test_recall_with_covers_counts_evidence_ids() -> None:
    # LoCoMo observations: o1 covers two turns, o2 one; the evidence is three turns.
    covers = {"o1": {"D1:1", "D1:2"}, "o2": {"D2:5"}, "o3": {"D9:9"}}
    evidence = {"D1:2", "D2:5", "D3:1"}
    ranked = ["o3", "o1", "o2"]
    assert recall_at_k(ranked, {}, 1, covers=covers, evidence=evidence) == 0.0
    assert recall_at_k(ranked, {}, 2, covers=covers, evidence=evidence) == pytest.approx(1 / 3)
    assert recall_at_k(ranked, {}, 3, covers=covers, evidence=evidence) == pytest.approx(2 / 3)


def test_recall_any_and_mrr() -> None:
    rel = {"c": 1, "e": 2}
    assert recall_any_at_k(RANKED, rel, 2) == 0.0
    assert recall_any_at_k(RANKED, rel, 3) == 1.0
    assert mrr_at_k(RANKED, rel, 2) == 0.0
    assert mrr_at_k(RANKED, rel, 10) == pytest.approx(1 / 3)
    assert mrr_at_k(["e", "c"], rel, 10) == 1.0


def test_ndcg_hand_computed() -> None:
    # Graded: c (2) at rank 3, e (1) at rank 5. Linear gains as in trec_eval / BEIR.
    rel = {"c": 2, "e": 1}
    dcg = 2 / math.log2(4) + 1 / math.log2(6)
    idcg = 2 / math.log2(2) + 1 / math.log2(3)
    assert ndcg_at_k(RANKED, rel, 10) == pytest.approx(dcg / idcg)
    assert ndcg_at_k(RANKED, rel, 3) == pytest.approx((2 / math.log2(4)) / idcg)
    assert ndcg_at_k(["c", "e"], rel, 10) == pytest.approx(1.0)
    # the ideal ranking is cut at k too: one relevant at rank 1 of k=1 is perfect
    assert ndcg_at_k(["c"], rel, 1) == pytest.approx(1.0)


def test_nothing_relevant_scores_zero_everywhere() -> None:
    for metric in (recall_at_k, recall_any_at_k, mrr_at_k, ndcg_at_k):
        assert metric(RANKED, {}, 5) == 0.0


def test_k_must_be_positive() -> None:
    with pytest.raises(ValueError, match="k must be at least 1"):
        recall_at_k(RANKED, {"a": 1}, 0)


def test_mean_and_percentile() -> None:
    assert mean([]) == 0.0
    assert mean([1.0, 2.0, 6.0]) == 3.0
    xs = [5.0, 1.0, 3.0, 2.0, 4.0]
    assert percentile(xs, 50) == 3.0
    assert percentile(xs, 95) == pytest.approx(4.8)  # numpy's linear interpolation
    assert percentile([], 50) == 0.0


def test_weighted_rrf_matches_langchain_formula() -> None:
    # bm25: a b c ; vector: c a d. Scores: a=.5/61+.5/62, c=.5/63+.5/61, b=.5/62, d=.5/63
    fused = weighted_rrf([["a", "b", "c"], ["c", "a", "d"]], [0.5, 0.5])
    assert fused == ["a", "c", "b", "d"]
    # ties keep first-seen order (the BM25 list comes first)
    assert weighted_rrf([["x"], ["y"]], [0.5, 0.5]) == ["x", "y"]


ids = st.lists(st.sampled_from("abcdefghij"), unique=True, max_size=10)


@given(ids, ids, st.integers(min_value=1, max_value=12))
def test_metrics_are_fractions_and_monotone_in_k(
    ranked: list[str], rel_ids: list[str], k: int
) -> None:
    rel = dict.fromkeys(rel_ids, 1)
    for metric in (recall_at_k, recall_any_at_k, mrr_at_k, ndcg_at_k):
        assert 0.0 <= metric(ranked, rel, k) <= 1.0 + 1e-12
    assert recall_at_k(ranked, rel, k) <= recall_at_k(ranked, rel, k + 1)
    assert recall_any_at_k(ranked, rel, k) <= recall_any_at_k(ranked, rel, k + 1)


@given(ids)
def test_perfect_ranking_is_perfect(rel_ids: list[str]) -> None:
    rel = dict.fromkeys(rel_ids, 1)
    if rel:
        k = len(rel)
        assert recall_at_k(rel_ids, rel, k) == 1.0
        assert ndcg_at_k(rel_ids, rel, k) == pytest.approx(1.0)
        assert mrr_at_k(rel_ids, rel, k) == 1.0
