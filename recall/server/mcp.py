"""The MCP server: recall's tools for any agent host (Claude Desktop, Cursor, the Agents SDK).

Built on the official SDK's ``MCPServer``. Thirteen tools, each described so that the model
knows when to call it, annotated for the host (read-only, destructive, idempotent:
:mod:`.mcp_hints`) and taking ``user_id``: the five here, the corrections
(:mod:`.mcp_corrections`) and the read-only views (:mod:`.mcp_browse`). Every answer is
one line of JSON; ``deep_recall``'s holds what ``Memory.handle_tool_call`` gives a model
(:func:`recall.tool.recall_content`). One prompt, ``use_memory``, tells a model how to use
the tools. Two read-only resources for operators, ``recall://stats`` and
``recall://check``, with no filesystem path in them. Over HTTP the API key's tenant is
checked on every call (a tool answers an error the model can read; a resource read by a
non-operator key is refused); over stdio the host that started the process is trusted.

A server started for one user (``--user u1``, ``default_user``) serves that user only: the
tools act on it when ``user_id`` is left out and refuse any other (a model talked into
``user_id="victim"`` gets a tool error, not victim's memory), and the resources count that
user alone.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable
from typing import Annotated, Any, Literal, TypeVar

from mcp.server import MCPServer
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_REQUEST, CallToolResult
from pydantic import Field

from .. import LongTerm, UpdateResult, __version__
from ..errors import InputError, RecallError
from ..memory import Memory
from ..models import require_user_id
from ..tool import DEEP_RECALL_TOOL, DeepRecallArgs, bound_top_k, recall_content
from .aio import AsyncMemory
from .auth import ApiKeys, key_from_headers
from .mcp_browse import add_browse_tools
from .mcp_corrections import UserId, add_correction_tools
from .mcp_hints import ADDS, ERASES, READS, add_use_memory_prompt, compact
from .rest_browse import check_window
from .schemas import CompactRecall, DeletedResponse, RelevantResponse, RememberBody

__all__ = ["build_mcp", "folder_stats", "index_check"]

_T = TypeVar("_T")
_ARGS = DeepRecallArgs.model_fields
_BODY = RememberBody.model_fields

_INSTRUCTIONS = (
    "recall is this user's long-term memory. Call get_relevant_memories at the start of a "
    "turn for the profile and recent summaries; call deep_recall only when the user asks you "
    "to remember, or agrees to your proposal to dig; call remember when the conversation "
    "settles something worth keeping; forget only when the user asks, after confirming. The "
    "use_memory prompt says more."
)
_REMEMBER = (
    "Store what the conversation established in the user's memory, as a short-term summary "
    "(older ones are promoted into the long-term profile automatically). Call it when a "
    "decision, a preference or a fact about the user is settled, or at the end of a session. "
    "Pass either summary (stored as written) or messages (chat messages to summarize)."
)
_RELEVANT = (
    "The user's memory block for the prompt: the long-term profile (Bedrock, Evolutionary, "
    "Dynamic) and the recent summaries most relevant to the current turn, within a token "
    "budget. Cheap: call it once at the start of a turn. It does not search the archive; "
    "use deep_recall for that, and only when the user asks you to remember."
)
_FORGET = (
    "Delete records from the user's memory by id (the ids deep_recall returns). Call it "
    "only when the user asks you to forget something specific."
)
_LONG_TERM = (
    "Read the user's long-term article: Bedrock (stable facts), Evolutionary (how things "
    "changed), Dynamic (the current state). Leave version out for the newest."
)


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
        query: Annotated[str, _ARGS["query"]],
        ctx: Context,
        user_id: UserId = None,
        top_k: Annotated[int, _ARGS["top_k"]] = _ARGS["top_k"].default,
        depth: Annotated[Literal["recent", "archive"] | None, _ARGS["depth"]] = None,
        since: Annotated[str | None, _ARGS["since"]] = None,
        until: Annotated[str | None, _ARGS["until"]] = None,
    ) -> Annotated[CallToolResult, CompactRecall]:
        uid = self.user(ctx, user_id)
        try:  # the schema's bound is the environment's at import; the memory's wins
            top_k = bound_top_k(top_k, self.amem.memory.settings)
            check_window(since, until)
        except InputError as exc:
            raise ToolError(str(exc)) from None
        call = self.amem.deep_recall(
            query, user_id=uid, top_k=top_k, depth=depth, since=since, until=until
        )
        # What handle_tool_call gives a model, under "hits" as this tool always answered.
        return compact(recall_content(query, await self.answer(call), key="hits"))

    async def remember(
        self,
        ctx: Context,
        user_id: UserId = None,
        summary: Annotated[str | None, _BODY["summary"]] = None,
        messages: Annotated[list[dict[str, Any]] | None, _BODY["messages"]] = None,
    ) -> Annotated[CallToolResult, UpdateResult]:
        uid = self.user(ctx, user_id)
        if (summary is None) == (messages is None):
            raise ToolError("send exactly one of summary and messages")
        states: str | list[dict[str, Any]] = summary if summary is not None else messages or []
        return compact(await self.answer(self.amem.update_memory(states, user_id=uid)))

    async def get_relevant_memories(
        self,
        user_input: Annotated[str, Field(min_length=1, description="The user's current turn.")],
        ctx: Context,
        user_id: UserId = None,
        max_tokens: Annotated[int | None, Field(None, ge=0, description="Token room.")] = None,
    ) -> Annotated[CallToolResult, RelevantResponse]:
        uid = self.user(ctx, user_id)
        call = self.amem.get_relevant_memories(user_input, user_id=uid, max_tokens=max_tokens)
        return compact(RelevantResponse(text=await self.answer(call)))

    async def forget(
        self,
        ids: Annotated[list[str], Field(min_length=1, description="Record ids to delete.")],
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
        version: Annotated[int | None, Field(None, ge=0, description="A past version.")] = None,
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
    amem: AsyncMemory, *, default_user: str | None = None, keys: ApiKeys | None = None
) -> MCPServer[Any]:
    """The MCP server over ``amem``: tools, resources, and the tenant checks of ``keys``."""
    server: MCPServer[Any] = MCPServer(
        "recall", instructions=_INSTRUCTIONS, version=__version__, log_level="WARNING"
    )
    tools = _Tools(amem, default_user, keys)
    described = (
        (tools.deep_recall, DEEP_RECALL_TOOL["function"]["description"], READS),
        (tools.remember, _REMEMBER, ADDS),
        (tools.get_relevant_memories, _RELEVANT, READS),
        (tools.forget, _FORGET, ERASES),
        (tools.long_term, _LONG_TERM, READS),
    )
    for fn, description, hints in described:
        server.add_tool(fn, name=fn.__name__, description=description, annotations=hints)
    add_correction_tools(server, tools)  # forget_fact, edit_fact, rollback
    add_browse_tools(server, tools)  # browse_records, article_versions, article_diff, ...
    add_use_memory_prompt(server)
    for read in (tools.stats, tools.check):
        uri = f"recall://{read.__name__}"
        server.resource(uri, name=read.__name__, mime_type="application/json")(read)
    server.middleware.append(tools.operators_only)
    return server
