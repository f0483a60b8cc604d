import warnings

import pytest

from recall import count_tokens, estimate_tokens
from recall.text import exact_counter


def test_exact_counts_match_cl100k() -> None:
    # Reference values of cl100k_base.
    assert count_tokens("hello world") == 2
    assert count_tokens("") == 0
    assert count_tokens("tiktoken is great!") == 6


def test_exact_counter_is_offline_cl100k() -> None:
    counter = exact_counter("cl100k_base")
    assert counter is not None
    assert counter("你好，世界") == count_tokens("你好，世界")


def test_long_text_not_cached_but_counted() -> None:
    text = "word" + " word" * 4_999
    assert count_tokens(text) == 5_000


def test_estimate_weights_cjk() -> None:
    assert estimate_tokens("你好") == 3  # 2 * 1.5
    assert estimate_tokens("abcdefghij") == 3  # 10 * 0.3
    assert estimate_tokens("") == 0


def test_fallback_warns_once_and_estimates() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert exact_counter("no_such_encoding") is None
        assert exact_counter("no_such_encoding") is None
    assert len([w for w in caught if "estimated" in str(w.message)]) == 1
    assert count_tokens("你好 world", "no_such_encoding") == estimate_tokens("你好 world")


@pytest.mark.parametrize("text", ["short", "混合 mixed 文本 text"])
def test_cache_returns_same_value(text: str) -> None:
    assert count_tokens(text) == count_tokens(text)
