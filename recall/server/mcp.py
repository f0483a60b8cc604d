"""The MCP server: recall's tools for any agent host (Claude Desktop, Cursor, the Agents SDK).

Built on the official SDK's ``MCPServer``. Thirteen tools, each described so that the model
knows when to call it, annotated for the host (read-only, destructive, idempotent:
:mod:`.mcp_hints`) and taking ``user_id``: the five here, the corrections
(:mod:`.mcp_corrections`) and the read-only views (:mod:`.mcp_browse`). A server advertises
the ``agent`` set by default (deep_recall, remember, forget: every tool definition is in
the model's prompt on every turn), or ``all``; in one language, English or Chinese
(:mod:`.mcp_text`), each input schema strict-compatible. Every answer is
one line of JSON; ``deep_recall``'s holds what ``Memory.handle_tool_call`` gives a model
(:func:`recall.tool.recall_content`). One prompt, ``use_memory``, tells a model how to use
the tools. Two read-only resources for operators, ``recall://stats`` and
``recall://check``, with no filesystem path in them. Over HTTP the API key's tenant is
checked on every call (a tool answers an error the model can read; a resource read by a
non-operator key is refused); over stdio the host that started the process is trusted.

A server started for one user (``--user u1``, ``default_user``) serves that user only: its
tools do not advertise ``user_id`` and act on that user; one sent anyway naming any other
user is refused (a model talked into ``user_id="victim"`` gets a tool error, not victim's
memory), and the resources count that user alone.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal, TypeVar

from mcp.server import MCPServer
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_REQUEST, CallToolResult, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field

from .. import LongTerm, UpdateResult, __version__
from ..errors import RecallError
from ..memory import Memory
from ..models import require_user_id
from ..tool import DeepRecallArgs, Lang, recall_content
from .activity import ActivityLog, mcp_recorder
from .aio import AsyncMemory
from .auth import ApiKeys, key_from_headers
from .mcp_browse import QUERY, browse_tools, built_search
from .mcp_corrections import UserId, correction_tools
from .mcp_hints import (
    ADDS,
    AGENT_TOOLS,
    ERASES,
    READS,
    ToolSet,
    add_use_memory_prompt,
    compact,
    instructions,
)
from .mcp_text import advertised, describe
from .schemas import CompactRecall, DeletedResponse, RelevantResponse

__all__ = ["ChatMessage", "build_mcp", "folder_stats", "index_check", "served_stats"]

_T = TypeVar("_T")
_ARGS = DeepRecallArgs.model_fields


class ChatMessage(BaseModel):
    """One chat message for ``remember``: who said it and what (strict: nothing else)."""

    model_config = ConfigDict(extra="forbid")

    role: Literal["user", "assistant", "system", "tool"]
    content: str


def folder_stats(memory: Memory, only: str | None = None) -> dict[str, Any]:
    """:meth:`recall.Memory.stats` without the folder's path (a tenant has no business with
    the server's filesystem); ``only``: the figures of that user alone."""
    if only is None:
        stats = memory.stats()
        stats.pop("path", None)
        return stats
    state = memory.index_state(only)
    row = state.users[0] if state.users else None
    return {
        "spec": state.spec,
        "fingerprint": state.fingerprint,
        "users": int(row is not None),
        "records": row.records if row else 0,
        "kinds": row.kinds if row else {},
        "lagging_users": int(row is not None and row.lagging),
    }


def served_stats(memory: Memory, only: str | None = None) -> dict[str, Any]:
    """REST's ``/v1/stats``: :meth:`recall.Memory.stats` (the operator's, the folder's path
    included), or on a server pinned to ``only``, :func:`folder_stats` of that user alone."""
    return memory.stats() if only is None else folder_stats(memory, only)


def index_check(memory: Memory, only: str | None = None) -> dict[str, Any]:
    """Per user: records, store version, the version the vector index reflects, lagging
    (``only``: that user alone, when it holds memory)."""
    state = memory.index_state(only)
    users = [
        {
            "user_id": row.user_id,
            "records": row.records,
            "version": row.version,
            "index_version": row.index_version,
            "lagging": row.lagging,
        }
        for row in state.users
    ]
    return {"spec": state.spec, "fingerprint": state.fingerprint, "users": users}


