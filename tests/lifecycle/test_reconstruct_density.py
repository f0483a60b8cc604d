"""The offline article keeps facts about the user: not my advice, not their questions.

Small inputs straight through :class:`OfflineReconstructor` (the conftest's HashEmbedder:
these rules need no model), then the first 25 sessions of ``tests/data/sessions_en.jsonl``
through ``update_memory`` with the packaged embedding model (benchmarks/article_density.py
measures all 40, en and zh).
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

import recall
from recall.lifecycle.article import Article
from recall.lifecycle.keep import kept
from recall.lifecycle.reconstruct import OfflineReconstructor
from recall.lifecycle.routing import is_transient
from recall.lifecycle.said import Dated, Said, passage_dates
from recall.lifecycle.sentences import Speaker
from recall.llm import dumps
from recall.text import count_tokens

DATA = Path(__file__).parents[1] / "data" / "sessions_en.jsonl"
USER, ME = Speaker("user"), Speaker("assistant")


@pytest.fixture
def rec(embedder: recall.Embedder) -> OfflineReconstructor:
    return OfflineReconstructor(lambda: embedder, chapter_tokens=300, dedup_similarity=0.92)


def day(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(hour=12, tzinfo=UTC)


# --- what is left out ------------------------------------------------------------------------
def test_my_advice_is_left_out(rec: OfflineReconstructor) -> None:
    out = rec.reconstruct(
        Article(),
        [
            "User: We're moving to Leeds on May 3rd.\n"
            "Assistant: Book the removal company early. You should also redirect your post. "
            "I'd recommend packing one room a day."
        ],
    ).render()
    assert "moving to Leeds on May 3rd" in out
    for advice in ("removal", "redirect", "packing", "advised"):
        assert advice not in out, (advice, out)


def test_the_users_questions_are_left_out(rec: OfflineReconstructor) -> None:
    out = rec.reconstruct(
        Article(),
        [
            "User: What should I pack for Edinburgh? I fly there on Friday for a conference.\n"
            "Assistant: Would you like a packing list?",
            "用户：去大理要带什么衣服？我们四月四号出发。",
        ],
    ).render()
    assert "flies there on Friday" in out and "四月四号出发" in out
    for asked in ("pack", "asked me", "带什么", "问我", "packing list"):
        assert asked not in out, (asked, out)


def test_what_i_say_about_the_user_stays() -> None:
    # Advice that carries a fact about the user keeps it; a restatement stays; general
    # knowledge, reactions and questions of mine go.
    assert kept(ME, "Since you're vegetarian, the mushroom risotto is a safe pick.")
    assert kept(ME, "Carry a card that says you're allergic to tree nuts.")
    assert kept(ME, "You mentioned your sister lives in Porto.")
    assert kept(ME, "I'll keep answers short from now on.")
    for said in (
        "Steakhouses usually have a vegetarian main.",
        "That's great news!",
        "Try the Time Out Market.",
        "You could also pack a snack.",
        "How did the talk go?",
        "先把运营的目标问清楚。",
        "可以试试豆浆。",
    ):
        assert kept(ME, said) is None, said
    # The user's standing rule survives being asked; their bare reactions do not.
    assert kept(USER, "Can you always answer in English from now on?")
    assert kept(USER, "Thanks, that helps.") is None
    assert kept(USER, "好主意！") is None


def test_a_named_speakers_question_is_left_out(rec: OfflineReconstructor) -> None:
    # An imported transcript (LoCoMo): both speakers are users, named in the text.
    out = rec.reconstruct(
        Article(),
        [
            "User: Caroline: I went to an LGBTQ support group yesterday. Wow, thanks!\n\n"
            "User: Melanie: How did the support group go? I painted a lake sunrise last year."
        ],
    ).render()
    assert "support group yesterday" in out and "lake sunrise" in out
    assert "how did the support group go" not in out.lower() and "asked me" not in out
    assert "thanks" not in out.lower()


def test_advice_an_older_article_holds_goes_at_the_next_promotion(
    rec: OfflineReconstructor,
) -> None:
    old = Article(
        dynamic="I advised the user to book early. The user asked me: what should they pack? "
        "I know the user moves on May 3rd."
    )
    out = rec.reconstruct(old, ["User: The movers come at 8 am."])
    assert "book early" not in out.dynamic and "what should they pack" not in out.dynamic
    assert "moves on May 3rd" in out.dynamic and "movers come at 8 am" in out.dynamic


# --- durable facts are not moods -----------------------------------------------------------
@pytest.mark.parametrize(
    "said, fact, mood",
    [
        ("I'm a bit nervous about the team dinner because I'm vegetarian.",
         "I know the user is vegetarian.", "nervous"),
        ("I'm really anxious about the wedding since I'm allergic to tree nuts.",
         "I know the user is allergic to tree nuts.", "anxious"),
        ("我挺紧张的，因为我吃素，怕扫大家的兴。", "我知道用户吃素。", "紧张"),
        ("下个月有年会，我有点担心，因为我对芒果过敏。", "我知道用户对芒果过敏。", "担心"),
    ],
)  # fmt: skip
def test_a_durable_fact_said_with_a_mood_is_kept(
    rec: OfflineReconstructor, said: str, fact: str, mood: str
) -> None:
    assert not is_transient(said)
    first = rec.reconstruct(Article(), [f"User: {said}"])
    assert fact in first.bedrock, first.render()
    # The next promotion drops passing moods; the fact is not one.
    second = rec.reconstruct(first, ["User: I'm exhausted today.", "User: 今天好累。"])
    assert fact in second.bedrock and mood not in second.render(), second.render()


def test_a_mood_alone_still_passes() -> None:
    assert is_transient("I'm so anxious about the exam.")
    assert is_transient("Theo has a fever and I'm worried.")
    assert is_transient("豆豆发烧了，我好担心。")


# --- when it was said ------------------------------------------------------------------------
def test_each_paragraph_opens_with_the_day_it_was_said(rec: OfflineReconstructor) -> None:
    first = rec.reconstruct(
        Article(),
        [
            Dated("User: I work as a nurse at St. Anna.", day("2026-01-05")),
            Dated("User: I'm training for a half marathon in October.", day("2026-01-09")),
        ],
    )
    assert first.bedrock == "[2026-01-05] I know the user works as a nurse at St. Anna."
    assert first.evolutionary.startswith("[2026-01-09] I know the user is training")
    second = rec.reconstruct(first, [Dated("User: I moved to Graz.", day("2026-02-01"))])
    paras = second.bedrock.split("\n\n")
    assert paras[0] == "[2026-02-01] I know the user moved to Graz."
    assert paras[1] == first.bedrock  # the older paragraph keeps its day
    assert second.evolutionary == first.evolutionary  # untouched: byte-identical
    # A stimulus without a date (a plain str) writes no mark; the LLM gets plain text.
    assert not rec.reconstruct(Article(), ["User: I live in Graz."]).bedrock.startswith("[")
    assert json.loads(dumps([Dated("User: hi", day("2026-01-05"))])) == ["User: hi"]


def test_an_untraced_sentence_takes_its_paragraphs_day() -> None:
    said = day("2026-01-05")
    sources = [Said("User: something else entirely", said, said)]
    later = day("2026-03-01")
    passages = ["[2026-01-05] I know the user's plans changed.", "No day, nothing traced."]
    spans = passage_dates(passages, sources, later)
    assert spans == [(said, said), (later, later)]
    # No source said that day: the day's midnight, still never the promotion's.
    assert passage_dates(["[2026-01-07] Untraced."], sources, later) == [
        (datetime(2026, 1, 7, tzinfo=UTC),) * 2
    ]


# --- through update_memory: 25 realistic sessions --------------------------------------------
@pytest.mark.slow
@pytest.mark.real_model
def test_the_article_is_smaller_than_the_summaries_it_consumed(
    settings: recall.Settings, embedder: recall.Embedder
) -> None:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()][:25]
    small = settings.replace(short_term_capacity=5, promote_count=5, llm_model=None)
    with recall.open(settings=small) as mem:
        for row in rows:
            mem.update_memory(row["messages"], user_id="nora", at=day(row["at"]))
        final = mem.long_term("nora")
        assert final.version == 4  # 20 of the 25 summaries promoted
        archive = mem.records("nora", kinds=["archive"])
        dynamic = mem.records("nora", kinds=["dynamic"])
        consumed = 0
        for v in range(1, final.version + 1):
            consumed += sum(
                count_tokens(r.text) for r in archive if r.metadata["chapter_version"] == v
            )
            lt = mem.long_term("nora", version=v)
            tokens = sum(count_tokens(t) for t in lt.chapters().values() if t)
            assert tokens < consumed, (v, tokens, consumed)
    text = final.render()
    assert "I know the user is vegetarian." in text
    assert "I know the user is allergic to tree nuts." in text
    assert not re.search(r"I advised|asked me:|I asked the user|\?", text), text
    # Every paragraph carries its day, one of the sessions' days.
    days = {row["at"] for row in rows}
    for chapter in final.chapters().values():
        for para in filter(None, chapter.split("\n\n")):
            m = re.match(r"\[(\d{4}-\d{2}-\d{2})\] ", para)
            assert m and m.group(1) in days, para
    for r in dynamic:  # passages are dated by what they hold, never the promotion's day
        assert r.created_at.date().isoformat() in days, r
