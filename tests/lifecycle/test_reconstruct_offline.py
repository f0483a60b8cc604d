"""The offline reconstructor condenses: voice, whole sentences, supersession, passing moods.

End to end through the real write path (``recall.open(...).update_memory`` with chat
messages, the offline summarizer, promotion, SQLite and embedded Chroma; the conftest's
HashEmbedder, the packaged embedding model for the sample articles), read back with
``long_term(user)`` and ``long_term(user, version=N)``.
A small short-term capacity (2, promoting 2) makes each promotion a few updates away.
"""

from __future__ import annotations

import re
import runpy
from collections.abc import Iterator
from pathlib import Path

import pytest

import recall
from recall.lifecycle.article import Article
from recall.lifecycle.reconstruct import OfflineReconstructor
from recall.lifecycle.sentences import split_whole_sentences
from recall.text import count_tokens

ROOT = Path(__file__).resolve().parents[2]
LABEL = re.compile(
    r"(?:^|[.!?。！？]\s*)(?:User|Assistant|Tool|用户|助手)(?:\s*\([^)]*\))?\s*[:：]"
)
AI_VOICE_EN = re.compile(r"\b(?:I|me|my|we|us|our)\b")


@pytest.fixture
def small(settings: recall.Settings, embedder: recall.Embedder) -> Iterator[recall.Memory]:
    """A memory promoting the 2 oldest summaries as soon as there are 3."""
    m = recall.open(settings=settings.replace(short_term_capacity=2, promote_count=2))
    yield m
    m.close()


def chat(mem: recall.Memory, user_id: str, user: str, assistant: str = "Noted.") -> None:
    messages = [{"role": "user", "content": user}, {"role": "assistant", "content": assistant}]
    mem.update_memory(messages, user_id=user_id)


def sentences(lt: recall.LongTerm) -> dict[str, list[str]]:
    return {name: split_whole_sentences(text) for name, text in lt.chapters().items()}


def check_voice(lt: recall.LongTerm) -> None:
    """No role label anywhere; every sentence of every chapter in my first person."""
    text = lt.render()
    assert not LABEL.search(text), text
    for name, sents in sentences(lt).items():
        for s in sents:
            if re.search(r"[\u4e00-\u9fff]", s):
                assert "我" in s, (name, s)
            else:
                assert AI_VOICE_EN.search(s), (name, s)


# --- supersession, through update_memory --------------------------------------------------
def test_newer_facts_supersede_older_ones_en(small: recall.Memory) -> None:
    chat(small, "en", "Hi, I'm Zhang Min, a data scientist at Acme. Can you help with pandas?")
    chat(small, "en", "I live in Shanghai. I prefer tea over coffee.")
    chat(small, "en", "Big news: I'm now a machine learning engineer at Globex.")  # promotes 1-2
    chat(small, "en", "I moved to Hangzhou last month. These days I prefer coffee over tea.")
    chat(small, "en", "Can you look at my flaky test?")  # promotes 3-4
    old, lt = small.long_term("en", version=1), small.long_term("en")
    assert lt.version == 2
    # Version 1 held the old facts, routed: who they are and where they live in Bedrock.
    assert "Zhang Min, a data scientist at Acme" in old.bedrock
    assert "lives in Shanghai" in old.bedrock and "tea over coffee" in old.evolutionary
    # The current article holds only the newer ones; the name, which nothing replaced, is
    # restated on its own when its sentence goes.
    text = lt.render()
    for gone in ("data scientist", "Acme", "Shanghai", "prefers tea over coffee"):
        assert gone not in text, (gone, text)
    assert "I know the user's name is Zhang Min." in lt.bedrock
    assert "machine learning engineer at Globex" in lt.bedrock
    assert "I know the user moved to Hangzhou last month." in lt.bedrock
    assert "coffee over tea" in lt.evolutionary
    check_voice(lt)


