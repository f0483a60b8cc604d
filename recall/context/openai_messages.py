"""An OpenAI-format message added to a session: a user turn, an assistant reply with its
tool calls, or a tool's result (moved out of :mod:`recall.context.session`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..errors import InputError

if TYPE_CHECKING:
    from .session import Session

__all__ = ["add_openai_message"]


def add_openai_message(session: Session, message: Mapping[str, Any]) -> None:
    """Append ``message`` (user, assistant with tool calls, or tool) to ``session``."""
    if not isinstance(message, Mapping):
        raise InputError(f"a message must be a dict, got {type(message).__name__}")
    role = message.get("role")
    if role == "user":
        session.add_user(message.get("content"))  # type: ignore[arg-type]
    elif role == "assistant":
        if message.get("content") is not None or not message.get("tool_calls"):
            session.add_assistant(message.get("content"))  # type: ignore[arg-type]
        for call in message.get("tool_calls") or ():
            fn = call.get("function") if isinstance(call, Mapping) else None
            if not isinstance(fn, Mapping):
                raise InputError("a tool call needs 'id' and 'function' (OpenAI format)")
            session.add_tool_use(fn.get("name"), fn.get("arguments", ""), call.get("id"))  # type: ignore[arg-type]
    elif role == "tool":
        session.add_tool_result(message.get("tool_call_id"), message.get("content"))  # type: ignore[arg-type]
    else:
        raise InputError(
            f"role {role!r} does not belong in a session: use user, assistant or tool "
            "(the system prompt is the builder's soul)"
        )
