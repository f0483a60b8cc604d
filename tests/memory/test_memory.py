"""deep_recall end to end on the real embedded Chroma, SQLite and MiniLM."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import numpy as np
import pytest

import recall
from recall import IndexStaleError, Settings
from recall.index.keyword import KeywordPartition
from recall.index.spec import IndexSpec
from recall.models import Record

FACTS = [
    "We chose Redis for the session cache because it supports per-key TTLs.",
    "The user's dog is called Biscuit, a three-year-old beagle.",
    "用户计划下个月去北京旅行，想去故宫。",
    "The flaky test in tests/test_api.py needed a 10 second timeout.",
    "Deployment moved from Heroku to Fly.io in March.",
]


def test_add_and_recall_finds_the_right_record(mem: recall.Memory) -> None:
    ids = [mem.add(t, user_id="u1") for t in FACTS]
    hits = mem.deep_recall("which cache did we pick?", user_id="u1", top_k=3)
    assert hits[0].id == ids[0]
    top = hits[0]
    assert 0.0 <= top.score <= 1.0
    assert top.keyword_rank >= 1 and top.vector_rank is not None
    assert top.vector_score is not None and -1.0 <= top.vector_score <= 1.0
    assert mem.deep_recall("北京旅行", user_id="u1", top_k=1)[0].id == ids[2]
    assert mem.deep_recall("what is the name of my pet", user_id="u1", top_k=1)[0].id == ids[1]


@pytest.fixture
def unfloored(settings: Settings, embedder: recall.Embedder) -> Iterator[recall.Memory]:
    """A memory without the relevance floor: these tests are about ranking mechanics."""
    with recall.open(settings=settings.replace(min_similarity=-1.0)) as m:
        yield m


def test_hits_sorted_and_top_k(unfloored: recall.Memory) -> None:
    mem = unfloored
    for t in FACTS:
        mem.add(t, user_id="u1")
    hits = mem.deep_recall("test timeout", user_id="u1", top_k=2)
    assert len(hits) == 2
    assert hits[0].score >= hits[1].score


def test_alpha_extremes_follow_single_legs(mem: recall.Memory) -> None:
    for t in FACTS:
        mem.add(t, user_id="u1")
    kw = mem.deep_recall("cache", user_id="u1", top_k=5, alpha=1.0)
    assert kw[0].keyword_rank == 1
    vec = mem.deep_recall("cache", user_id="u1", top_k=5, alpha=0.0)
    assert [h.vector_rank for h in vec] == sorted(h.vector_rank or 0 for h in vec)


def test_kinds_filter(mem: recall.Memory) -> None:
    mem.add("The archived plan was to use SQLite.", user_id="u1", kind="archive")
    a = mem.add("The current plan is to use Postgres.", user_id="u1")
    assert [h.id for h in mem.deep_recall("plan", user_id="u1", depth="recent")] == [a]
    assert len(mem.deep_recall("plan", user_id="u1", depth="archive")) == 2
    assert {h.kind for h in mem.deep_recall("plan", user_id="u1", kinds=["archive"])} == {"archive"}


def test_delete_and_replace(unfloored: recall.Memory) -> None:
    mem = unfloored
    a = mem.add("Biscuit the beagle", user_id="u1", id="dog")
    assert mem.deep_recall("beagle", user_id="u1")[0].id == a
    mem.add("Our cat is named Miso", user_id="u1", id="dog")  # same id replaces
    assert mem.deep_recall("beagle", user_id="u1", top_k=5)[0].text == "Our cat is named Miso"
    assert mem.delete(["dog", "nope"], user_id="u1") == 1
    assert mem.deep_recall("beagle", user_id="u1") == []


def test_metadata_and_created_at_round_trip(mem: recall.Memory) -> None:
    when = datetime(2025, 5, 1, 12, 0, tzinfo=UTC)
    mem.add("meeting notes", user_id="u1", metadata={"session": 3}, created_at=when)
    hit = mem.deep_recall("meeting", user_id="u1")[0]
    assert hit.created_at == when and hit.metadata == {"session": 3}


def test_crash_between_store_and_index_loses_nothing(mem: recall.Memory) -> None:
    # Simulate a crash right after the store committed: write to the store only.
    now = datetime.now(UTC)
    mem._store.put(
        [
            Record(
                id="orphan",
                user_id="u1",
                kind="short_term",
                text="The wifi password is hunter2",
                created_at=now,
                tokens=6,
            )
        ]
    )
    assert mem._sync.lag("u1")
    hits = mem.deep_recall("wifi password", user_id="u1")
    assert hits and hits[0].id == "orphan" and hits[0].vector_score is not None
    assert not mem._sync.lag("u1")


def test_reopen_keeps_everything(settings: Settings, embedder: recall.Embedder) -> None:
    with recall.open(settings=settings) as m:
        a = m.add("The launch date is October 3rd.", user_id="u1")
    with recall.open(settings=settings) as m:
        assert m.deep_recall("launch date", user_id="u1")[0].id == a


def test_cache_off_gives_same_ranking(settings: Settings, embedder: recall.Embedder) -> None:
    with recall.open(settings=settings) as m:
        for t in FACTS:
            m.add(t, user_id="u1")
        warm = [(h.id, round(h.score, 4)) for h in m.deep_recall("cache timeout", user_id="u1")]
    cold_settings = settings.replace(vector_cache_mb=0)
    with recall.open(settings=cold_settings) as m:
        cold = [(h.id, round(h.score, 4)) for h in m.deep_recall("cache timeout", user_id="u1")]
    assert cold == warm


@pytest.mark.real_model
def test_other_spec_raises_index_stale(settings: Settings, embedder: recall.Embedder) -> None:
    with recall.open(settings=settings) as m:
        m.add("something", user_id="u1")
    other = IndexSpec(name="other", embedder="minilm", passage_tokens=123)
    with pytest.raises(IndexStaleError, match="recall reindex"):
        recall.Memory(settings, spec=other)


def test_stats(mem: recall.Memory) -> None:
    mem.add("a", user_id="u1")
    mem.add("b", user_id="u2", kind="dynamic")
    s = mem.stats()
    assert s["users"] == 2 and s["records"] == 2 and s["kinds"] == {"dynamic": 1, "note": 1}


def test_a_user_larger_than_one_chroma_page_loads_whole(
    mem: recall.Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One unpaged Chroma get of a 100,000-record user fails ("too many SQL variables");
    # reads come in pages. A page of 3 makes this user span several, ending on a short one.
    from recall.index import vector

    monkeypatch.setattr(vector, "_PAGE", 3)
    texts = [f"{fact} (note {i})" for i, fact in enumerate(FACTS * 2)]
    ids = mem.add_many([{"text": t} for t in texts], user_id="u1")
    mem.add("someone else's note about Redis", user_id="u2")
    index = mem._vectors
    loaded = index.load("u1")
    assert sorted(loaded.ids) == sorted(ids)
    assert loaded.matrix.shape == (len(ids), mem.spec.dimension)
    assert set(index.hashes("u1")) == set(ids)
    hits = mem.deep_recall("which cache did we pick?", user_id="u1", top_k=len(ids))
    assert {h.id for h in hits} <= set(ids) and hits[0].text.startswith("We chose Redis")
    assert mem.delete(ids[:4], user_id="u1") == 4
    index.delete("u1", ids[:4])  # idempotent, and spans two pages of 3
    assert sorted(index.load("u1").ids) == sorted(ids[4:])


@pytest.mark.real_model
def test_candidates_are_the_union_of_both_legs_with_exact_scores(
    settings: Settings, embedder: recall.Embedder
) -> None:
    # With a pool of 2, the hits must be exactly BM25's top 2 (with signal) plus the vector
    # top 2, each scored exactly by both legs, not only by the leg that proposed it.
    s = settings.replace(candidate_pool=2, min_similarity=-1.0)  # every candidate, no floor
    query = "cache test timeout for the beagle"
    with recall.open(settings=s) as m:
        ids = [m.add(t, user_id="u1") for t in FACTS]
        hits = m.deep_recall(query, user_id="u1", top_k=50)
        kw = KeywordPartition(ids, FACTS, m.spec.bm25, m.spec.analyzer).scores(query)
    vec = embedder.embed_documents(FACTS) @ embedder.embed_query(query)  # the spec's own
    kw_top = {ids[i] for i in np.argsort(-kw)[:2] if kw[i] > 0}
    vec_top = {ids[i] for i in np.argsort(-vec)[:2]}
    assert kw_top - vec_top and vec_top - kw_top  # the case is not trivial
    assert {h.id for h in hits} == kw_top | vec_top
    for h in hits:
        i = ids.index(h.id)
        assert h.keyword_score == pytest.approx(float(kw[i]), abs=1e-6)
        assert h.vector_score == pytest.approx(float(vec[i]), abs=1e-5)
