"""The labelled examples behind recall.index.attributes: well formed, and blind to the
evaluation data (no value, decoy or user name of any timeline set appears in them)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import numpy as np

from recall.index.attributes import NONE, AttributeSpace, Example, examples
from recall.index.own import adapt_embedder
from recall.testing import HashEmbedder

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
