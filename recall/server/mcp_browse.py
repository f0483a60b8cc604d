"""Read-only views as MCP tools: ``browse_records``, ``article_versions``, ``article_diff``,
``explain_recall`` (:mod:`recall.memory.inspect`) and ``profile`` (:meth:`recall.Memory.profile`),
as REST's :mod:`.rest_browse` serves them.

Each takes ``user_id`` and passes the same checks as the other tools of
:mod:`recall.server.mcp` (the API key's tenant over HTTP, the ``--user`` pin); bad input
and a library error come back as a tool error the model can read. Each answers compact
JSON (:func:`~recall.server.mcp_hints.compact`) and is annotated read-only. What a
model reads of them, in the server's language, is in :mod:`.mcp_text`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import Field

from ..errors import RecallError
from ..memory.inspect import MAX_PAGE, ArticleDiff, Explained, RecordPage
from ..models import Profile, RecallRequest
from ..tool import DeepRecallArgs, bound_top_k
from .mcp_corrections import Checks, UserId
from .mcp_hints import READS, compact
from .rest_browse import check_window
from .schemas import ArticleVersions

__all__ = ["BrowseTools", "browse_tools", "built_search"]

_ARGS = DeepRecallArgs.model_fields
#: A search's query: its bound is the memory's (``max_query_chars``, checked by
#: ``build_request``; the schema's ``maxLength`` set to it by :func:`recall.server.build_mcp`),
#: not the environment's at import.
QUERY = Field(min_length=1, description=_ARGS["query"].description)


async def built_search(
    checks: Checks,
    uid: str,
    query: str,
    top_k: int,
    depth: Literal["recent", "archive"] | None,
    window: tuple[str | None, str | None],
) -> RecallRequest:
    """A search tool's request, built once (:meth:`recall.Memory.build_request`: the
    memory's bounds) after ``top_k`` is bounded by the memory's ``tool_max_top_k`` (the
    schema's bound is the environment's at import) and the ``(since, until)`` window is
    checked; every refusal a :class:`ToolError` the model reads."""
    since, until = window
    try:
        top_k = bound_top_k(top_k, checks.amem.memory.settings)
        check_window(since, until)
    except RecallError as exc:
        raise ToolError(str(exc)) from None
    build = checks.amem.build_request(
        query, uid, top_k=top_k, depth=depth, since=since, until=until
    )
    return await checks.answer(build)


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
        kinds: Annotated[list[str] | None, Field(None, min_length=1)] = None,
        since: Annotated[str | None, Field(None, max_length=40)] = None,
        until: Annotated[str | None, Field(None, max_length=40)] = None,
        offset: Annotated[int, Field(ge=0)] = 0,
        limit: Annotated[int, Field(ge=1, le=MAX_PAGE)] = 20,
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
        old: Annotated[int, Field(ge=1)],
        ctx: Context,
        user_id: UserId = None,
        new: Annotated[int | None, Field(None, ge=1)] = None,
    ) -> Annotated[CallToolResult, ArticleDiff]:
        uid = self.checks.user(ctx, user_id)
        return compact(await self.checks.answer(self.checks.amem.article_diff(uid, old, new)))

    async def explain_recall(
        self,
        query: Annotated[str, QUERY],
        ctx: Context,
        user_id: UserId = None,
        top_k: Annotated[int, _ARGS["top_k"]] = _ARGS["top_k"].default,
        depth: Annotated[Literal["recent", "archive"] | None, _ARGS["depth"]] = None,
        since: Annotated[str | None, _ARGS["since"]] = None,
        until: Annotated[str | None, _ARGS["until"]] = None,
    ) -> Annotated[CallToolResult, Explained]:
        uid = self.checks.user(ctx, user_id)
        request = await built_search(self.checks, uid, query, top_k, depth, (since, until))
        return compact(await self.checks.answer(self.checks.amem.explain(request)))

    async def profile(
        self, ctx: Context, user_id: UserId = None
    ) -> Annotated[CallToolResult, Profile]:
        uid = self.checks.user(ctx, user_id)
        return compact(await self.checks.answer(self.checks.amem.profile(uid)))


def browse_tools(checks: Checks) -> list[tuple[Callable[..., Any], ToolAnnotations]]:
    """``browse_records``, ``article_versions``, ``article_diff``, ``explain_recall`` and
    ``profile`` over ``checks``, each annotated read-only (described by :mod:`.mcp_text`)."""
    tools = BrowseTools(checks)
    fns = (
        tools.browse_records,
        tools.article_versions,
        tools.article_diff,
        tools.explain_recall,
        tools.profile,
    )
    return [(fn, READS) for fn in fns]
