"""The labelled examples behind recall.user.attributes: well formed, and blind to the
evaluation data (no value, decoy or user name of any timeline set appears in them)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import recall
from recall.index.own import adapt_embedder
from recall.testing import HashEmbedder
from recall.user.attributes import NONE, AttributeSpace, Example, examples, shipped_vectors

ROOT = Path(__file__).resolve().parents[2]
SETS = [
    ROOT / "benchmarks" / "data" / "timeline_own" / "tune" / "users.json",
    ROOT / "benchmarks" / "data" / "timeline_own" / "frozen" / "users.json",
    ROOT.parent / "shared" / "datasets" / "timeline_dev" / "users.json",
]


def test_every_attribute_has_statements_in_both_languages() -> None:
    bank = examples()
    assert {e.kind for e in bank} <= {"statement", "question"}
    assert {e.lang for e in bank} == {"en", "zh"}
    counts = Counter((e.attribute, e.lang) for e in bank if e.kind == "statement")
    attributes = {e.attribute for e in bank}
    assert NONE in attributes and len(attributes) >= 25
    for a in attributes:
        assert counts[a, "en"] >= 5 and counts[a, "zh"] >= 5, a


def _said(values: set[str], text: str) -> str | None:
    low = text.lower()
    for v in values:
        w = v.lower()
        if w[:1].isascii() and w[:1].isalnum():
            if re.search(r"(?<![0-9a-z])" + re.escape(w) + r"(?![0-9a-z])", low):
                return v
        elif w in low:
            return v
    return None


def test_no_example_names_a_value_of_an_evaluation_set() -> None:
    values: set[str] = set()
    for path in (p for p in SETS if p.exists()):
        for user in json.loads(path.read_text(encoding="utf-8"))["users"]:
            values.add(user["name"].split()[0])
            for fact in user["facts"]:
                values.update(v for stage in fact["stages"] for v in stage["values"])
                values.update(fact.get("decoys", []))
    values = {v for v in values if len(v) > 1}
    assert values  # our own splits are always here
    found = [(e.text, v) for e in examples() if (v := _said(values, e.text))]
    assert not found, found[:5]


def test_a_text_takes_the_label_of_its_nearest_examples() -> None:
    bank = (
        *(Example("pet", "en", "statement", t) for t in ("my dog barks", "the dog ate it")),
        *(Example("none", "en", "statement", t) for t in ("write a poem", "fix this code")),
    )
    space = AttributeSpace(adapt_embedder(HashEmbedder()), bank=bank)
    labels, margins = space.label(space.embed(["the dog barks at night", "a poem please"]))
    assert labels == ["pet", None]
    assert np.all(margins >= 0)
    # Sentence vectors are remembered: a second call embeds nothing new.
    assert np.allclose(
        space.embed(["the dog barks at night"]), space.embed(["the dog barks at night"])
    )


class _Named:
    def __init__(self, model_id: str) -> None:
        self.id = model_id


def test_the_shipped_vectors_match_the_examples() -> None:
    # Edit attributes.tsv, then run benchmarks/refresh_attributes.py to refresh them.
    from recall.index.use_onnx import USEEmbedder

    vectors = shipped_vectors(_Named(USEEmbedder.id), examples())  # type: ignore[arg-type]
    assert vectors is not None and vectors.shape[0] == len(examples())
    assert shipped_vectors(_Named("another-model"), examples()) is None  # type: ignore[arg-type]


@pytest.mark.real_model
def test_the_shipped_vectors_are_the_models(real_embedder: recall.Embedder) -> None:
    space = AttributeSpace(real_embedder)
    texts = [e.text for e in examples()[::97]]
    fresh = space.model.embed_documents(texts)
    shipped = space._vectors[::97]
    # The same model (batches pad differently, and float16 rounds): each pair nearly parallel.
    cosines = np.sum(fresh / np.linalg.norm(fresh, axis=1, keepdims=True) * shipped, axis=1)
    assert cosines.min() > 0.99
