"""The tagged three-chapter article: exact round trip, lenient reading, clear errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from recall.errors import InputError
from recall.lifecycle.article import Article, clean_chapter, parse_article, render_article

SEED_EXAMPLE = """ <Bedrock>
 基石模型内容
 </Bedrock>

<Evolutionary>
演化模型内容
</Evolutionary>

<Dynamic>
动态模型内容
</Dynamic>"""

chapter_text = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=200).filter(
    lambda t: clean_chapter(t) == t
)


def test_canonical_form() -> None:
    a = Article(bedrock="I am a nurse.", evolutionary="", dynamic="Moving to Berlin.\n\nTired.")
    assert render_article(a) == (
        "<Bedrock>\nI am a nurse.\n</Bedrock>\n\n"
        "<Evolutionary>\n\n</Evolutionary>\n\n"
        "<Dynamic>\nMoving to Berlin.\n\nTired.\n</Dynamic>"
    )
    assert a.render() == render_article(a)


@given(chapter_text, chapter_text, chapter_text)
def test_parse_render_round_trip(b: str, e: str, d: str) -> None:
    article = Article(bedrock=b, evolutionary=e, dynamic=d)
    text = render_article(article)
    assert parse_article(text) == article
    assert render_article(parse_article(text)) == text


@pytest.mark.parametrize("body", ["", "\n", "\n\nx\n\n", "  lead and trail  ", "a\r\nb"])
def test_blank_lines_inside_chapters_survive(body: str) -> None:
    article = Article(bedrock=body, evolutionary=body, dynamic=body)
    assert parse_article(render_article(article)) == article


def test_seed_example_is_read_leniently() -> None:
    article = parse_article(SEED_EXAMPLE)
    assert article.bedrock.strip() == "基石模型内容"
    assert article.evolutionary == "演化模型内容"
    assert article.dynamic == "动态模型内容"


def test_missing_chapter_is_empty_and_blank_text_is_empty_article() -> None:
    assert parse_article("<Dynamic>\nonly\n</Dynamic>") == Article(dynamic="only")
    assert parse_article("   ") == Article()
    assert Article().is_empty()


def test_tag_case_is_forgiven() -> None:
    assert parse_article("<dynamic>\nx\n</DYNAMIC>").dynamic == "x"


@pytest.mark.parametrize(
    "text, message",
    [
        ("just some text", "no <Bedrock>"),
        ("<Dynamic>\na\n</Dynamic>\n<Dynamic>\nb\n</Dynamic>", "2 <Dynamic>"),
    ],
)
def test_unreadable_articles_raise_input_error(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_article(text)


def test_non_string_is_input_error() -> None:
    with pytest.raises(InputError, match="must be a string"):
        parse_article(42)  # type: ignore[arg-type]


def test_chapter_tags_inside_text_are_refused_then_cleaned() -> None:
    sneaky = "see </Dynamic> and <Bedrock >"
    with pytest.raises(ValueError, match="clean_chapter"):
        Article(dynamic=sneaky)
    cleaned = clean_chapter(sneaky)
    assert "</Dynamic>" not in cleaned and "‹/Dynamic›" in cleaned
    article = Article(dynamic=cleaned)
    assert parse_article(render_article(article)) == article


def test_chapters_in_article_order() -> None:
    assert list(Article().chapters()) == ["Bedrock", "Evolutionary", "Dynamic"]
