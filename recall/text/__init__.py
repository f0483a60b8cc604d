"""Text: keyword tokens, analyzers, sentences and passages, and token counting.

What a text says of the user (the cue-word slots, what supersedes what) is not here: it is
the model of the user, :mod:`recall.user`. :mod:`.stance` (closed grammatical classes:
assertion or not, the names a sentence holds) stays, as pure text that the index reads too.

Everything above this layer imports these names from ``recall.text``.
"""

from .analyzer import Analyzer
from .dates import parse_bound, said_on
from .passages import split_passages, split_sentences
from .tokenize import BASE_TOKENIZER, CJK_CHARS, has_cjk, tokenize
from .tokens import Count, count_tokens, estimate_tokens, exact_counter, message_tokens
from .when import Window as TimeWindow
from .when import resolve as resolve_time

__all__ = [
    "Analyzer",
    "BASE_TOKENIZER",
    "CJK_CHARS",
    "Count",
    "TimeWindow",
    "count_tokens",
    "estimate_tokens",
    "exact_counter",
    "has_cjk",
    "message_tokens",
    "parse_bound",
    "resolve_time",
    "said_on",
    "split_passages",
    "split_sentences",
    "tokenize",
]
