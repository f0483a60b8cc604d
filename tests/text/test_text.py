from hypothesis import given, settings
from hypothesis import strategies as st

from recall import count_tokens, tokenize
from recall.text import has_cjk, split_passages, split_sentences


def test_tokenize_english_lowercases_words() -> None:
    assert tokenize("The Cache, is REDIS!") == ["the", "cache", "is", "redis"]


def test_tokenize_chinese_with_jieba_search_mode() -> None:
    toks = tokenize("我在北京大学读书")
    assert "北京" in toks and "北京大学" in toks


def test_tokenize_mixed() -> None:
    toks = tokenize("用Redis做缓存")
    assert "redis" in toks and "缓存" in toks
    assert has_cjk("abc 中") and not has_cjk("abc")


def test_split_sentences_latin_and_cjk() -> None:
    assert split_sentences("One. Two! 三。四？") == ["One.", "Two!", "三。", "四？"]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.text(alphabet=st.sampled_from(list("ab c.。你好\n")), min_size=1, max_size=200),
        min_size=1,
        max_size=5,
    ),
    st.integers(min_value=4, max_value=40),
)
def test_passages_respect_budget(paras: list[str], budget: int) -> None:
    text = "\n\n".join(paras)
    passages = split_passages(text, budget, count_tokens)
    assert all(count_tokens(p) <= budget for p in passages)
    # Nothing but whitespace is lost.
    assert "".join(passages).replace(" ", "").replace("\n", "") == text.replace(" ", "").replace(
        "\n", ""
    )
