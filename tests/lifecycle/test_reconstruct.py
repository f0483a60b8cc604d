"""The offline reconstructor: routing rules, newest first, embedding dedup, budgets."""

from __future__ import annotations

import pytest

import recall
from recall.lifecycle.article import Article, parse_article, render_article
from recall.lifecycle.reconstruct import OfflineReconstructor, Reconstructor, route
from recall.text import count_tokens


@pytest.fixture
def rec(embedder: recall.Embedder) -> OfflineReconstructor:
    return OfflineReconstructor(lambda: embedder, chapter_tokens=120, dedup_similarity=0.92)


@pytest.mark.parametrize(
    "sentence, chapter",
    [
        ("My name is Ilse and I work as a nurse in Graz.", "Bedrock"),
        ("I am allergic to peanuts.", "Bedrock"),
        ("Never call me by my last name.", "Bedrock"),
        ("我叫王小明，是一名律师。", "Bedrock"),
        ("My long-term goal is to run a marathon under 3 hours.", "Evolutionary"),
        ("I usually review code in the morning.", "Evolutionary"),
        ("We agreed to keep answers short from now on.", "Evolutionary"),
        ("我的目标是明年考上研究生。", "Evolutionary"),
        ("Today the deploy of build 4821 failed on node gpu-17.", "Dynamic"),
        ("I am tired after the trip to Lisbon.", "Dynamic"),
        ("上周我们讨论了缓存方案。", "Dynamic"),
    ],
)
def test_route(sentence: str, chapter: str) -> None:
    assert route(sentence) == chapter


def test_protocol(rec: OfflineReconstructor) -> None:
    assert isinstance(rec, Reconstructor)


def test_stimuli_land_in_their_chapters_newest_first(rec: OfflineReconstructor) -> None:
    stimuli = [
        "My name is Ilse. We moved the launch to May 3.",
        "I usually write in German. Build 4821 passed on Tuesday.",
    ]
    out = rec.reconstruct(Article(), stimuli)
    # Retold in my voice: a summary string's first person is the user's.
    assert out.bedrock == "I know the user's name is Ilse."
    assert out.evolutionary == "I know the user usually writes in German."
    # One paragraph per stimulus, the newest first.
    assert out.dynamic == (
        "I noted that build 4821 passed on Tuesday.\n\nI noted that we moved the launch to May 3."
    )
    assert parse_article(render_article(out)) == out


def test_untouched_chapter_stays_byte_identical(rec: OfflineReconstructor) -> None:
    old = Article(bedrock="  I am Ilse.\n\n(odd spacing kept)\n", evolutionary="E.", dynamic="D.")
    out = rec.reconstruct(old, ["The release train leaves on Friday."])
    assert out.bedrock == old.bedrock and out.evolutionary == old.evolutionary
    assert out.dynamic == "I noted that the release train leaves on Friday.\n\nD."


@pytest.mark.real_model
def test_near_duplicates_keep_the_newer(rec: OfflineReconstructor) -> None:
    old = Article(dynamic="The team meeting is on Monday at 10 am.")
    out = rec.reconstruct(old, ["The team meeting is on Monday at 10 am!"])
    assert out.dynamic == "I noted that the team meeting is on Monday at 10 am."
    # Different facts are not duplicates.
    out = rec.reconstruct(old, ["The invoice total was 930 euros."])
    assert "930 euros" in out.dynamic and "Monday at 10 am." in out.dynamic


@pytest.mark.real_model
def test_sentences_differing_in_a_number_are_both_kept(rec: OfflineReconstructor) -> None:
    # MiniLM puts these above 0.92; the older one still carries a fact the newer lacks.
    out = rec.reconstruct(
        Article(), ["Sprint 5 closed ticket PRJ-1005.", "Sprint 6 closed ticket PRJ-1006."]
    )
    assert out.dynamic == (
        "I noted that Sprint 6 closed ticket PRJ-1006.\n\n"
        "I noted that Sprint 5 closed ticket PRJ-1005."
    )


def test_budget_drops_the_oldest(rec: OfflineReconstructor) -> None:
    article = Article()
    for r in range(10):
        stimuli = [f"Sprint {4 * r + i} closed ticket PRJ-{1000 + 4 * r + i}." for i in range(4)]
        article = rec.reconstruct(article, stimuli)
    assert count_tokens(article.dynamic) <= 120
    assert article.dynamic.startswith("I noted that Sprint 39 closed ticket PRJ-1039.")
    assert "PRJ-1000" not in article.dynamic


def test_tags_in_stimuli_are_neutralized(rec: OfflineReconstructor) -> None:
    out = rec.reconstruct(Article(), ["He wrote </Dynamic><Bedrock> in the chat."])
    assert "</Dynamic>" not in out.dynamic
    assert parse_article(render_article(out)) == out


def test_deterministic(embedder: recall.Embedder) -> None:
    stimuli = ["My name is Ilse.", "Build 4821 passed.", "I usually write in German."]

    def run() -> Article:
        r = OfflineReconstructor(lambda: embedder, chapter_tokens=200, dedup_similarity=0.92)
        return r.reconstruct(Article(dynamic="Old note about Graz."), stimuli)

    assert run() == run()


def test_chinese_stimuli(rec: OfflineReconstructor) -> None:
    out = rec.reconstruct(Article(), ["我叫王小明。下周三去杭州出差，预算3000元。"])
    assert out.bedrock == "我知道用户叫王小明。"
    assert "3000" in out.dynamic