def test_newer_facts_supersede_older_ones_zh(small: recall.Memory) -> None:
    chat(small, "zh", "你好，我叫张敏，是一名数据科学家，在优品电商工作。", "你好，张敏！")
    chat(small, "zh", "我住在上海。我很喜欢喝咖啡。", "好的，记住了。")
    chat(small, "zh", "我跳槽到了阿里云，做机器学习工程师。", "恭喜！")  # promotes 1-2
    chat(small, "zh", "我搬到杭州了。我最近不喝咖啡了，改喝绿茶。", "绿茶也不错。")
    chat(small, "zh", "帮我看看这个报错？", "先看日志。")  # promotes 3-4
    old, lt = small.long_term("zh", version=1), small.long_term("zh")
    assert "数据科学家" in old.bedrock and "上海" in old.bedrock and "咖啡" in old.evolutionary
    text = lt.render()
    for gone in ("数据科学家", "优品", "上海", "很喜欢喝咖啡"):
        assert gone not in text, (gone, text)
    assert "我知道用户叫张敏。" in lt.bedrock
    assert "阿里云" in lt.bedrock and "机器学习工程师" in lt.bedrock
    assert "我知道用户搬到杭州了。" in lt.bedrock
    assert "改喝绿茶" in lt.evolutionary
    check_voice(lt)


@pytest.mark.parametrize(
    "older, newer, gone, kept",
    [
        ("My name is Ilse.", "Actually, my name is Ilsa.", "Ilse", "name is Ilsa"),
        ("I work as a nurse at St. Anna.", "I just started a new job as a pilot at Aerion.",
         "nurse", "pilot at Aerion"),
        ("I'm based in Graz.", "I live in Vienna now.", "Graz", "lives in Vienna"),
        ("I love spicy food.", "I don't like spicy food anymore.", "loves spicy", "spicy food"),
        ("I use VS Code for Go.", "I switched from VS Code to Neovim.", "uses VS Code",
         "Neovim"),
        ("我叫王小明。", "我现在叫王晓明。", "王小明", "王晓明"),
        ("我是一名律师。", "我现在是一名法官。", "律师", "法官"),
        ("我住在成都。", "我搬到了重庆。", "成都", "重庆"),
        ("我喜欢喝奶茶。", "我不喝奶茶了。", "喜欢喝奶茶", "不喝奶茶"),
    ],
)  # fmt: skip
def test_each_kind_of_fact_is_superseded(
    embedder: recall.Embedder, older: str, newer: str, gone: str, kept: str
) -> None:
    rec = OfflineReconstructor(lambda: embedder, chapter_tokens=200, dedup_similarity=0.92)
    first = rec.reconstruct(Article(), [f"User: {older}"])
    assert gone in first.render()
    second = rec.reconstruct(first, [f"User: {newer}"])
    assert gone not in second.render() and kept in second.render(), second.render()


def test_a_fact_about_someone_else_supersedes_nothing(embedder: recall.Embedder) -> None:
    rec = OfflineReconstructor(lambda: embedder, chapter_tokens=200, dedup_similarity=0.92)
    first = rec.reconstruct(Article(), ["User: I live in Denver. 我是一名律师。"])
    second = rec.reconstruct(first, ["User: My sister lives in Boston. 我老公是医生。"])
    assert "lives in Denver" in second.bedrock and "律师" in second.bedrock


# --- whole sentences, voice, labels -------------------------------------------------------
def test_whole_sentences_in_the_ai_voice(small: recall.Memory) -> None:
    chat(
        small,
        "u",
        "Now the pod keeps getting OOM-killed; we raised the limit to 1Gi.",
        "Profile the heap, e.g. with pprof; then decide.",
    )
    chat(small, "u", "我们加了去重；指标恢复正常了。", "好的。")
    chat(small, "u", "Thanks!", "You're welcome!")  # promotes the first two
    lt = small.long_term("u")
    assert lt.version == 1
    assert (
        # Not a clause whose subject is a pronoun: quoted rather than "told me that".
        "The user told me: \u201cNow the pod keeps getting OOM-killed; we raised the limit "
        "to 1Gi.\u201d" in lt.dynamic
    )
    # My advice is left out of the article (the archive keeps it: see test_reconstruct_density).
    assert "profile the heap" not in lt.render()
    assert "用户跟我说，他们加了去重；指标恢复正常了。" in lt.dynamic
    for sents in sentences(lt).values():  # no fragment starts in lower case
        assert all(not s[0].islower() for s in sents), sents
    check_voice(lt)


