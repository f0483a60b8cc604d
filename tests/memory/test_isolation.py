"""Property: no deep_recall for one user ever returns another user's memory."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import recall

WORDS = ["cache", "redis", "dog", "北京", "旅行", "deploy", "march", "password", "beagle", "故宫"]
users = st.sampled_from(["alice", "bob", "carol", "dave"])
texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(" ".join)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    records=st.lists(st.tuples(users, texts), min_size=1, max_size=25),
    queries=st.lists(st.tuples(users, texts), min_size=1, max_size=5),
    cold=st.booleans(),
)
@pytest.mark.slow
def test_no_cross_user_hits(
    tmp_path_factory: object,
    embedder: recall.Embedder,
    records: list[tuple[str, str]],
    queries: list[tuple[str, str]],
    cold: bool,
) -> None:
    folder = Path(tmp_path_factory.mktemp("iso"))  # type: ignore[attr-defined]
    # 2 partitions: users share bucket collections, so the user filter is what isolates.
    s = recall.Settings(path=folder, vector_partitions=2, vector_cache_mb=0 if cold else 64)
    with recall.open(settings=s) as mem:
        owner = {}
        for user, text in records:
            owner[mem.add(text, user_id=user)] = user
        for user, q in queries:
            for hit in mem.deep_recall(q, user_id=user, top_k=50):
                assert owner[hit.id] == user
