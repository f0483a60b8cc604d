"""Cross-language scoring (recall.index.crosslang): the routes on fake models, then the real
default spec end to end through deep_recall, with the cached matrix and with Chroma queries."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

import recall
from recall.index.crosslang import (
    cjk_mask,
    impute_keyword,
    other_language,
    routes,
    score_matrix,
    score_rows,
)
from recall.index.embed import CompositeEmbedder
from recall.models import Record


class _Fake:
    """A model that embeds every text as one fixed unit vector (which model scored shows)."""

    def __init__(self, ident: str, vector: Sequence[float]) -> None:
        self.id, self.dimension = ident, len(vector)
        self._v = np.asarray(vector, dtype=np.float32)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return np.tile(self._v, (len(texts), 1))

    def embed_query(self, text: str) -> np.ndarray:  # noqa: ARG002 (the protocol's name)
        return self._v.copy()


def _composite() -> CompositeEmbedder:
    # The default spec's routing: documents both, English queries part 0, CJK part 1.
    parts = [_Fake("a", [1.0, 0.0]), _Fake("b", [0.0, 1.0])]
    return CompositeEmbedder(parts, [0.5, 0.5], [1.0, 0.0], [0.0, 1.0])


def _records(*texts: str) -> list[Record]:
    when = datetime(2026, 1, 1, tzinfo=UTC)
    return [
        Record.model_construct(
            id=f"r{i}", user_id="u1", kind="note", text=t, created_at=when, tokens=0
        )
        for i, t in enumerate(texts)
    ]


# Rows: English-ish (part 0 strong), then CJK records; columns [a0, a1, b0, b1].
MATRIX = np.asarray(
    [[0.6, 0.0, 0.2, 0.0], [0.1, 0.0, 0.5, 0.0], [0.1, 0.0, 0.6, 0.0]], dtype=np.float32
)
RECORDS = _records("I like tea", "我喜欢茶", "我有一只猫")


def test_cjk_mask() -> None:
    assert cjk_mask(RECORDS).tolist() == [False, True, True]
    assert cjk_mask([]).shape == (0,)


def test_english_query_scores_cjk_records_by_the_multilingual_part() -> None:
    emb = _composite()
    rs = routes(emb, "tea", cjk_mask(RECORDS), 0.5, 3.0)
    s = score_matrix(MATRIX, rs)
    q_en, q_zh = emb.embed_query("tea"), emb.embed_query_as("tea", cjk=True)
    assert s[0] == pytest.approx(float(MATRIX[0] @ q_en))  # unchanged: MiniLM's part
    assert s[1:] == pytest.approx(0.5 * (MATRIX[1:] @ q_zh))  # USE's part, scaled
    assert q_en[2:].tolist() == [0, 0] and q_zh[:2].tolist() == [0, 0]


def test_cjk_query_scales_records_without_cjk() -> None:
    emb = _composite()
    rs = routes(emb, "茶", cjk_mask(RECORDS), 0.5, 3.0)
    q = emb.embed_query("茶")
    assert score_matrix(MATRIX, rs) == pytest.approx([3.0 * MATRIX[0] @ q, *(MATRIX[1:] @ q)])


@pytest.mark.parametrize(("query", "rows"), [("tea", [0]), ("茶", [1, 2]), ("tea", []), ("茶", [])])
def test_one_language_memories_score_as_before(query: str, rows: list[int]) -> None:
    # English queries over English records, Chinese over Chinese: exactly today's scores.
    records, matrix = [RECORDS[i] for i in rows], MATRIX[rows]
    emb = _composite()
    rs = routes(emb, query, cjk_mask(records), 0.5, 3.0)
    assert len(rs) == 1 and rs[0].factor == 1.0
    assert np.array_equal(score_matrix(matrix, rs), (matrix @ emb.embed_query(query)))


def test_other_embedders_keep_one_route() -> None:
    single = _Fake("a", [0.6, 0.8])
    same = CompositeEmbedder([_Fake("a", [1.0, 0.0]), _Fake("b", [0.0, 1.0])], [0.5, 0.5])
    for emb in (single, same):
        rs = routes(emb, "tea", cjk_mask(RECORDS), 0.5, 3.0)
        assert len(rs) == 1 and rs[0].factor == 1.0 and rs[0].mask.all()


@pytest.mark.parametrize("query", ["tea", "茶"])
def test_rows_score_as_the_matrix(query: str) -> None:
    emb = _composite()
    rs = routes(emb, query, cjk_mask(RECORDS), 0.7, 1.3)
    rows = score_rows({i: MATRIX[i] for i in (2, 0)}, rs)
    full = score_matrix(MATRIX, rs)
    assert rows == {2: pytest.approx(full[2]), 0: pytest.approx(full[0])}


def test_other_language() -> None:
    emb, cjk = _composite(), cjk_mask(RECORDS)
    en, zh = other_language(emb, "tea", cjk), other_language(emb, "茶", cjk)
    assert en is not None and zh is not None
    assert en.tolist() == [False, True, True]
    assert zh.tolist() == [True, False, False]
    assert other_language(emb, "茶", cjk[1:]) is None  # nothing in the other language
    assert other_language(_Fake("a", [1.0]), "tea", cjk) is None  # one model: no routes


def test_impute_keyword_lifts_only_the_other_language() -> None:
    fused = np.asarray([0.9, 0.5, 0.3, 0.6])
    vector = np.asarray([0.8, 1.0, 0.1, 0.4])
    other = np.asarray([False, True, True, True])
    out = impute_keyword(fused, vector, other, 0.5, 1.0)
    # Same-language rows as they were; others: their keyword score is at least the vector's.
    assert out.tolist() == [0.9, 1.0, 0.3, 0.6]
    assert fused.tolist() == [0.9, 0.5, 0.3, 0.6]  # not modified in place


# --- the real models through deep_recall ---------------------------------------------------
FACTS = [
    "我对花生严重过敏，吃一点点都会起疹子。",
    "我家的猫叫年糕，是一只橘猫，特别能吃。",
    "我每天早上六点起床去小区旁边的公园跑步五公里。",
    "I work as a nurse in the emergency department at St. Mary's hospital.",
    "We're going to Iceland in February to see the northern lights.",
    "I've been learning to play the piano since last year.",
]
DISTRACTORS = [
    "今天公司开会开了一下午，好累。",
    "楼下新开了一家面馆，牛肉面还不错。",
    "双十一买了一台扫地机器人，还没拆箱。",
    "The train was delayed again this morning.",
    "I'm thinking about repainting the kitchen a lighter color.",
    "We had pizza for dinner, nobody wanted to cook.",
]
QUESTIONS = [
    ("What food allergy do I have?", 0),
    ("What is my cat called?", 1),
    ("How far do I run in the morning?", 2),
    ("我在哪里工作？", 3),
    ("我们二月份要去哪里旅行？", 4),
    ("我在学什么乐器？", 5),
]


@pytest.mark.real_model
@pytest.mark.slow
@pytest.mark.parametrize("cache_mb", [1024, 0])
def test_questions_find_facts_said_in_the_other_language(
    tmp_path: Path, embedder: recall.Embedder, cache_mb: int
) -> None:
    settings = recall.Settings(
        path=tmp_path / "m", vector_partitions=4, retrieval={"vector_cache_mb": cache_mb}
    )
    with recall.open(settings=settings) as mem:
        ids = [mem.add(t, user_id="u") for t in FACTS + DISTRACTORS]
        for question, fact in QUESTIONS:
            hits = mem.deep_recall(question, user_id="u", top_k=3)
            assert ids[fact] in [h.id for h in hits], (question, [h.text for h in hits])
