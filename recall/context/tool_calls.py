"""Tool calls in a session's history: each call and result as it is stored, and which wait.

Tool calls are first-class history, cut visibly: a call's input at ``tool_input_chars``
characters, a result at ``tool_result_chars``, except a deep_recall result, which is fitted
to ``recall_budget_tokens`` with its best hits kept (it is the same material as the
``<recall>`` section, so it gets the same budget).
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import InputError
from ..models import require_text
from ..settings import Settings
from ..text import Count
from ..tool import TOOL_NAME
from .budget import fit_recall_json, truncate_chars

__all__ = ["ToolCalls"]


class ToolCalls:
    """Every tool call a session has seen, by id, and those still waiting for a result."""

    def __init__(self) -> None:
        self._names: dict[str, str] = {}  # tool_use_id -> tool name, every call ever seen
        self._pending: list[str] = []  # calls of the last assistant message without a result

    @property
    def pending(self) -> tuple[str, ...]:
        """Ids of the calls still waiting for their result, oldest first."""
        return tuple(self._pending)

    def require_none_pending(self, what: str) -> None:
        """Raise an InputError when a call still waits: ``what`` may not come before it."""
        if self._pending:
            ids = ", ".join(repr(i) for i in self._pending)
            raise InputError(
                f"tool call(s) {ids} have no result yet; add_tool_result(...) before {what}"
            )

    def call(self, name: str, arguments: Any, tool_use_id: str, input_chars: int) -> dict[str, Any]:
        """A new call as an OpenAI ``tool_calls`` entry, ``arguments`` cut at ``input_chars``.

        Checks only: the call waits once :meth:`open` records it.
        """
        name = require_text(name, "tool name")
        tool_use_id = require_text(tool_use_id, "tool_use_id")
        if not name.strip() or not tool_use_id.strip():
            raise InputError("tool name and tool_use_id must be non-empty strings")
        if tool_use_id in self._names:
            raise InputError(f"tool_use_id {tool_use_id!r} is already used; give each call its own")
        if isinstance(arguments, str):
            args = arguments
        else:
            try:
                args = json.dumps(arguments, ensure_ascii=False)
            except (TypeError, ValueError) as exc:
                raise InputError(f"tool input must be JSON-serializable ({exc})") from exc
        return {
            "id": tool_use_id,
            "type": "function",
            "function": {"name": name, "arguments": truncate_chars(args, input_chars)},
        }

    def open(self, call: dict[str, Any]) -> None:
        """Record ``call`` (from :meth:`call`), now waiting for its result."""
        self._names[call["id"]] = call["function"]["name"]
        self._pending.append(call["id"])

    def result(
        self, tool_use_id: str, content: str, settings: Settings, count: Count
    ) -> dict[str, Any]:
        """The tool message answering a waiting call, its content within its budget; the
        call no longer waits."""
        tool_use_id = require_text(tool_use_id, "tool_use_id")
        content = require_text(content, "tool result content")
        if tool_use_id not in self._names:
            raise InputError(
                f"no tool call with id {tool_use_id!r}; call add_tool_use(name, input, "
                f"{tool_use_id!r}) first"
            )
        if tool_use_id not in self._pending:
            raise InputError(f"tool call {tool_use_id!r} already has its result")
        if self._names[tool_use_id] == TOOL_NAME:
            content = fit_recall_json(content, settings.context.recall_budget_tokens, count)
        else:
            content = truncate_chars(content, settings.context.tool_result_chars)
        self._pending.remove(tool_use_id)
        return {"role": "tool", "tool_call_id": tool_use_id, "content": content}
