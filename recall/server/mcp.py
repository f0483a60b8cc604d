"""The MCP server: recall's tools for any agent host (Claude Desktop, Cursor, the Agents SDK).

Built on the official SDK's ``MCPServer``. Five tools, each described so that the model
knows when to call it, each taking ``user_id`` (optional when the server was started for
one user with ``--user``); two read-only resources for operators, ``recall://stats`` and
``recall://check``. Over HTTP the API key's tenant is checked on every call (a tool answers
an error the model can read; a resource read by a non-operator key is refused); over stdio
the host that started the process is trusted.
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
from mcp_types import INVALID_REQUEST
from pydantic import Field

from .. import __version__
from ..errors import RecallError
from ..lifecycle.article import LongTerm
from ..lifecycle.pipeline import UpdateResult
from ..memory import Memory
from ..models import require_user_id
from ..tool import DEEP_RECALL_TOOL, DeepRecallArgs
from .aio import AsyncMemory
from .auth import ApiKeys, key_from_headers
from .schemas import DeletedResponse, RecallResponse, RelevantResponse, RememberBody

__all__ = ["build_mcp", "index_check"]

_T = TypeVar("_T")
_ARGS = DeepRecallArgs.model_fields
_BODY = RememberBody.model_fields

_INSTRUCTIONS = (
    "recall is this user's long-term memory. Call get_relevant_memories at the start of a "
    "turn for the profile and recent summaries; call deep_recall only when the user asks you "
    "to remember, or agrees to your proposal to dig; call remember when the conversation "
    "settles something worth keeping; forget only when the user asks."
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
_USER = "Whose memory. A server started with --user fills it in when left out."

_UserId = Annotated[str | None, Field(None, description=_USER)]


def index_check(memory: Memory) -> dict[str, Any]:
    """Per user: records, store version, the version the vector index reflects, lagging."""
    counts = memory.store.counts()
    users = []
    for uid in memory.store.users():
        version = memory.store.version(uid)
        indexed = memory.store.index_version(memory.sync.key, uid)
        users.append(
            {
                "user_id": uid,
                "records": sum(counts.get(uid, {}).values()),
                "version": version,
                "index_version": indexed,
                "lagging": indexed != version,
            }
        )
    return {"spec": memory.spec.name, "fingerprint": memory.spec.fingerprint, "users": users}


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
        user_id: _UserId = None,
        top_k: Annotated[int, _ARGS["top_k"]] = 8,
        depth: Annotated[Literal["recent", "archive"] | None, _ARGS["depth"]] = None,
    ) -> RecallResponse:
        uid = self.user(ctx, user_id)
        call = self.amem.deep_recall(query, user_id=uid, top_k=top_k, depth=depth)
        return RecallResponse.of(query, await self.answer(call))

    async def remember(
        self,
        ctx: Context,
        user_id: _UserId = None,
        summary: Annotated[str | None, _BODY["summary"]] = None,
        messages: Annotated[list[dict[str, Any]] | None, _BODY["messages"]] = None,
    ) -> UpdateResult:
        uid = self.user(ctx, user_id)
        if (summary is None) == (messages is None):
            raise ToolError("send exactly one of summary and messages")
        states: str | list[dict[str, Any]] = summary if summary is not None else messages or []
        return await self.answer(self.amem.update_memory(states, user_id=uid))

    async def get_relevant_memories(
        self,
        user_input: Annotated[str, Field(min_length=1, description="The user's current turn.")],
        ctx: Context,
        user_id: _UserId = None,
        max_tokens: Annotated[int | None, Field(None, ge=0, description="Token room.")] = None,
    ) -> RelevantResponse:
        uid = self.user(ctx, user_id)
        call = self.amem.get_relevant_memories(user_input, user_id=uid, max_tokens=max_tokens)
        return RelevantResponse(text=await self.answer(call))

    async def forget(
        self,
        ids: Annotated[list[str], Field(min_length=1, description="Record ids to delete.")],
        ctx: Context,
        user_id: _UserId = None,
    ) -> DeletedResponse:
        uid = self.user(ctx, user_id)
        return DeletedResponse(deleted=await self.answer(self.amem.delete(ids, user_id=uid)))

    async def long_term(
        self,
        ctx: Context,
        user_id: _UserId = None,
        version: Annotated[int | None, Field(None, ge=0, description="A past version.")] = None,
    ) -> LongTerm:
        uid = self.user(ctx, user_id)
        return await self.answer(self.amem.long_term(uid, version))

    async def stats(self) -> str:
        """Users, records per kind, index state of the served folder (operators)."""
        return json.dumps(await self.amem.stats())

    async def check(self) -> str:
        """Per user: records, store version, indexed version, lagging (operators)."""
        return json.dumps(await self.amem.run(index_check, self.amem.memory))

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
        (tools.deep_recall, DEEP_RECALL_TOOL["function"]["description"]),
        (tools.remember, _REMEMBER),
        (tools.get_relevant_memories, _RELEVANT),
        (tools.forget, _FORGET),
        (tools.long_term, _LONG_TERM),
    )
    for fn, description in described:
        server.add_tool(fn, name=fn.__name__, description=description)
    for read in (tools.stats, tools.check):
        uri = f"recall://{read.__name__}"
        server.resource(uri, name=read.__name__, mime_type="application/json")(read)
    server.middleware.append(tools.operators_only)
    return server
