"""The conversation's language, and the texts recall shows in it.

Everything the context manager says to the user follows the conversation's language
(:func:`conversation_language`): the usage levels and the compaction's completion
(:mod:`recall.context.usage`), and the deep-recall prompt and proposal a host gives its model
(:func:`deep_recall_prompt`, :func:`proposal_text`), in Chinese the product documents' own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from itertools import islice
from typing import Any, Literal

from ..text.tokenize import has_cjk
from .proposal import DEEP_RECALL_PROMPT_EN, DEEP_RECALL_PROMPT_ZH, PROPOSAL_EN, PROPOSAL_ZH

__all__ = ["Lang", "conversation_language", "deep_recall_prompt", "proposal_text"]

#: The language a message is shown in: the conversation's (:func:`conversation_language`).
Lang = Literal["en", "zh"]

#: The user's messages read for the conversation's language: the last few.
_RECENT = 6
_LATIN_WORD = re.compile(r"[A-Za-z]+")


def conversation_language(messages: Sequence[Mapping[str, Any]]) -> Lang:
    """``zh`` when the user's last few messages hold at least as many Chinese characters
    as Latin words (a Chinese message quoting an English error is still Chinese), else
    ``en``: the language the context manager speaks to them in."""
    # From the end: a long history is not read past its last few user messages.
    users = (m.get("content") for m in reversed(messages) if m.get("role") == "user")
    said = list(islice(users, _RECENT))
    text = " ".join(c if isinstance(c, str) else _text_of(c) for c in said)
    cjk = sum(has_cjk(ch) for ch in text)
    return "zh" if cjk and cjk >= len(_LATIN_WORD.findall(text)) else "en"


def _text_of(content: object) -> str:
    """The text parts of a message's content blocks (``[{"type": "text", "text": ...}]``)."""
    if not isinstance(content, list):
        return ""
    return " ".join(
        str(b.get("text", "")) for b in content if isinstance(b, dict) and b.get("type") == "text"
    )


def _lang(conversation: str | Sequence[Mapping[str, Any]]) -> Lang:
    if isinstance(conversation, str):
        conversation = [{"role": "user", "content": conversation}]
    return conversation_language(conversation)


def deep_recall_prompt(conversation: str | Sequence[Mapping[str, Any]] = ()) -> str:
    """The system-prompt text that tells the model when to call ``deep_recall``, in the
    language of ``conversation`` (its messages, or the user's turn): ``DEEP_RECALL_PROMPT_ZH``
    or ``DEEP_RECALL_PROMPT_EN``."""
    return DEEP_RECALL_PROMPT_ZH if _lang(conversation) == "zh" else DEEP_RECALL_PROMPT_EN


def proposal_text(conversation: str | Sequence[Mapping[str, Any]] = ()) -> str:
    """The one-sentence proposal to recall more deeply, in the language of ``conversation``:
    "关于这个，我需要深度回忆一下，可以吗？" or "I need a moment to recall more deeply — may I?"."""
    return PROPOSAL_ZH if _lang(conversation) == "zh" else PROPOSAL_EN
