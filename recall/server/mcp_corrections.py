"""Corrections as MCP tools: ``forget_fact``, ``edit_fact``, ``rollback``.

Each takes ``user_id`` and passes the same checks as the other tools of
:mod:`recall.server.mcp` (the API key's tenant over HTTP, the ``--user`` pin); a library
error comes back as a tool error the model can read, and an answer as compact JSON
(:func:`~recall.server.mcp_hints.compact`). ``forget`` (by record id) stays as it was;
``forget_fact`` removes a fact by its words from every tier.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Annotated, Any, Protocol, TypeVar

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from .. import LongTerm
from ..memory.forget import MIN_FACT_CHARS, Forgotten
from .aio import AsyncMemory
from .mcp_hints import ERASES, REWRITES, compact

__all__ = ["Checks", "CorrectionTools", "UserId", "add_correction_tools"]

_T = TypeVar("_T")

_FORGET_FACT = (
    "Forget a fact everywhere in the user's memory: every summary, archived record, raw "
    "turn and note holding these words loses the sentences that contain them, and the "
    "long-term article (all its versions) too. Call it only when the user asks you to "
    "forget something; pass the fact's distinctive words (a name, a number, a phrase)."
)
_EDIT_FACT = (
    "Correct the user's long-term article: replace old (exact text of the article, read it "
    "with long_term) with new, as a new version. Call it when the user corrects a fact."
)
_ROLLBACK = (
    "Restore a past version of the user's long-term article (long_term shows versions), "
    "written as a new version so it can be undone. Call it only when the user asks."
)
_USER = "Whose memory. A server started with --user serves that user only: leave it out there."
#: The ``user_id`` argument of every tool.
UserId = Annotated[str | None, Field(None, description=_USER)]


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
        text: Annotated[str, Field(min_length=MIN_FACT_CHARS, description="The fact's words.")],
        ctx: Context,
        user_id: UserId = None,
    ) -> Annotated[CallToolResult, Forgotten]:
        uid = self.checks.user(ctx, user_id)
        amem = self.checks.amem
        return compact(await self.checks.answer(amem.run_for(uid, amem.memory.forget, uid, text)))

    async def edit_fact(
        self,
        old: Annotated[str, Field(min_length=1, description="Exact text of the article.")],
        new: Annotated[str, Field(description="The replacement text.")],
        ctx: Context,
        user_id: UserId = None,
    ) -> Annotated[CallToolResult, LongTerm]:
        uid = self.checks.user(ctx, user_id)
        amem = self.checks.amem
        call = amem.run_for(uid, amem.memory.edit_fact, uid, old, new)
        return compact(await self.checks.answer(call))

    async def rollback(
        self,
        version: Annotated[int, Field(ge=0, description="The version to restore.")],
        ctx: Context,
        user_id: UserId = None,
    ) -> Annotated[CallToolResult, LongTerm]:
        uid = self.checks.user(ctx, user_id)
        amem = self.checks.amem
        call = amem.run_for(uid, amem.memory.rollback, uid, version)
        return compact(await self.checks.answer(call))


def add_correction_tools(server: MCPServer[Any], checks: Checks) -> None:
    """Add ``forget_fact``, ``edit_fact`` and ``rollback`` to ``server``."""
    tools = CorrectionTools(checks)
    # forget_fact finds nothing the second time; each edit or rollback writes a new version.
    server.add_tool(
        tools.forget_fact, name="forget_fact", description=_FORGET_FACT, annotations=ERASES
    )
    server.add_tool(tools.edit_fact, name="edit_fact", description=_EDIT_FACT, annotations=REWRITES)
    server.add_tool(tools.rollback, name="rollback", description=_ROLLBACK, annotations=REWRITES)
