"""Thread neighbours: pure links/smoothing, and deep_recall end to end (warm and cold)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

import recall
from recall import Settings
from recall.index import neighbours
from recall.index.keyword import KeywordPartition
from recall.models import Record

T0 = datetime(2026, 5, 1, tzinfo=UTC)


def _rec(i: str, seconds: int, thread: str | None, kind: str = "turn") -> Record:
    meta = {} if thread is None else {"thread": thread}
    return Record.model_construct(
        id=i,
        user_id="u",
        kind=kind,
        text=i,
        created_at=T0 + timedelta(seconds=seconds),
        tokens=1,
        metadata=meta,
    )


def test_links_order_by_time_within_thread_and_kind() -> None:
    recs = [
        _rec("b", 2, "s1"),
        _rec("a", 1, "s1"),
        _rec("x", 0, None),
        _rec("c", 3, "s1"),
        _rec("d", 1, "s1", kind="summary"),
        _rec("e", 0, "s2"),
    ]
    got = neighbours.links(recs, "thread")
    assert got is not None
    prev, nxt = got
    name = {i: r.id for i, r in enumerate(recs)}
    assert {name[i]: (name.get(int(prev[i])), name.get(int(nxt[i]))) for i in range(6)} == {
        "a": (None, "b"),
        "b": ("a", "c"),
        "c": ("b", None),
        "x": (None, None),
        "d": (None, None),
        "e": (None, None),  # other kind, alone
    }
    assert neighbours.links([_rec("x", 0, None)], "thread") is None


def test_expand_and_smooth() -> None:
    prev = np.array([-1, 0, 1, -1])
    nxt = np.array([1, 2, -1, -1])
    cand = neighbours.expand(np.array([1]), prev, nxt)
    assert cand.tolist() == [0, 1, 2]
    scores = np.array([1.0, 0.0, -0.4, 3.0])
    out = neighbours.smooth(scores, cand, prev, nxt, 0.5)
    # 0: own 1 + 0.5*max(none, 0.0); 1: 0 + 0.5*max(1, -0.4); 2: -0.4 + 0.5*max(0, none)
    np.testing.assert_allclose(out, [1.0, 0.5, -0.4])
    np.testing.assert_allclose(neighbours.smooth(scores, cand, prev, nxt, 0.0), scores[cand])
    # Two hops: the record two before adds weight**2 of its score.
    two = neighbours.smooth(scores, cand, prev, nxt, 0.5, hops=2)
    np.testing.assert_allclose(two, [1.0, 0.5, -0.4 + 0.25 * 1.0])
    assert neighbours.expand(np.array([0]), prev, nxt, hops=2).tolist() == [0, 1, 2]


TURNS = [
    "Melanie: did you see the zebra migration documentary?",
    "Caroline: yes, twice, it was wonderful",
    "Melanie: my garden needs new tomato seedlings",
]


OTHER = "Road safety: a zebra crossing gives way to walkers."


def _fill(m: recall.Memory) -> list[str]:
    ids = m.add_many(
        [
            {"text": t, "metadata": {"thread": "s1"}, "created_at": T0 + timedelta(seconds=i)}
            for i, t in enumerate(TURNS)
        ],
        user_id="u1",
    )
    ids.append(m.add(OTHER, user_id="u1"))
    return ids


@pytest.mark.parametrize("cache_mb", [1024, 0], ids=["warm", "cold"])
def test_a_turn_is_found_through_its_neighbour(
    settings: Settings, embedder: recall.Embedder, cache_mb: int
) -> None:
    s = settings.replace(candidate_pool=1, vector_cache_mb=cache_mb)
    query = "zebra migration documentary"
    with recall.open(settings=s) as m:
        ids = _fill(m)
        hits = {h.id: h for h in m.deep_recall(query, user_id="u1", top_k=10)}
    own = KeywordPartition(ids, [*TURNS, OTHER], m.spec.bm25, m.spec.analyzer).scores(query)
    # The answer ("yes, twice") shares no word with the question: only its neighbour does.
    assert own[1] == 0 and ids[1] in hits
    assert hits[ids[1]].keyword_score == pytest.approx(0.5 * own[0], rel=1e-6)
    assert hits[ids[0]].keyword_score == pytest.approx(own[0], rel=1e-6)  # neighbour has 0


def test_weight_zero_turns_it_off(settings: Settings, embedder: recall.Embedder) -> None:
    s = settings.replace(candidate_pool=1, neighbour_weight=0.0)
    with recall.open(settings=s) as m:
        ids = _fill(m)
        hits = m.deep_recall("zebra migration documentary", user_id="u1", top_k=10)
    assert ids[1] not in {h.id for h in hits}


def test_warm_and_cold_agree_with_threads(settings: Settings, embedder: recall.Embedder) -> None:
    out = []
    for mb in (1024, 0):
        s = settings.replace(vector_cache_mb=mb, path=settings.storage.path / str(mb))
        with recall.open(settings=s) as m:
            _fill(m)
            hits = m.deep_recall("tomato garden documentary", user_id="u1", top_k=10)
            out.append([(h.id.split("-")[0], round(h.score, 4)) for h in hits])
    assert [score for _, score in out[0]] == [score for _, score in out[1]]
