"""The article's voice retells a user's sentence grammatically, whatever its form."""

from __future__ import annotations

import pytest

from recall.lifecycle.sentences import Speaker
from recall.lifecycle.voice import core, is_voiced, voice

USER = Speaker(role="user", name=None)


@pytest.mark.parametrize(
    ("said", "retold"),
    [
        # A clause whose subject is a pronoun: "told me that", in the third person.
        ("She's marrying a fisherman.", "The user told me that she's marrying a fisherman."),
        ("We moved last week.", "The user told me that they moved last week."),
        ("From next month I'm a pilot.", "The user told me that from next month they're a pilot."),
        # A verb ending like a past tense still agrees with its new subject.
        ("I need 12 participants.", "I know the user needs 12 participants."),
        # The user's "you" is me: the object after a participle, the subject before a verb.
        (
            "I'm trusting you with my relationship here.",
            "I know the user is trusting me with their relationship here.",
        ),
        ("I was surprised you called.", "I know the user was surprised I called."),
        # Anything else is quoted: a fragment, a name's clause, a conjunction in front.
        ("Five hours each way.", "The user told me: \u201cFive hours each way.\u201d"),
        ("A boy, Eli.", "The user told me: \u201cA boy, Eli.\u201d"),
        (
            "Joan will never share a slice!",
            "The user told me: \u201cJoan will never share a slice.\u201d",
        ),
        ("But they'll try.", "The user told me: \u201cBut they'll try.\u201d"),
        ("Why did nobody tell me.", "The user told me: \u201cWhy did nobody tell me.\u201d"),
    ],
)
def test_a_statement_is_retold_as_a_clause_or_quoted(said: str, retold: str) -> None:
    assert voice(USER, said) == retold


def test_a_quotation_is_in_the_voice_and_compared_without_its_frame() -> None:
    quoted = voice(USER, "Ethics board on Thursday.")
    assert quoted is not None and is_voiced(quoted)
    assert core(quoted) == "Ethics board on Thursday."


@pytest.mark.parametrize(
    ("said", "retold"),
    [
        # "as"/"than" before a verb start a clause: the user is its subject.
        (
            "Publishers care as long as you deliver on time.",
            "I told the user that publishers care as long as they deliver on time.",
        ),
        ("It is harder than you think.", "I told the user that it is harder than they think."),
        (
            "It works the same for me as for you.",
            "I told the user that it works the same for me as for them.",
        ),
    ],
)
def test_my_you_is_the_user_as_subject_or_object(said: str, retold: str) -> None:
    assert voice(Speaker(role="assistant", name=None), said) == retold
