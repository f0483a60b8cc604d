"""The deep_recall function-calling tool: its schema and its dispatcher (its trigger
phrases: :mod:`recall.triggers`, re-exported here).

Deep recall is explicit (docs/design.md): the model calls it when the user asks it to
remember ("你仔细想想", "帮我回忆一下", "try to remember") or when it proposes, honestly, to
take a moment to dig into the history. The schema is derived from one pydantic model.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC
from functools import cache
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from .errors import ConfigError, InputError, RecallError
from .models import Hit, validation_message
from .settings import RetrievalSettings, Settings
from .tool_shapes import anthropic_tool, chat_tool, parse_call, responses_tool, tool_result
from .tool_text import Lang, deep_recall_text
from .triggers import wants_deep_recall

__all__ = [
    "DEEP_RECALL_TOOL",
    "DEEP_RECALL_TOOL_ANTHROPIC",
    "DEEP_RECALL_TOOL_RESPONSES",
    "DeepRecallArgs",
    "Lang",
    "NOTHING_RELEVANT",
    "Search",
    "args_model",
    "bound_top_k",
    "deep_recall_text",
    "deep_recall_tool",
    "handle_tool_call",
    "recall_content",
    "wants_deep_recall",
]

TOOL_NAME = "deep_recall"


def _environment_bounds() -> tuple[int, int, int]:
    # tool_max_top_k, default_top_k and max_query_chars as RECALL_* set them; a bad
    # environment leaves the defaults here (importing recall never fails on it) and
    # recall.open names the problem.
    try:
        r = RetrievalSettings()
    except ConfigError:
        f = RetrievalSettings.model_fields
        return f["tool_max_top_k"].default, f["default_top_k"].default, f["max_query_chars"].default
    return r.tool_max_top_k, r.default_top_k, r.max_query_chars


#: (tool_max_top_k, default_top_k, max_query_chars) of the environment at import.
_BOUNDS = _environment_bounds()


def _query(max_chars: int) -> Any:
    return Field(
        min_length=1,
        max_length=max_chars,
        description=deep_recall_text("query"),
    )


def _top_k(most: int, default: int) -> Any:
    return Field(
        min(default, most),
        ge=1,
        le=most,
        description=deep_recall_text("top_k", most=most),
    )


class DeepRecallArgs(BaseModel):
    """Arguments of the deep_recall tool; ``top_k`` up to ``tool_max_top_k`` (default
    ``default_top_k``) and ``query`` up to ``max_query_chars``, as the environment set them
    at import (:func:`args_model` for other settings).
    """

    model_config = ConfigDict(extra="forbid")

    query: str = _query(_BOUNDS[2])
    top_k: int = _top_k(*_BOUNDS[:2])
    depth: Literal["recent", "archive"] | None = Field(
        None,
        description=deep_recall_text("depth"),
    )
    since: str | None = Field(
        None,
        max_length=40,
        description=deep_recall_text("since"),
    )
    until: str | None = Field(
        None,
        max_length=40,
        description=deep_recall_text("until"),
    )


@cache
def _bounded(most: int, default: int, max_chars: int) -> type[DeepRecallArgs]:
    if (most, default, max_chars) == _BOUNDS:
        return DeepRecallArgs
    return create_model(
        "DeepRecallArgs",
        __base__=DeepRecallArgs,
        __doc__=DeepRecallArgs.__doc__,
        query=(str, _query(max_chars)),
        top_k=(int, _top_k(most, default)),
    )


def args_model(settings: Settings | None = None) -> type[DeepRecallArgs]:
    """The tool's arguments with ``top_k`` bounded by ``settings.retrieval.tool_max_top_k``
    (its default ``default_top_k``) and ``query`` by ``max_query_chars``; without
    ``settings``, :class:`DeepRecallArgs`."""
    if settings is None:
        return DeepRecallArgs
    r = settings.retrieval
    return _bounded(r.tool_max_top_k, r.default_top_k, r.max_query_chars)


def bound_top_k(top_k: int, settings: Settings, *, given: bool = True) -> int:
    """``top_k`` within ``settings.retrieval.tool_max_top_k``, for callers whose schema was
    bound by the environment at import (MCP, REST): a value the client ``given`` over the
    bound is an :class:`InputError`; the schema's default is lowered to the bound."""
    most = settings.retrieval.tool_max_top_k
    if top_k <= most:
        return top_k
    if given:
        raise InputError(f"top_k must be at most {most} (tool_max_top_k), got {top_k}")
    return most


def _schema(args: type[DeepRecallArgs], lang: Lang | None = None) -> dict[str, Any]:
    schema = args.model_json_schema()
    schema.pop("title", None)
    schema.pop("description", None)
    for name, prop in schema["properties"].items():
        prop.pop("title", None)
        if lang is not None:
            prop["description"] = deep_recall_text(name, lang, most=prop.get("maximum", 0))
    schema["additionalProperties"] = False
    return schema


_SHAPES = {"chat": chat_tool, "responses": responses_tool, "anthropic": anthropic_tool}


