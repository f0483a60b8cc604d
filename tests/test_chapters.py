"""Chapter routing on a labelled set of zh and en sentences, as summaries hold them.

tests/data/chapters.tsv (chapter, lang, split, sentence, note): the ``dev`` rows are the
development set the rules were written and tuned against, so their accuracy is optimistic;
the ``heldout`` rows were written after the tuning and never tuned on. The last 42 dev rows
were a first held-out batch: they scored 69.0% before the rules were tuned on them; the
held-out batch written after that scored 68.0%. Expect about two thirds on new wording,
the misses falling back to Dynamic. Labels follow the memory design's chapters
(recall/lifecycle/routing.py says which is which). Run with ``-s`` to see the accuracies.
"""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from recall.lifecycle.reconstruct import route
from recall.lifecycle.routing import CHAPTER_NAMES

DATA = Path(__file__).parent / "data" / "chapters.tsv"


def _rows() -> list[dict[str, str]]:
    with DATA.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))


ROWS = _rows()


def _accuracy(rows: list[dict[str, str]]) -> tuple[float, list[str]]:
    wrong = [
        f"{r['chapter']} -> {got}: {r['sentence']} ({r['note']})"
        for r in rows
        if (got := route(r["sentence"])) != r["chapter"]
    ]
    return 1 - len(wrong) / len(rows), wrong


def test_the_set_is_bilingual_labelled_and_large_enough() -> None:
    dev = [r for r in ROWS if r["split"] == "dev"]
    assert len(dev) >= 100
    for lang in ("zh", "en"):
        counts = Counter(r["chapter"] for r in dev if r["lang"] == lang)
        assert set(counts) == set(CHAPTER_NAMES), lang
        assert min(counts.values()) >= 20, (lang, counts)
    assert {r["split"] for r in ROWS} == {"dev", "heldout"}
    assert all(r["note"].strip() for r in ROWS)
    sentences = [r["sentence"] for r in ROWS]
    assert len(sentences) == len(set(sentences)), "duplicate sentences"


def _report(name: str, rows: list[dict[str, str]]) -> tuple[float, list[str]]:
    acc, wrong = _accuracy(rows)
    by_lang = ", ".join(
        f"{lang} {_accuracy([r for r in rows if r['lang'] == lang])[0]:.1%}"
        for lang in ("en", "zh")
    )
    print(f"\nchapter routing, {name}: {len(rows)} sentences, {acc:.1%} correct ({by_lang})")
    for line in wrong:
        print("  " + line)
    return acc, wrong


def test_accuracy_on_the_development_set() -> None:
    acc, wrong = _report("development set", [r for r in ROWS if r["split"] == "dev"])
    assert acc >= 0.95, wrong


def test_accuracy_on_the_held_out_batch() -> None:
    # Written after the rules were tuned and not tuned on: the honest estimate (68.0% when
    # written). The bound only guards against a change that makes new wording worse.
    heldout = [r for r in ROWS if r["split"] == "heldout"]
    acc, wrong = _report("held-out batch", heldout)
    assert acc >= 0.65, wrong
    # A miss is a stable fact left in Dynamic (recent, budgeted), never a passing remark
    # promoted into Bedrock.
    assert all(route(r["sentence"]) != "Bedrock" for r in heldout if r["chapter"] == "Dynamic")


@pytest.mark.parametrize(
    "sentence, chapter",
    [
        # The cases: a name with a job is Bedrock, a joke about allergies is not.
        ("User: I'm Zhang Min, a data scientist.", "Bedrock"),
        ("User: Honestly, I'm allergic to long meetings.", "Evolutionary"),
        ("User: I'm allergic to shellfish.", "Bedrock"),
        ("User: I'm so frustrated about the flaky test.", "Dynamic"),
        # A tool's output is what happened now, whatever it says.
        ("Tool result (search): My name is Ilse and I live in Graz.", "Dynamic"),
        # The user's own "never" is a habit; a "never" for me is a boundary.
        ("User: I never drink coffee after 2 pm.", "Evolutionary"),
        ("User: Never send me emails on weekends.", "Bedrock"),
    ],
)
def test_route_cases(sentence: str, chapter: str) -> None:
    assert route(sentence) == chapter
