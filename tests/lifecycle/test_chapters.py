"""Chapter routing on a labelled set of zh and en sentences, as summaries hold them.

recall/lifecycle/chapters.tsv (chapter, lang, split, sentence, note): the ``dev`` rows are
the development set the rules were written and tuned against (and the examples the router
consults), so their accuracy is optimistic. ``heldout`` (50 rows) was written after the
rules were tuned: rules alone scored 68.0% on it. It then chose between five ways of
adding the examples (nearest-example votes where the rules say Dynamic, 60% share: the
best), so its figure for the router is optimistic too. ``heldout2`` (42 rows) was written
after that choice and never tuned on: rules 66.7%, rules + examples 92.9% when written.
Labels follow the memory design's chapters (recall/lifecycle/routing.py says which is
which). Run with ``-s`` to see the accuracies.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

import recall
from recall.lifecycle.examples import ExampleRouter, labelled_rows
from recall.lifecycle.reconstruct import route
from recall.lifecycle.routing import CHAPTER_NAMES

ROWS = labelled_rows()


def _accuracy(
    rows: list[dict[str, str]], router: Callable[[str], str] = route
) -> tuple[float, list[str]]:
    wrong = [
        f"{r['chapter']} -> {got}: {r['sentence']} ({r['note']})"
        for r in rows
        if (got := router(r["sentence"])) != r["chapter"]
    ]
    return 1 - len(wrong) / len(rows), wrong


def test_the_set_is_bilingual_labelled_and_large_enough() -> None:
    dev = [r for r in ROWS if r["split"] == "dev"]
    assert len(dev) >= 100
    for lang in ("zh", "en"):
        counts = Counter(r["chapter"] for r in dev if r["lang"] == lang)
        assert set(counts) == set(CHAPTER_NAMES), lang
        assert min(counts.values()) >= 20, (lang, counts)
    assert {r["split"] for r in ROWS} == {"dev", "heldout", "heldout2"}
    assert all(r["note"].strip() for r in ROWS)
    sentences = [r["sentence"] for r in ROWS]
    assert len(sentences) == len(set(sentences)), "duplicate sentences"


def _report(
    name: str, rows: list[dict[str, str]], router: Callable[[str], str] = route
) -> tuple[float, list[str]]:
    acc, wrong = _accuracy(rows, router)
    by_lang = ", ".join(
        f"{lang} {_accuracy([r for r in rows if r['lang'] == lang], router)[0]:.1%}"
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


@pytest.mark.real_model
@pytest.mark.slow
def test_the_router_with_examples_on_the_held_out_batches(embedder: recall.Embedder) -> None:
    router = ExampleRouter(lambda: embedder)
    first = [r for r in ROWS if r["split"] == "heldout"]
    second = [r for r in ROWS if r["split"] == "heldout2"]
    acc1, _ = _report("held-out batch, rules + examples (chose the method)", first, router.route)
    _report("second held-out batch, rules alone", second)
    acc2, wrong = _report("second held-out batch, rules + examples", second, router.route)
    assert acc1 >= 0.85 and acc2 >= 0.9, wrong  # 86.0% and 92.9% when written
    dev = [r for r in ROWS if r["split"] == "dev"]
    assert _accuracy(dev, router.route)[0] >= 0.95  # the examples never undo the rules
    # Tool output and passing moods stay in Dynamic whatever their neighbours say.
    assert router.route("Tool result (search): My name is Ilse and I live in Graz.") == "Dynamic"
    assert router.route("User: I'm so frustrated about the flaky test.") == "Dynamic"


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
