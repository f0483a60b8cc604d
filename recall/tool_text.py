"""The deep_recall tool's words in English and in Chinese: its description and each
argument's. The library's tool (:data:`recall.DEEP_RECALL_TOOL`) says both, English first;
``recall.tool.deep_recall_tool(lang=...)`` and the MCP server (``recall serve --lang``) one.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["Lang", "TEXT", "deep_recall_text"]

#: Which language a tool's text is in: English or Chinese.
Lang = Literal["en", "zh"]

#: The tool's words in each language: its description and each argument's (``top_k``'s
#: takes the bound as ``{most}``). The library's tool says both, English first; the MCP
#: server one language (``recall serve --lang``), in :func:`deep_recall_text`.
TEXT: dict[Lang, dict[str, str]] = {
    "en": {
        "description": (
            "Search the user's long-term memory (past conversation summaries and the "
            "evolving profile) with hybrid keyword + semantic search. Call it only when the "
            "user explicitly asks you to remember or think back (e.g. 'try to remember', 'do "
            "you remember'), or when you have proposed to the user to take a moment to dig "
            "into your shared history and the question matters. Do not call it for every turn."
        ),
        "query": "What to look for, as a short question or keywords in the user's language.",
        "top_k": "How many memories to return (1-{most}).",
        "depth": (
            "'recent': recent conversation summaries and the user's profile; 'archive': also "
            "older, promoted conversations word for word. Leave it out for the default."
        ),
        "since": (
            "Only memories said on or after this ISO date (YYYY-MM-DD), when the user asks "
            "about a time ('last week': the Monday of last week). Leave it out otherwise."
        ),
        "until": "Only memories said on or before this ISO date (YYYY-MM-DD), inclusive.",
    },
    "zh": {
        "description": (
            "检索用户的长期记忆（过往对话摘要与动态档案），关键词与语义混合检索。仅在用户明确要求你回忆"
            "（如“你仔细想想”“帮我回忆一下”）或你主动提议深入回忆且问题重要时调用；不要每轮都调用。"
        ),
        "query": "要回忆的内容：简短的问题或关键词，使用用户的语言。",
        "top_k": "返回条数（1-{most}）。",
        "depth": "'recent' 只查近期摘要与档案；'archive' 还查更早的对话原文。一般不填。",
        "since": "只查这一天（YYYY-MM-DD）及以后说过的内容；用户问到某段时间时才填。",
        "until": "只查这一天（含）及以前说过的内容。",
    },
}


def deep_recall_text(name: str, lang: Lang | None = None, *, most: int = 0) -> str:
    """The tool's description (``name="description"``) or an argument's, in ``lang``;
    ``None``: both, English first (the library's tool)."""
    if lang is None:
        both = (deep_recall_text(name, one, most=most) for one in TEXT)
        return " / ".join(both)
    return TEXT[lang][name].format(most=most)
