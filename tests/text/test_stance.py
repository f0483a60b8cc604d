"""Whether a sentence asserts something of the speaker (recall.text.stance)."""

from __future__ import annotations

import pytest

from recall.text.stance import asserted_sentences, is_assertion, names_in, self_named


@pytest.mark.parametrize(
    "sentence",
    [
        "Signed the contract with the orchestra on Friday.",
        "The new place has a balcony over the canal.",
        "我上周开始在一家咖啡馆兼职了。",
        "Been riding the tram to work since the car died.",
    ],
)
def test_reports_are_assertions(sentence: str) -> None:
    assert is_assertion(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Is the Zurich office any good?",  # a question
        "你觉得我该换手机吗？",
        "Thinking of moving to Porto next spring.",  # a plan
        "If I ever quit I'd join a bakery.",  # a hypothetical
        "I'd love a vintage Vespa one day.",  # a wish
        "我打算明年去成都工作。",
        "My brother just moved to Lyon.",  # someone else
        "Our team switched to a new tracker.",
        "我姐姐换了工作。",
        "I didn't get the job at the studio.",  # a negated event
    ],
)
def test_questions_plans_wishes_others_and_negations_are_not(sentence: str) -> None:
    assert not is_assertion(sentence)


def test_asserted_sentences_keeps_only_the_reports() -> None:
    text = "Moved into the flat on Elm Row. Maybe I'll repaint it? My sister hates the colour."
    assert asserted_sentences(text) == ["Moved into the flat on Elm Row."]


@pytest.mark.parametrize(
    ("text", "asserts"),
    [
        # A report, then a question about it: the sentence reports.
        ("Picked up my new keys from the agent today, any tips for the first week?", True),
        ("换了新工作，在一家做地图的公司，第一周有什么要注意的？", True),
        # The clause before the question plans, wishes or speaks of someone else.
        ("Thinking of selling the van, is that mad?", False),
        ("如果明年搬去成都，你觉得房租贵吗？", False),
        ("My brother got a dog, should I get one too?", False),
        # A question alone, or opening with its question.
        ("Is the gym on Elm Street any good?", False),
        ("Which bank is better, the local one or the big one?", False),
    ],
)
def test_a_report_before_a_closing_question_still_asserts(text: str, asserts: bool) -> None:
    assert bool(asserted_sentences(text)) is asserts


def test_names_are_capitalized_words_not_starting_a_sentence() -> None:
    assert names_in("Lunch with Priya at Hollow Oak. Tuesday was long, I was tired.") == {
        "Priya",
        "Hollow",
        "Oak",
    }


def test_self_named() -> None:
    assert self_named("Hi, my name is Tomasz and I fix bikes.") == {"Tomasz"}
    assert self_named("大家好，我叫林晓，在杭州上班。") == {"林晓"}
