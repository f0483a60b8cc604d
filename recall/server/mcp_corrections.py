"""Corrections as MCP tools: ``forget_fact``, ``edit_fact``, ``rollback``.

Each takes ``user_id`` and passes the same checks as the other tools of
:mod:`recall.server.mcp` (the API key's tenant over HTTP, the ``--user`` pin); a library
error comes back as a tool error the model can read, and an answer as compact JSON
(:func:`~recall.server.mcp_hints.compact`). ``forget`` (by record id) stays as it was;
``forget_fact`` removes a fact by its words from every tier.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Protocol, TypeVar

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import Field

from .. import LongTerm
from ..memory.forget import MIN_FACT_CHARS, Forgotten
from .aio import AsyncMemory
from .mcp_hints import ERASES, REWRITES, compact

__all__ = ["Checks", "CorrectionTools", "UserId", "correction_tools"]

_T = TypeVar("_T")

#: The ``user_id`` argument of every tool.
UserId = Annotated[str | None, Field(None)]


class Checks(Protocol):
    """What a group of tools needs of the server's: the memory, the user check (tenant and
    pin), and the answer that turns a library error into a tool error."""

    amem: AsyncMemory

    def user(self, ctx: Context, user_id: str | None) -> str: ...

    async def answer(self, call: Awaitable[_T]) -> _T: ...


class CorrectionTools:
    """The correction tools over the checks of the server's other tools."""

    def __init__(self, checks: Checks) -> None:
        self.checks = checks

    async def forget_fact(
        self,
        text: Annotated[str, Field(min_length=MIN_FACT_CHARS)],
        ctx: Context,
        user_id: UserId = None,
    ) -> Annotated[CallToolResult, Forgotten]:
        uid = self.checks.user(ctx, user_id)
        amem = self.checks.amem
        return compact(await self.checks.answer(amem.run_for(uid, amem.memory.forget, uid, text)))

    async def edit_fact(
        self,
        old: Annotated[str, Field(min_length=1)],
        new: str,
        ctx: Context,
        user_id: UserId = None,
    ) -> Annotated[CallToolResult, LongTerm]:
        uid = self.checks.user(ctx, user_id)
        amem = self.checks.amem
        call = amem.run_for(uid, amem.memory.edit_fact, uid, old, new)
        return compact(await self.checks.answer(call))

    async def rollback(
        self,
        version: Annotated[int, Field(ge=0)],
        ctx: Context,
        user_id: UserId = None,
    ) -> Annotated[CallToolResult, LongTerm]:
        uid = self.checks.user(ctx, user_id)
        amem = self.checks.amem
        call = amem.run_for(uid, amem.memory.rollback, uid, version)
        return compact(await self.checks.answer(call))


def correction_tools(checks: Checks) -> list[tuple[Callable[..., Any], ToolAnnotations]]:
    """``forget_fact``, ``edit_fact`` and ``rollback`` over ``checks``, with their
    annotations (described by :mod:`.mcp_text`)."""
    tools = CorrectionTools(checks)
    # forget_fact finds nothing the second time; each edit or rollback writes a new version.
    return [(tools.forget_fact, ERASES), (tools.edit_fact, REWRITES), (tools.rollback, REWRITES)]
