"""The deep_recall function-calling tool: its schema, its dispatcher, its trigger phrases.

Deep recall is explicit (docs/design.md): the model calls it when the user asks it to
remember ("你仔细想想", "帮我回忆一下", "try to remember") or when it proposes, honestly, to
take a moment to dig into the history. The schema is derived from one pydantic model.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import InputError, RecallError
from .models import Hit, validation_message

__all__ = [
    "DEEP_RECALL_TOOL",
    "DeepRecallArgs",
    "Search",
    "handle_tool_call",
    "wants_deep_recall",
]

TOOL_NAME = "deep_recall"

_DESCRIPTION = (
    "Search the user's long-term memory (past conversation summaries and the evolving "
    "profile) with hybrid keyword + semantic search. Call it only when the user explicitly "
    "asks you to remember or think back (e.g. 'try to remember', 'do you remember', "
    "'你仔细想想', '帮我回忆一下'), or when you have proposed to the user to take a moment to "
    "dig into your shared history and the question matters. Do not call it for every turn. "
    "/ 检索用户的长期记忆（过往对话摘要与动态档案），关键词与语义混合检索。仅在用户明确要求你回忆"
    "（如“你仔细想想”“帮我回忆一下”）或你主动提议深入回忆且问题重要时调用；不要每轮都调用。"
)


class DeepRecallArgs(BaseModel):
    """Arguments of the deep_recall tool."""

    model_config = ConfigDict(extra="forbid")

    query: str = Field(
        min_length=1,
        max_length=10_000,
        description=(
            "What to look for, as a short question or keywords in the user's language. "
            "/ 要回忆的内容：简短的问题或关键词，使用用户的语言。"
        ),
    )
    top_k: int = Field(
        8, ge=1, le=50, description="How many memories to return (1-50). / 返回条数。"
    )


def _schema() -> dict[str, Any]:
    schema = DeepRecallArgs.model_json_schema()
    schema.pop("title", None)
    schema.pop("description", None)
    for prop in schema["properties"].values():
        prop.pop("title", None)
    schema["additionalProperties"] = False
    return schema


#: The tool in OpenAI "tools" format: pass ``tools=[recall.DEEP_RECALL_TOOL]``.
DEEP_RECALL_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {"name": TOOL_NAME, "description": _DESCRIPTION, "parameters": _schema()},
}


def _field(obj: Any, name: str) -> Any:
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


def _tool_message(call_id: str, content: dict[str, Any]) -> dict[str, Any]:
    return {
        "role": "tool",
        "tool_call_id": call_id,
        "content": json.dumps(content, ensure_ascii=False),
    }


class Search(Protocol):
    """What the tool searches with: ``Memory.deep_recall`` for a user already validated."""

    def __call__(self, query: str, *, top_k: int) -> Sequence[Hit]: ...


def handle_tool_call(search: Search, tool_call: Any) -> dict[str, Any]:
    """Run a ``deep_recall`` tool call with ``search`` and return the tool message to append.

    ``tool_call`` is the OpenAI SDK object (``ChatCompletionMessageToolCall``) or its dict
    form. Every problem the model can cause (wrong tool, malformed JSON, bad arguments, a
    query the memory rejects) comes back as a tool message with an ``error`` the model can
    read and correct. The host's ``user_id`` is bound into ``search`` and validated by the
    caller (:meth:`recall.Memory.handle_tool_call` raises ``InputError`` for a bad one).
    """
    call_id = str(_field(tool_call, "id") or "")
    function = _field(tool_call, "function")
    name = _field(function, "name") if function is not None else None
    raw = _field(function, "arguments") if function is not None else None
    if name != TOOL_NAME:
        return _tool_message(
            call_id, {"error": f"unknown tool {name!r}; the memory tool is {TOOL_NAME!r}"}
        )
    try:
        data = json.loads(raw) if isinstance(raw, str | bytes) else raw
        args = DeepRecallArgs.model_validate(data if data is not None else {})
    except json.JSONDecodeError as exc:
        return _tool_message(
            call_id,
            {"error": f'arguments are not valid JSON ({exc.msg}); send {{"query": "..."}}'},
        )
    except ValidationError as exc:
        return _tool_message(call_id, {"error": validation_message(exc, "arguments")})
    try:
        hits = search(args.query, top_k=args.top_k)
    except InputError as exc:
        return _tool_message(call_id, {"error": str(exc)})
    except RecallError as exc:
        return _tool_message(call_id, {"error": f"memory unavailable: {exc}"})
    return _tool_message(
        call_id,
        {
            "query": args.query,
            "results": [
                {
                    "id": h.id,
                    "text": h.text,
                    "kind": h.kind,
                    "date": h.created_at.isoformat(),
                    "score": round(h.score, 4),
                }
                for h in hits
            ],
        },
    )


_TRIGGERS = re.compile(
    "|".join(
        [
            # Chinese: explicit requests to think back / remember.
            r"仔细想想",
            r"好好想想",
            r"(帮我|你)?回忆(一下|下)",
            r"帮我回忆",
            r"(你)?还记得",
            r"记不记得",
            r"想一想(我们)?(之前|上次|以前)",
            r"(之前|上次|以前)(我们)?(说|聊|讨论|提)(过|到)的",
            # English.
            r"\btry\s+(hard\s+)?to\s+remember\b",
            r"\bdo\s+you\s+(still\s+)?remember\b",
            r"\b(can|could)\s+you\s+(recall|remember)\b",
            r"\bthink\s+back\b",
            r"\bremind\s+me\s+what\b",
            r"\bwhat\s+did\s+(we|i)\s+(say|decide|discuss|agree)\b",
            r"\bdig\s+into\s+(our|the|your)\s+(history|memory|past)\b",
        ]
    ),
    re.IGNORECASE,
)


def wants_deep_recall(text: str) -> bool:
    """True when ``text`` holds an explicit request to remember (zh or en)."""
    return isinstance(text, str) and _TRIGGERS.search(text) is not None
