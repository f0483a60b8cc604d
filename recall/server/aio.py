"""The async face of :class:`recall.Memory`, for hosts that run an event loop.

Hosts (LangGraph, the Agents SDK, this server) await their tools; a deep_recall would stall
the loop. :class:`AsyncMemory` has every public method of ``Memory``, same parameters
(tests/server/test_async_parity.py), each run on a worker thread and awaited, under a
timeout and fairly between tenants (:class:`~recall.server.lanes.TenantLanes`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Self, Unpack

import anyio.to_thread

from .aio_state import AsyncStateMethods

if TYPE_CHECKING:
    from .. import (
        ArticleDiff,
        ArticleVersion,
        Embedder,
        Explained,
        Forgotten,
        Fusion,
        Hit,
        ImportResult,
        LongTerm,
        Memory,
        Profile,
        RecallRequest,
        Record,
        RecordPage,
        RequestOptions,
        SearchOptions,
        UpdateResult,
        UserDeletion,
    )

__all__ = ["AsyncMemory"]


def _user(query: object, options: Mapping[str, object]) -> str | None:
    """Whose lane a search runs in: the built request's user, else the ``user_id`` given."""
    user = getattr(query, "user_id", None) or options.get("user_id")
    return user if isinstance(user, str) else None


class AsyncMemory(AsyncStateMethods):
    """``await``-able :class:`recall.Memory`: same methods, run off the event loop.

    ``timeout_s`` bounds every call, its wait for a slot included (None: no bound);
    ``tenant_slots`` is how many calls one tenant runs at once (0: no per-tenant limit),
    ``threads`` how many run at once in all (0: anyio's default of 40). ``async with``
    closes the memory at the end, as ``with`` does a ``Memory``.
    """

    def __init__(
        self,
        memory: Memory,
        *,
        timeout_s: float | None = None,
        tenant_slots: int = 0,
        threads: int = 0,
    ) -> None:
        super().__init__(timeout_s=timeout_s, tenant_slots=tenant_slots, threads=threads)
        self.memory = memory

    async def warm_up(self) -> None:
        """:meth:`recall.Memory.warm_up` on a worker thread, without the request timeout:
        loading the models may take longer than any one request may."""
        await anyio.to_thread.run_sync(self.memory.warm_up)

    async def aclose(self) -> None:
        """Close the memory (drains background jobs first)."""
        await anyio.to_thread.run_sync(self.memory.close)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # --- the Memory methods: records and hits -------------------------------------------
    async def add(
        self,
        text: str,
        *,
        user_id: str,
        kind: str = "note",
        id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        created_at: datetime | str | float | None = None,
    ) -> str:
        """:meth:`recall.Memory.add`."""
        return await self.run_for(
            user_id,
            self.memory.add,
            text,
            user_id=user_id,
            kind=kind,
            id=id,
            metadata=metadata,
            created_at=created_at,
        )

    async def add_many(self, items: Iterable[Mapping[str, Any]], *, user_id: str) -> list[str]:
        """:meth:`recall.Memory.add_many`."""
        return await self.run_for(user_id, self.memory.add_many, list(items), user_id=user_id)

    async def delete(self, ids: str | Sequence[str], *, user_id: str) -> int:
        """:meth:`recall.Memory.delete`."""
        return await self.run_for(user_id, self.memory.delete, ids, user_id=user_id)

    async def build_request(
        self, query: str, user_id: str, **options: Unpack[SearchOptions]
    ) -> RecallRequest:
        """:meth:`recall.Memory.build_request` (it reads nothing: on the loop, no thread)."""
        return self.memory.build_request(query, user_id, **options)

    async def deep_recall(
        self,
        query: str | RecallRequest,
        *,
        alpha: float | None = None,
        fusion: Fusion | None = None,
        allow_degraded: bool = False,
        **options: Unpack[RequestOptions],
    ) -> list[Hit]:
        """:meth:`recall.Memory.deep_recall`: a built request, or the query and keywords."""
        how = {"alpha": alpha, "fusion": fusion, "allow_degraded": allow_degraded}
        return await self.run_for(
            _user(query, options), self.memory.deep_recall, query, **how, **options
        )

    async def records(self, user_id: str, kinds: Sequence[str] | None = None) -> list[Record]:
        """:meth:`recall.Memory.records`."""
        return await self.run_for(user_id, self.memory.records, user_id, kinds)

    async def handle_tool_call(self, tool_call: Any, *, user_id: str) -> dict[str, Any]:
        """:meth:`recall.Memory.handle_tool_call` (any of the three call shapes)."""
        return await self.run_for(user_id, self.memory.handle_tool_call, tool_call, user_id=user_id)

    async def embedder(self) -> Embedder:
        """:meth:`recall.Memory.embedder` (loading it can take seconds)."""
        return await self.run(self.memory.embedder)

    async def stats(self) -> dict[str, Any]:
        """:meth:`recall.Memory.stats`."""
        return await self.run(self.memory.stats)

    async def close(self) -> None:
        """:meth:`recall.Memory.close`: :meth:`aclose`."""
        await self.aclose()

    # --- the memory tiers ---------------------------------------------------------------
    async def update_memory(
        self,
        states: str | Sequence[Any],
        *,
        user_id: str,
        background: bool = False,
        at: datetime | None = None,
    ) -> UpdateResult:
        """:meth:`recall.Memory.update_memory`."""
        return await self.run_for(
            user_id,
            self.memory.update_memory,
            states,
            user_id=user_id,
            background=background,
            at=at,
        )

    async def should_summarize(self, messages: Sequence[Any]) -> bool:
        """:meth:`recall.Memory.should_summarize`."""
        return await self.run(self.memory.should_summarize, messages)

    async def get_relevant_memories(
        self, user_input: str, *, user_id: str, max_tokens: int | None = None
    ) -> str:
        """:meth:`recall.Memory.get_relevant_memories`."""
        return await self.run_for(
            user_id,
            self.memory.get_relevant_memories,
            user_input,
            user_id=user_id,
            max_tokens=max_tokens,
        )

    async def long_term(self, user_id: str, version: int | None = None) -> LongTerm:
        """:meth:`recall.Memory.long_term`."""
        return await self.run_for(user_id, self.memory.long_term, user_id, version)

    async def profile(self, user_id: str) -> Profile:
        """:meth:`recall.Memory.profile`."""
        return await self.run_for(user_id, self.memory.profile, user_id)

    async def short_term(self, user_id: str) -> list[Record]:
        """:meth:`recall.Memory.short_term`."""
        return await self.run_for(user_id, self.memory.short_term, user_id)

    async def forget_fact(self, user_id: str, fact: str) -> LongTerm:
        """:meth:`recall.Memory.forget_fact`."""
        return await self.run_for(user_id, self.memory.forget_fact, user_id, fact)

    async def edit_fact(self, user_id: str, old: str, new: str) -> LongTerm:
        """:meth:`recall.Memory.edit_fact`."""
        return await self.run_for(user_id, self.memory.edit_fact, user_id, old, new)

    async def rollback(self, user_id: str, version: int) -> LongTerm:
        """:meth:`recall.Memory.rollback`."""
        return await self.run_for(user_id, self.memory.rollback, user_id, version)

    async def forget(
        self, user_id: str, text: str | None = None, *, ids: Sequence[str] | None = None
    ) -> Forgotten:
        """:meth:`recall.Memory.forget`."""
        return await self.run_for(user_id, self.memory.forget, user_id, text, ids=ids)

    async def flush(self, timeout: float | None = None) -> bool:
        """:meth:`recall.Memory.flush`."""
        return await self.run(self.memory.flush, timeout)

    # --- the read-only views -------------------------------------------------------------
    async def browse(
        self,
        user_id: str,
        *,
        kinds: Sequence[str] | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> RecordPage:
        """:meth:`recall.Memory.browse`."""
        return await self.run_for(
            user_id,
            self.memory.browse,
            user_id,
            kinds=kinds,
            since=since,
            until=until,
            offset=offset,
            limit=limit,
        )

    async def article_versions(self, user_id: str) -> list[ArticleVersion]:
        """:meth:`recall.Memory.article_versions`."""
        return await self.run_for(user_id, self.memory.article_versions, user_id)

    async def article_diff(self, user_id: str, old: int, new: int | None = None) -> ArticleDiff:
        """:meth:`recall.Memory.article_diff`."""
        return await self.run_for(user_id, self.memory.article_diff, user_id, old, new)

    async def explain(
        self, query: str | RecallRequest, **options: Unpack[RequestOptions]
    ) -> Explained:
        """:meth:`recall.Memory.explain`: a built request, or the query and keywords."""
        return await self.run_for(_user(query, options), self.memory.explain, query, **options)

    # --- whole users --------------------------------------------------------------------
    async def delete_user(self, user_id: str) -> UserDeletion:
        """:meth:`recall.Memory.delete_user`."""
        return await self.run_for(user_id, self.memory.delete_user, user_id)

    async def export_user(self, user_id: str) -> list[str]:
        """:meth:`recall.Memory.export_user`."""
        return await self.run_for(user_id, self.memory.export_user, user_id)

    async def import_user(
        self, lines: str | bytes | Iterable[str | bytes], *, user_id: str | None = None
    ) -> ImportResult:
        """:meth:`recall.Memory.import_user`."""
        return await self.run_for(user_id, self.memory.import_user, lines, user_id=user_id)
