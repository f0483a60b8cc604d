"""wants_deep_recall on a labelled set of zh and en phrasings, hard negatives included.

tests/data/triggers.tsv (label, lang, text) is the development set: the rules were written
and tuned against it, so its rates are optimistic for phrasings it does not hold. Run with
``-s`` to see the rates printed.
"""

from __future__ import annotations

import csv
import time
from pathlib import Path

import pytest

from recall import wants_deep_recall

DATA = Path(__file__).parents[1] / "data" / "triggers.tsv"


def _rows() -> list[tuple[bool, str, str]]:
    with DATA.open(encoding="utf-8", newline="") as fh:
        return [
            (row["label"] == "1", row["lang"], row["text"])
            for row in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
        ]


ROWS = _rows()


def test_the_set_is_balanced_bilingual_and_large_enough() -> None:
    assert len(ROWS) >= 200
    positives = [r for r in ROWS if r[0]]
    assert abs(len(positives) - len(ROWS) / 2) <= len(ROWS) * 0.05
    for lang in ("zh", "en"):
        assert sum(1 for label, lg, _ in ROWS if lg == lang and label) >= 50, lang
        assert sum(1 for label, lg, _ in ROWS if lg == lang and not label) >= 50, lang
    texts = [text for _, _, text in ROWS]
    assert len(texts) == len(set(texts)), "duplicate phrasings"


def _rates(rows: list[tuple[bool, str, str]]) -> tuple[float, float, list[str]]:
    positives = [text for label, _, text in rows if label]
    negatives = [text for label, _, text in rows if not label]
    missed = [t for t in positives if not wants_deep_recall(t)]
    false = [t for t in negatives if wants_deep_recall(t)]
    recall = 1 - len(missed) / len(positives)
    fp_rate = len(false) / len(negatives)
    return recall, fp_rate, [f"missed: {t}" for t in missed] + [f"false: {t}" for t in false]


def test_recall_and_false_positive_rate_on_the_development_set() -> None:
    recall, fp_rate, errors = _rates(ROWS)
    n_pos = sum(1 for r in ROWS if r[0])
    print(
        f"\ntrigger development set: {len(ROWS)} phrasings ({n_pos} positive, "
        f"{len(ROWS) - n_pos} negative): recall {recall:.1%}, false positives {fp_rate:.1%}"
    )
    for lang in ("zh", "en"):
        r, f, _ = _rates([row for row in ROWS if row[1] == lang])
        print(f"  {lang}: recall {r:.1%}, false positives {f:.1%}")
    for line in errors:
        print("  " + line)
    assert recall >= 0.95, errors
    assert fp_rate <= 0.03, errors


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
def test_requests_missed_before_now_fire(text: str) -> None:
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


def test_classifying_the_whole_set_is_fast() -> None:
    texts = [text for _, _, text in ROWS]
    start = time.perf_counter()
    for text in texts:
        wants_deep_recall(text)
    elapsed = time.perf_counter() - start
    print(f"\n{len(texts)} classifications in {elapsed * 1000:.1f} ms")
    # A sanity bound far above the few milliseconds it takes, so a busy machine cannot flake.
    assert elapsed < 1.0