class _Tools:
    """The tool, resource and middleware functions over one memory and one key set."""

    def __init__(self, amem: AsyncMemory, default_user: str | None, keys: ApiKeys | None) -> None:
        self.amem = amem
        self.default_user = default_user
        self.keys = keys

    def user(self, ctx: Context, user_id: str | None) -> str:
        uid = user_id if user_id is not None else self.default_user
        if uid is None:
            raise ToolError("user_id is required: name whose memory this is")
        try:
            uid = require_user_id(uid)
            if self.keys is not None and ctx.headers is not None:
                self.keys.check(key_from_headers(ctx.headers), uid)
        except RecallError as exc:
            raise ToolError(str(exc)) from exc
        if self.default_user is not None and uid != self.default_user:
            # A pin, not a default: a model talked into naming another user gets nothing.
            raise ToolError(
                f"this server serves user {self.default_user!r} only (started with --user "
                f"{self.default_user}); user_id {uid!r} is refused: leave user_id out"
            )
        return uid

    @staticmethod
    async def answer(call: Awaitable[_T]) -> _T:
        # A library error is the model's to read and correct, not a crash of the server.
        try:
            return await call
        except RecallError as exc:
            raise ToolError(str(exc)) from exc
        except TimeoutError as exc:
            raise ToolError("the memory call timed out; try again, or narrow it") from exc

    async def deep_recall(
        self,
        query: Annotated[str, QUERY],
        ctx: Context,
        user_id: UserId = None,
        top_k: Annotated[int, _ARGS["top_k"]] = _ARGS["top_k"].default,
        depth: Annotated[Literal["recent", "archive"] | None, _ARGS["depth"]] = None,
        since: Annotated[str | None, _ARGS["since"]] = None,
        until: Annotated[str | None, _ARGS["until"]] = None,
    ) -> Annotated[CallToolResult, CompactRecall]:
        uid = self.user(ctx, user_id)
        request = await built_search(self, uid, query, top_k, depth, (since, until))
        # What handle_tool_call gives a model, under "hits" as REST answers.
        return compact(recall_content(query, await self.answer(self.amem.deep_recall(request))))

    async def remember(
        self,
        ctx: Context,
        user_id: UserId = None,
        summary: Annotated[str | None, Field(None, min_length=1)] = None,
        messages: Annotated[list[ChatMessage] | None, Field(None, min_length=1)] = None,
    ) -> Annotated[CallToolResult, UpdateResult]:
        uid = self.user(ctx, user_id)
        if (summary is None) == (messages is None):
            raise ToolError("send exactly one of summary and messages")
        states: str | list[dict[str, Any]] = (
            summary if summary is not None else [m.model_dump() for m in messages or ()]
        )
        return compact(await self.answer(self.amem.update_memory(states, user_id=uid)))

    async def get_relevant_memories(
        self,
        user_input: Annotated[str, Field(min_length=1)],
        ctx: Context,
        user_id: UserId = None,
        max_tokens: Annotated[int | None, Field(None, ge=0)] = None,
    ) -> Annotated[CallToolResult, RelevantResponse]:
        uid = self.user(ctx, user_id)
        call = self.amem.get_relevant_memories(user_input, user_id=uid, max_tokens=max_tokens)
        return compact(RelevantResponse(text=await self.answer(call)))

    async def forget(
        self,
        ids: Annotated[list[str], Field(min_length=1)],
        ctx: Context,
        user_id: UserId = None,
    ) -> Annotated[CallToolResult, DeletedResponse]:
        uid = self.user(ctx, user_id)
        deleted = await self.answer(self.amem.delete(ids, user_id=uid))
        return compact(DeletedResponse(deleted=deleted))

    async def long_term(
        self,
        ctx: Context,
        user_id: UserId = None,
        version: Annotated[int | None, Field(None, ge=0)] = None,
    ) -> Annotated[CallToolResult, LongTerm]:
        uid = self.user(ctx, user_id)
        return compact(await self.answer(self.amem.long_term(uid, version)))

    async def stats(self) -> str:
        """Users, records per kind, index state of the served folder (operators)."""
        return json.dumps(await self.amem.run(folder_stats, self.amem.memory, self.default_user))

    async def check(self) -> str:
        """Per user: records, store version, indexed version, lagging (operators)."""
        return json.dumps(await self.amem.run(index_check, self.amem.memory, self.default_user))

    async def operators_only(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        # Static resources see no request; the folder-wide figures are for operator keys.
        headers = getattr(ctx.request, "headers", None)
        if ctx.method == "resources/read" and self.keys is not None and headers is not None:
            try:
                self.keys.require_operator(key_from_headers(headers))
            except RecallError as exc:
                raise MCPError(INVALID_REQUEST, str(exc)) from exc
        return await call_next(ctx)


def build_mcp(
    amem: AsyncMemory,
    *,
    default_user: str | None = None,
    keys: ApiKeys | None = None,
    tools: ToolSet = "agent",
    lang: Lang = "en",
    activity: ActivityLog | None = None,
) -> MCPServer[Any]:
    """The MCP server over ``amem``: the ``tools`` set described in ``lang``, the
    resources, and the tenant checks of ``keys``; pinned to ``default_user`` when given;
    each write, recall and correction recorded in ``activity`` when given."""
    checks = _Tools(amem, default_user, keys)
    every: list[tuple[Callable[..., Any], ToolAnnotations]] = [
        (checks.deep_recall, READS),
        (checks.remember, ADDS),
        (checks.get_relevant_memories, READS),
        (checks.forget, ERASES),
        (checks.long_term, READS),
        *correction_tools(checks),  # forget_fact, edit_fact, rollback
        *browse_tools(checks),  # browse_records, article_versions, article_diff, ...
    ]
    served = []
    for fn, hints in every:
        name = fn.__name__
        if tools == "agent" and name not in AGENT_TOOLS:
            continue
        tool = Tool.from_function(
            fn, name=name, description=describe(name, lang), annotations=hints
        )
        # The signature keeps user_id (one sent anyway is checked); the schema says the pin.
        tool.parameters = advertised(tool.parameters, name, lang, pinned=default_user is not None)
        query = tool.parameters["properties"].get("query")
        if query is not None and name in ("deep_recall", "explain_recall"):
            query["maxLength"] = amem.memory.settings.retrieval.max_query_chars
        served.append(tool)
    server: MCPServer[Any] = MCPServer(
        "recall",
        instructions=instructions(tools, lang),
        version=__version__,
        log_level="WARNING",
        tools=served,
    )
    add_use_memory_prompt(server, tools, lang)
    for read in (checks.stats, checks.check):
        uri = f"recall://{read.__name__}"
        server.resource(uri, name=read.__name__, mime_type="application/json")(read)
    server.middleware.append(checks.operators_only)
    if activity is not None:
        server.middleware.append(mcp_recorder(activity, keys, default_user))
    return server
