"""Read-only views as MCP tools: ``browse_records``, ``article_versions``, ``article_diff``,
``explain_recall`` (:mod:`recall.memory.inspect`) and ``profile`` (:meth:`recall.Memory.profile`),
as REST's :mod:`.rest_browse` serves them.

Each takes ``user_id`` and passes the same checks as the other tools of
:mod:`recall.server.mcp` (the API key's tenant over HTTP, the ``--user`` pin); bad input
and a library error come back as a tool error the model can read. Each answers compact
JSON (:func:`~recall.server.mcp_hints.compact`) and is annotated read-only.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult
from pydantic import Field

from ..errors import RecallError
from ..memory.inspect import MAX_PAGE, ArticleDiff, Explained, RecordPage
from ..models import Profile
from ..tool import DeepRecallArgs, bound_top_k
from .mcp_corrections import Checks, UserId
from .mcp_hints import READS, compact
from .rest_browse import check_window
from .schemas import ArticleVersions

__all__ = ["BrowseTools", "add_browse_tools"]

_ARGS = DeepRecallArgs.model_fields

_BROWSE = (
    "List the user's stored memory records, newest said first, a page at a time: "
    "conversation summaries, archived conversations, raw turns, notes. Call it when the user "
    "asks what you remember about them or wants to review or clean up their memory; filter "
    "by kinds and by date (since/until, ISO dates). For the next page pass next_offset as "
    "offset. To answer a question from memory, use deep_recall instead."
)
_VERSIONS = (
    "List the versions of the user's long-term article (profile), newest first, with when "
    "each was written. Call it before article_diff or rollback, or when the user asks how "
    "their profile changed."
)
_DIFF = (
    "Show what changed in the user's long-term article between two versions, per chapter "
    "(Bedrock, Evolutionary, Dynamic), as unified-diff lines. Leave new out for the newest. "
    "Call it to check a correction (after forget_fact, edit_fact or rollback) or when the "
    "user asks what changed."
)
_EXPLAIN = (
    "Explain a deep_recall: the same hits with each search leg's scores and ranks, and the "
    "memories the relevance floor removed. Call it only when the user asks why something "
    "was or was not recalled; to answer from memory, use deep_recall."
)
_PROFILE = "What is true of the user now (home, employer, gym...) and what each replaced."


class BrowseTools:
    """The browsing tools over the checks of the server's other tools."""

    def __init__(self, checks: Checks) -> None:
        self.checks = checks

    def _window(self, since: str | None, until: str | None) -> None:
        try:
            check_window(since, until)
        except RecallError as exc:
            raise ToolError(str(exc)) from None

    async def browse_records(
        self,
        ctx: Context,
        user_id: UserId = None,
        kinds: Annotated[
            list[str] | None, Field(None, min_length=1, description="Only these kinds.")
        ] = None,
        since: Annotated[str | None, Field(None, max_length=40, description="ISO date.")] = None,
        until: Annotated[
            str | None,
            Field(
                None,
                max_length=40,
                description="ISO date (its whole day kept) or date-time (exclusive).",
            ),
        ] = None,
        offset: Annotated[int, Field(ge=0, description="Records to skip.")] = 0,
        limit: Annotated[int, Field(ge=1, le=MAX_PAGE, description="Page size.")] = 20,
    ) -> Annotated[CallToolResult, RecordPage]:
        uid = self.checks.user(ctx, user_id)
        self._window(since, until)
        amem = self.checks.amem
        call = amem.browse(uid, kinds=kinds, since=since, until=until, offset=offset, limit=limit)
        return compact(await self.checks.answer(call))

    async def article_versions(
        self, ctx: Context, user_id: UserId = None
    ) -> Annotated[CallToolResult, ArticleVersions]:
        uid = self.checks.user(ctx, user_id)
        versions = await self.checks.answer(self.checks.amem.article_versions(uid))
        return compact(ArticleVersions(user_id=uid, versions=versions))

    async def article_diff(
        self,
        old: Annotated[int, Field(ge=1, description="The version to compare from.")],
        ctx: Context,
        user_id: UserId = None,
        new: Annotated[
            int | None, Field(None, ge=1, description="The version to compare to (newest).")
        ] = None,
    ) -> Annotated[CallToolResult, ArticleDiff]:
        uid = self.checks.user(ctx, user_id)
        return compact(await self.checks.answer(self.checks.amem.article_diff(uid, old, new)))

    async def explain_recall(
        self,
        query: Annotated[str, _ARGS["query"]],
        ctx: Context,
        user_id: UserId = None,
        top_k: Annotated[int, _ARGS["top_k"]] = _ARGS["top_k"].default,
        depth: Annotated[Literal["recent", "archive"] | None, _ARGS["depth"]] = None,
        since: Annotated[str | None, _ARGS["since"]] = None,
        until: Annotated[str | None, _ARGS["until"]] = None,
    ) -> Annotated[CallToolResult, Explained]:
        uid = self.checks.user(ctx, user_id)
        amem = self.checks.amem
        try:  # the schema's bound is the environment's at import; the memory's wins
            top_k = bound_top_k(top_k, amem.memory.settings)
        except RecallError as exc:
            raise ToolError(str(exc)) from None
        self._window(since, until)
        call = amem.explain(query, user_id=uid, top_k=top_k, depth=depth, since=since, until=until)
        return compact(await self.checks.answer(call))

    async def profile(
        self, ctx: Context, user_id: UserId = None
    ) -> Annotated[CallToolResult, Profile]:
        uid = self.checks.user(ctx, user_id)
        return compact(await self.checks.answer(self.checks.amem.profile(uid)))


def add_browse_tools(server: MCPServer[Any], checks: Checks) -> None:
    """Add ``browse_records``, ``article_versions``, ``article_diff``, ``explain_recall``
    and ``profile`` to ``server``, each annotated read-only."""
    tools = BrowseTools(checks)
    for fn, description in (
        (tools.browse_records, _BROWSE),
        (tools.article_versions, _VERSIONS),
        (tools.article_diff, _DIFF),
        (tools.explain_recall, _EXPLAIN),
        (tools.profile, _PROFILE),
    ):
        server.add_tool(fn, name=fn.__name__, description=description, annotations=READS)
