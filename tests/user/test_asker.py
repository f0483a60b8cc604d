"""A question naming the user in the third person is searched for in the first person: the
user's name finds no reply that merely addresses them."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import recall
from recall.index.own import adapt_embedder
from recall.models import Record
from recall.testing import HashEmbedder
from recall.text.analyzer import Analyzer
from recall.user.asked import asked_attribute
from recall.user.asker import first_person
from recall.user.attributes import AttributeSpace, Example
from recall.user.now import UserFacts, facts_of

BANK = (
    Example("home", "en", "statement", "I live in a flat by the sea"),
    Example("none", "en", "statement", "please write an email"),
)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Which city does Dara live in?", "Which city does I live in?"),
        ("What is Dara's job?", "What is my job?"),
        ("What's the user's employer?", "What's my employer?"),
        ("Where does the user live now?", "Where does I live now?"),
        ("user partner name", "my partner name"),
        ("用户的职位", "我的职位"),
        ("用户现在住在哪个城市？", "我现在住在哪个城市？"),
        ("周晓雯的男朋友叫什么？", "我的男朋友叫什么？"),
        # Someone else, and a word that only contains the name, are left alone.
        ("Which city does Niamh live in?", "Which city does Niamh live in?"),
        ("Is Daralyn coming?", "Is Daralyn coming?"),
        ("What do users like about it?", "What do users like about it?"),
    ],
)
def test_the_user_named_in_the_third_person_reads_as_the_first(query: str, expected: str) -> None:
    assert first_person(query, ["Dara", "周晓雯"]) == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # Typed all in lower case, as agents and people often do: the name is too.
        ("where does marisol work", "where does I work"),
        ("marisol's employer", "my employer"),
        ("which city does tamsin live in", "which city does tamsin live in"),
        # A name that is also a function word is only the name when written as one.
        ("what will will do next", "what will will do next"),
        ("Where will Will live?", "Where will I live?"),
        # One capital anywhere: the asker writes names with theirs, so lower case is a word.
        ("Where does marisol work?", "Where does marisol work?"),
    ],
)
def test_an_all_lowercase_query_names_the_user_in_lower_case(query: str, expected: str) -> None:
    assert first_person(query, ["Marisol", "Will"]) == expected


def test_without_names_only_the_user_is_rewritten() -> None:
    assert first_person("Where does Dara live?") == "Where does Dara live?"
    assert first_person("the user's dog") == "my dog"


def _chat(mem: recall.Memory) -> None:
    start = datetime(2026, 3, 1, tzinfo=UTC)
    turns = [
        ("I live by the docks in Leith now.", "Lovely."),
        ("We live on takeaways this week.", "Cook once, eat twice."),
        ("Live music tonight at the pub!", "Have fun, Dara!"),
    ]
    for k, (user, reply) in enumerate(turns):
        messages = [{"role": "user", "content": user}, {"role": "assistant", "content": reply}]
        mem.update_memory(messages, user_id="u1", at=start + timedelta(days=k))
    mem.flush()


def _read(texts: list[str], role: str) -> tuple[UserFacts, AttributeSpace]:
    """``texts`` as one speaker's turns a day apart, read by recall.user.now."""
    records = [
        Record(
            id=f"{role}{i}",
            user_id="u",
            kind="turn",
            text=text,
            created_at=datetime(2026, 3, 1 + i, tzinfo=UTC),
            tokens=len(text.split()),
            metadata={"role": role},
        )
        for i, text in enumerate(texts)
    ]
    space = AttributeSpace(adapt_embedder(HashEmbedder()), bank=BANK)
    return facts_of({}, records, space, Analyzer(stem=True, stopwords=True)), space


def test_the_memory_knows_the_name_it_is_called_by_not_interjections() -> None:
    replies = ["Ha, of course. Enjoy it, Dara.", "Oh, Dara. Long drive.", "Sensible. Thanks Dara!"]
    uf, _ = _read(replies, "assistant")
    # "Ha," and "Sensible." open a sentence; "..., Dara." and "Thanks Dara!" address them.
    assert uf.user_names == frozenset({"Dara"})


def test_a_question_naming_the_user_finds_their_words_not_replies_to_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with recall.open(tmp_path / "m") as mem:
        _chat(mem)
        hits = mem.deep_recall("Where does Dara live?", user_id="u1", top_k=5)
        assert hits and "live" in hits[0].text.lower(), [h.text for h in hits]
        # The inspector shows the question as asked, and the same ranking.
        explained = mem.explain("Where does Dara live?", user_id="u1", top_k=5)
        assert explained.query == "Where does Dara live?"
        assert [h.id for h in explained.hits] == [h.id for h in hits]
        # Searched for as asked, the name (the rarest word) puts the reply addressing them first.
        as_is = dataclasses.replace(mem._retriever.user, first_person=lambda q, *_: q)
        monkeypatch.setattr(mem._retriever, "user", as_is)
        asked_as_is = mem.deep_recall("Where does Dara live?", user_id="u1", top_k=5)
        assert asked_as_is[0].text == "Have fun, Dara!", [h.text for h in asked_as_is]


def test_a_lowercase_question_about_someone_else_asks_nothing_of_the_user() -> None:
    said = ["I live in a flat by the sea in Portmere.", "My friend Tamsin lives in Ardloch now."]
    uf, space = _read(said, "user")
    assert "Tamsin" in uf.other_names
    assert asked_attribute("where does tamsin live", uf, space) is None
    assert asked_attribute("Where does Tamsin live?", uf, space) is None