def deep_recall_tool(
    settings: Settings | None = None,
    *,
    api: Literal["chat", "responses", "anthropic"] = "chat",
    lang: Lang | None = None,
) -> dict[str, Any]:
    """The deep_recall tool for ``api`` (Chat Completions, Responses, Anthropic Messages),
    ``top_k`` bounded by ``settings`` (``tools=[recall.tool.deep_recall_tool(mem.settings)]``);
    without ``settings``, the environment's, as in :data:`DEEP_RECALL_TOOL`. Its words in
    ``lang`` ("en", "zh"); without it, in both (English first), as in
    :data:`DEEP_RECALL_TOOL`."""
    schema = _schema(args_model(settings), lang)
    return _SHAPES[api](TOOL_NAME, deep_recall_text("description", lang), schema)


#: The tool in OpenAI Chat Completions "tools" format: ``tools=[recall.DEEP_RECALL_TOOL]``.
#: ``top_k`` is bounded by ``RECALL_TOOL_MAX_TOP_K`` as set when recall was imported.
DEEP_RECALL_TOOL: dict[str, Any] = deep_recall_tool()
#: The same tool for the OpenAI Responses API and the OpenAI Agents SDK.
DEEP_RECALL_TOOL_RESPONSES: dict[str, Any] = deep_recall_tool(api="responses")
#: The same tool for Anthropic's Messages API.
DEEP_RECALL_TOOL_ANTHROPIC: dict[str, Any] = deep_recall_tool(api="anthropic")


#: What a result without hits says instead.
NOTHING_RELEVANT = "nothing relevant found in memory; tell the user you do not remember"


def recall_content(query: str, hits: Sequence[Hit]) -> dict[str, Any]:
    """What a model reads of deep_recall's ``hits``: each hit's id, text, kind, the date it
    was said and its score (rounded), under ``"hits"`` (as REST answers); the note when
    there are none.

    One shape for every face a model calls (:func:`handle_tool_call`, the MCP tool), so
    they cannot drift apart; the per-leg scores stay with REST and ``Memory.explain``.
    """
    content: dict[str, Any] = {
        "query": query,
        "hits": [
            {
                "id": h.id,
                "text": h.text,
                "kind": h.kind,
                # When it was said, as a date: what the model weighs (which is newer).
                "date": h.created_at.astimezone(UTC).date().isoformat(),
                "score": round(h.score, 4),
            }
            for h in hits
        ],
    }
    if not hits:  # the relevance floor left nothing: say so, so the model does not guess
        content["note"] = NOTHING_RELEVANT
    return content


class Search(Protocol):
    """What the tool searches with: ``Memory.deep_recall`` for a user already validated."""

    def __call__(
        self,
        query: str,
        *,
        top_k: int,
        depth: str | None = None,
        since: str | None = None,
        until: str | None = None,
    ) -> Sequence[Hit]: ...


def handle_tool_call(
    search: Search, tool_call: Any, *, settings: Settings | None = None
) -> dict[str, Any]:
    """Run a ``deep_recall`` tool call with ``search`` and return the result to append.

    ``tool_call`` is a Chat Completions tool call, a Responses ``function_call`` item or an
    Anthropic ``tool_use`` block (the SDK object or its dict form); the result comes in the
    matching shape (:mod:`recall.tool_shapes`). Every problem the model can cause (wrong
    tool, malformed JSON, bad arguments, a query the memory rejects) comes back as a result
    with an ``error`` the model can read and correct. The host's ``user_id`` is bound into
    ``search`` and validated by the caller (:meth:`recall.Memory.handle_tool_call` raises
    ``InputError`` for a bad one). ``top_k`` is bounded as in :func:`args_model`.
    """
    call = parse_call(tool_call)
    name, raw = call.name, call.arguments
    if name != TOOL_NAME:
        return tool_result(
            call, {"error": f"unknown tool {name!r}; the memory tool is {TOOL_NAME!r}"}
        )
    try:
        data = json.loads(raw) if isinstance(raw, str | bytes) else raw
    except (ValueError, RecursionError) as exc:
        # A model controls these bytes: bad JSON, bytes that are not UTF-8, a number of
        # 5,000 digits, nesting 100,000 deep. Each is a message it can act on, never a crash.
        why = exc.msg if isinstance(exc, json.JSONDecodeError) else type(exc).__name__
        return tool_result(
            call, {"error": f'arguments are not valid JSON ({why}); send {{"query": "..."}}'}
        )
    try:
        args = args_model(settings).model_validate(data if data is not None else {})
    except ValidationError as exc:
        return tool_result(call, {"error": validation_message(exc, "arguments")})
    try:
        hits = search(
            args.query, top_k=args.top_k, depth=args.depth, since=args.since, until=args.until
        )
    except InputError as exc:
        return tool_result(call, {"error": str(exc)})
    except RecallError as exc:
        return tool_result(call, {"error": f"memory unavailable: {exc}"})
    content = recall_content(args.query, hits)
    return tool_result(call, content)
