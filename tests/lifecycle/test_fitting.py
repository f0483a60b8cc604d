"""A chapter over its budget: durable facts stay, then the newest of the rest."""

from __future__ import annotations

from recall.lifecycle.fitting import fit_chapter
from recall.text import count_tokens

OLD = [
    "[2026-01-05] I know the user is allergic to peanuts.",
    "The user told me that it rained.",
    "I know the user is Nora Castillo.",
]
NEWER = [
    [f"[2026-0{m}-1{d}] The user told me that the match on day {m}{d} went to extra time."]
    for m in range(9, 1, -1)
    for d in range(9, 0, -1)
]


def test_an_old_durable_fact_outlives_newer_talk() -> None:
    paras = [*NEWER, OLD]  # newest first
    text = fit_chapter(paras, 120, count_tokens)
    assert count_tokens(text) <= 120
    # The allergy and the name, said first, are kept under their day; the rain is not.
    assert text.endswith(
        "[2026-01-05] I know the user is allergic to peanuts. I know the user is Nora Castillo."
    )
    assert "rained" not in text
    # The rest is the newest talk, in order, each paragraph under its day.
    kept = text.split("\n\n")[:-1]
    assert kept and kept == [p[0] for p in NEWER[: len(kept)]]


def test_without_durable_facts_the_oldest_go_first() -> None:
    paras = [*NEWER[:5], ["[2026-01-05] The user told me that it rained."]]
    text = fit_chapter(paras, 60, count_tokens)
    assert text == "\n\n".join(p[0] for p in NEWER[: text.count("\n\n") + 1])
    assert "rained" not in text and count_tokens(text) <= 60


def test_a_paragraph_whose_first_sentence_goes_keeps_its_day() -> None:
    fact = "I know the user is allergic to peanuts."
    paras = [["[2026-03-01] The user told me that the printer jammed again.", fact]]
    room = count_tokens("[2026-03-01] " + fact) + 2
    text = fit_chapter(paras, room, count_tokens)
    # The durable fact is taken first; the day mark moves to it.
    assert text == "[2026-03-01] I know the user is allergic to peanuts."
    assert fit_chapter(paras, 1_000, count_tokens) == (
        "[2026-03-01] The user told me that the printer jammed again. "
        "I know the user is allergic to peanuts."
    )
