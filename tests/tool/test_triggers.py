"""wants_deep_recall: a model learned from labelled turns, measured on a frozen split.

recall/triggers.tsv is what the model is fitted on (benchmarks/train_triggers.py);
tests/data/triggers_frozen.tsv was written from the same brief by a helper who saw neither
the code nor the fitted examples, and was never used to fit or choose anything. Run with
``-s`` to see the rates printed.
"""

from __future__ import annotations

import csv
import time
from pathlib import Path

import numpy as np
import pytest

from recall import triggers, wants_deep_recall

FROZEN = Path(__file__).parents[1] / "data" / "triggers_frozen.tsv"


def _frozen() -> list[tuple[bool, str, str]]:
    with FROZEN.open(encoding="utf-8", newline="") as fh:
        return [
            (row["label"] == "request", row["lang"], row["text"])
            for row in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
        ]


def test_the_examples_are_balanced_bilingual_and_unique() -> None:
    rows = triggers.bank()
    assert len(rows) >= 800
    for lang in ("zh", "en"):
        for label in ("request", "none"):
            assert sum(1 for lb, lg, _ in rows if (lb, lg) == (label, lang)) >= 150, (lang, label)
    texts = [t for _, _, t in rows]
    assert len(texts) == len(set(texts)), "duplicate phrasings"


def test_the_shipped_weights_were_fitted_on_these_examples() -> None:
    # Editing recall/triggers.tsv without running benchmarks/train_triggers.py fails here.
    with (Path(triggers.__file__).with_name("triggers.npz")).open("rb") as f, np.load(f) as d:
        assert str(d["key"]) == triggers.bank_key()


def test_the_frozen_split_meets_the_targets() -> None:
    rows = _frozen()
    assert len(rows) == 160
    for lang in ("en", "zh", None):
        mine = [r for r in rows if lang is None or r[1] == lang]
        requests = [t for label, _, t in mine if label]
        others = [t for label, _, t in mine if not label]
        missed = [t for t in requests if not wants_deep_recall(t)]
        taken = [t for t in others if wants_deep_recall(t)]
        found, fp = 1 - len(missed) / len(requests), len(taken) / len(others)
        print(f"\n{lang or 'all'}: requests found {found:.1%}, non-requests taken {fp:.1%}")
        # The targets: at least 28 of 30 requests, at most 1 of 30 others.
        assert found >= 28 / 30, missed
        assert fp <= 1 / 30, taken


@pytest.mark.parametrize(
    "text",
    [
        "回想一下我们上周聊的旅行计划",
        "翻翻记录，看看我之前说过的预算是多少",
        "你记得我上次推荐的那本书吗？",
        "Remember when we talked about moving to Berlin?",
        "Think harder about what I told you yesterday",
        "Look back through our history and find the budget we agreed on",
        "Recall our discussion about the database migration",
        "Don't you remember my birthday?",
    ],
)
def test_requests_fire(text: str) -> None:
    assert wants_deep_recall(text)


@pytest.mark.parametrize(
    "text",
    [
        "Do you remember how to write a for loop in Rust?",
        "你还记得怎么写快排吗",
        "I remember when I was a kid we used to go fishing",
        "记得带伞",
        "“还记得吗”用英语怎么说",  # quoted words are mentioned, not said
        "No, don't try to remember, just answer",  # the request negated
        "不用回忆了",
        "Did you remember to save the file?",
    ],
)
def test_general_and_negated_uses_do_not_fire(text: str) -> None:
    assert not wants_deep_recall(text)


def test_not_text_is_not_a_request() -> None:
    assert not wants_deep_recall(None)  # type: ignore[arg-type]
    assert not wants_deep_recall("")
    assert not wants_deep_recall("   ")


def test_classifying_is_fast() -> None:
    texts = [text for _, _, text in _frozen()]
    start = time.perf_counter()
    for text in texts:
        wants_deep_recall(text)
    elapsed = time.perf_counter() - start
    print(f"\n{len(texts)} classifications in {elapsed * 1000:.1f} ms")
    # A sanity bound far above the milliseconds it takes, so a busy machine cannot flake.
    assert elapsed < 5.0