def test_a_role_labelled_old_article_is_retold(embedder: recall.Embedder) -> None:
    # As the reconstructor before the voice wrote it: labelled lines, and sentences it had
    # cut off their line ("From next month …") with no label left.
    rec = OfflineReconstructor(lambda: embedder, chapter_tokens=200, dedup_similarity=0.92)
    legacy = Article(
        bedrock="From next month I'm a pilot.\n\nUser: I'm Ilse. I work as a nurse.",
        dynamic="Assistant: Sure!",
    )
    out = rec.reconstruct(legacy, ["User: I'm tired today."])
    # Newest paragraph first: the pilot job supersedes the older nurse one; the name stays.
    assert out.bedrock == (
        "The user told me that from next month they're a pilot.\n\nI know the user is Ilse."
    )
    assert out.dynamic == "I noticed the user is tired today."
    # An article already in the voice is not retold again.
    again = rec.reconstruct(out, ["User: I moved to Graz."])
    assert again.bedrock.endswith(out.bedrock)


# --- passing moods --------------------------------------------------------------------------
def test_a_mood_lasts_one_promotion(small: recall.Memory) -> None:
    chat(small, "m", "I'm so frustrated, the flaky test in our CI failed three times today.")
    chat(small, "m", "I'm exhausted after the on-call week.")
    chat(small, "m", "We fixed the flaky test by freezing the clock.")  # promotes 1-2
    v1 = small.long_term("m")
    # Of the batch's passing states only the newest stays.
    assert "exhausted" in v1.dynamic and "frustrated" not in v1.dynamic
    assert "I noticed the user is exhausted after the on-call week." in v1.dynamic
    chat(small, "m", "The release went out on time.")
    chat(small, "m", "I started writing the design doc.")  # promotes 3-4
    v2 = small.long_term("m")
    assert "exhausted" not in v2.render() and "frustrated" not in v2.render()
    assert "they fixed the flaky test by freezing the clock" in v2.dynamic
    assert "exhausted" in small.long_term("m", version=1).dynamic  # history keeps it


# --- budgets --------------------------------------------------------------------------------
def test_each_chapter_within_its_budget(settings: recall.Settings) -> None:
    m = recall.open(
        settings=settings.replace(short_term_capacity=2, promote_count=2, chapter_tokens=40)
    )
    try:
        for i in range(9):
            chat(
                m,
                "b",
                f"I usually review pull request {100 + i} before lunch. My goal is to ship "
                f"feature {i} by Friday. Ticket PRJ-{2000 + i} is blocked on design.",
            )
        lt = m.long_term("b")
        assert lt.version >= 3
        assert lt.evolutionary and lt.dynamic
        for name, text in lt.chapters().items():
            assert count_tokens(text) <= 40, (name, text)
        assert "PRJ-2008" in lt.dynamic or "PRJ-2007" in lt.dynamic  # newest first
        assert "PRJ-2000" not in lt.dynamic
    finally:
        m.close()


# --- the library guide's sample -------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.real_model
def test_the_sample_articles(mem: recall.Memory) -> None:
    """examples/article_sample.py through the default settings: what docs/library.md shows."""
    sample = runpy.run_path(str(ROOT / "examples" / "article_sample.py"), run_name="sample")
    for user_id, sessions in (("maya", sample["MAYA"]), ("zhang", sample["ZHANG"])):
        sample["feed"](mem, user_id, sessions)
        lt = mem.long_term(user_id)
        assert lt.version == 4
        check_voice(lt)
        for name, text in lt.chapters().items():
            assert count_tokens(text) <= mem.settings.lifecycle.chapter_tokens, name
    maya, zhang = mem.long_term("maya").render(), mem.long_term("zhang").render()
    # Superseded: the old job, city, coffee, answer length, editor; the passing moods.
    for gone in (
        "Austin",
        "backend developer",
        "loves coffee",
        "short answers",
        "uses VS Code",
        "frustrated",
        "exhausted",
        "nervous",
        "User:",
        "Assistant:",
    ):
        assert gone not in maya, gone
    for kept in (
        "name is Maya Lindqvist",
        "platform engineer at Northwind",
        "lives in Denver",
        "allergic to peanuts",
        "stopped drinking coffee",
        "detailed answers",
        "Neovim",
        "relieved",
    ):
        assert kept in maya, kept
    for gone in (
        "数据科学家",
        "优品电商工作",
        "很喜欢喝咖啡",
        "详细一点",
        "平时用 Jupyter",
        "好烦",
        "累坏",
        "紧张",
        "用户：",
        "助手：",
    ):
        assert gone not in zhang, gone
    for kept in (
        "用户叫张敏",
        "机器学习工程师",
        "住在杭州",
        "海鲜过敏",
        "改喝绿茶",
        "简短的回答",
        "松了一口气",
    ):
        assert kept in zhang, kept
