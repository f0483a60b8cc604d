"""The three wire shapes of a function tool: its definition, a call, and the call's result.

One JSON schema (from one pydantic model, :mod:`recall.tool`) becomes the tool of each API:

* Chat Completions: the model calls with ``{"id", "type": "function", "function": {"name",
  "arguments": "<json>"}}``; the host answers ``{"role": "tool", "tool_call_id", "content"}``.
* Responses API and the OpenAI Agents SDK: ``{"type": "function_call", "call_id", "name",
  "arguments": "<json>"}``, answered by ``{"type": "function_call_output", "call_id",
  "output"}``.
* Anthropic Messages: ``{"type": "tool_use", "id", "name", "input": {...}}``, answered by
  ``{"type": "tool_result", "tool_use_id", "content"}`` (``is_error`` set on an error).

A call may be the SDK's object or its dict form; :func:`parse_call` reads either, and
:func:`tool_result` answers in the shape the call came in.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

__all__ = [
    "ParsedCall",
    "Shape",
    "anthropic_tool",
    "chat_tool",
    "parse_call",
    "responses_tool",
    "tool_result",
]

#: Which API a call came from: Chat Completions, Responses (and the Agents SDK), Anthropic.
Shape = Literal["chat", "responses", "anthropic"]


def chat_tool(name: str, description: str, parameters: dict[str, Any]) -> dict[str, Any]:
    """The tool for Chat Completions' ``tools=[...]``."""
    return {
        "type": "function",
        "function": {"name": name, "description": description, "parameters": parameters},
    }


def responses_tool(name: str, description: str, parameters: dict[str, Any]) -> dict[str, Any]:
    """The function tool for the Responses API and the OpenAI Agents SDK.

    ``strict`` is off: strict mode would make every field required, and ``top_k``/``depth``
    are optional by design (the Responses API turns it on when it is left out).
    """
    return {
        "type": "function",
        "name": name,
        "description": description,
        "parameters": parameters,
        "strict": False,
    }


def anthropic_tool(name: str, description: str, parameters: dict[str, Any]) -> dict[str, Any]:
    """The tool for Anthropic's Messages API (``tools=[...]``)."""
    return {"name": name, "description": description, "input_schema": parameters}


@dataclass(frozen=True)
class ParsedCall:
    """A tool call of any shape, read: its id, the tool's name, the raw arguments."""

    shape: Shape
    call_id: str
    name: str | None
    #: A JSON string (OpenAI shapes), a dict (Anthropic), or None when absent.
    arguments: Any


def _field(obj: Any, name: str) -> Any:
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


def parse_call(tool_call: Any) -> ParsedCall:
    """Read a Chat Completions tool call, a Responses ``function_call`` item or an
    Anthropic ``tool_use`` block (SDK object or dict). Never raises: what is missing comes
    back as None, and the caller words the error for the model."""
    kind = _field(tool_call, "type")
    if kind == "tool_use" or (kind is None and _field(tool_call, "input") is not None):
        return _read("anthropic", tool_call, "id", tool_call, "input")
    if kind == "function_call" or (kind is None and _field(tool_call, "call_id") is not None):
        return _read("responses", tool_call, "call_id", tool_call, "arguments")
    return _read("chat", tool_call, "id", _field(tool_call, "function"), "arguments")


def _read(shape: Shape, tool_call: Any, id_field: str, holder: Any, arguments: str) -> ParsedCall:
    """``tool_call`` read as ``shape``: its id from ``id_field``, the tool's name and its
    ``arguments`` field from ``holder`` (the call itself, or a chat call's ``function``;
    None when it has none: every field None)."""
    call_id = str(_field(tool_call, id_field) or "")
    return ParsedCall(shape, call_id, _field(holder, "name"), _field(holder, arguments))


def tool_result(call: ParsedCall, content: dict[str, Any]) -> dict[str, Any]:
    """The result to append for ``call``, in its shape; ``content`` goes as JSON text.

    A ``content`` holding ``"error"`` is flagged ``is_error`` where the API has the flag
    (Anthropic); the OpenAI shapes carry the error in the text alone.
    """
    text = json.dumps(content, ensure_ascii=False)
    if call.shape == "anthropic":
        out: dict[str, Any] = {"type": "tool_result", "tool_use_id": call.call_id, "content": text}
        if "error" in content:
            out["is_error"] = True
        return out
    if call.shape == "responses":
        return {"type": "function_call_output", "call_id": call.call_id, "output": text}
    return {"role": "tool", "tool_call_id": call.call_id, "content": text}
