"""Text: keyword tokens, analyzers, sentences and passages, and token counting.

Everything above this layer imports these names from ``recall.text``.
"""

from .analyzer import Analyzer
from .passages import split_passages, split_sentences
from .tokenize import BASE_TOKENIZER, CJK_CHARS, has_cjk, tokenize
from .tokens import Count, count_tokens, estimate_tokens, exact_counter, message_tokens

__all__ = [
    "Analyzer",
    "BASE_TOKENIZER",
    "CJK_CHARS",
    "Count",
    "count_tokens",
    "estimate_tokens",
    "exact_counter",
    "has_cjk",
    "message_tokens",
    "split_passages",
    "split_sentences",
    "tokenize",
]
