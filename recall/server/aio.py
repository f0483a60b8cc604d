"""The async face of :class:`recall.Memory`, for hosts that run an event loop.

LangGraph, the OpenAI Agents SDK and this server await their tools; a deep_recall embeds
the query and scores on the CPU for milliseconds to seconds, which would stall every other
request on the loop. :class:`AsyncMemory` runs each call on a worker thread (anyio's pool)
and awaits it, so the loop keeps serving; with a timeout, a call still running after it
raises ``TimeoutError`` at once (the thread finishes in the background: a write may land).

Fairness: every call shares anyio's thread pool, so a tenant sending eight bulk writes at
once would hold eight threads and the cores under them while another tenant's recall
waits its turn. With ``tenant_slots`` each tenant (the ``T`` of user ids ``T:...``, else
the user itself) runs at most that many calls at once; the rest queue behind their own
tenant, not in front of everyone else. An abandoned call (timed out) gives its slot back
at once although its thread runs on.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import anyio.to_thread

from .auth import tenant_of

if TYPE_CHECKING:
    from ..lifecycle.article import LongTerm
    from ..lifecycle.pipeline import UpdateResult
    from ..memory import Memory
    from ..memory.users import ImportResult, UserDeletion
    from ..models import Hit, Record

__all__ = ["AsyncMemory", "warm_up"]

_T = TypeVar("_T")


@dataclass
class _Lane:
    """One tenant's slots, and how many calls hold or wait for them."""

    limiter: anyio.CapacityLimiter
    calls: int = 0


def warm_up(memory: Memory) -> None:
    """Load every model a request would otherwise load on first use: the embedders (both
    of a composite spec), jieba's dictionary and the stemmer, tiktoken, the lifecycle."""
    embedder = memory.embedder()
    embedder.embed_documents(["warm up"])
    embedder.embed_query("warm up")
    embedder.embed_query("预热")  # a CJK query routes to the multilingual model
    memory.retriever.analyzer.tokens("预热 warm up")
    memory.should_summarize([{"role": "user", "content": "warm up"}])


class AsyncMemory:
    """``await``-able :class:`recall.Memory`: same methods, run off the event loop.

    ``timeout_s`` bounds every call, its wait for a slot included (None: no bound);
    ``tenant_slots`` is how many calls one tenant runs at once (0: no per-tenant limit).
    """

    def __init__(
        self, memory: Memory, *, timeout_s: float | None = None, tenant_slots: int = 0
    ) -> None:
        self.memory = memory
        self.timeout_s = timeout_s
        self.tenant_slots = tenant_slots
        # Only tenants with a call in flight have a lane; the event loop's one thread
        # touches this dict, so it needs no lock.
        self._lanes: dict[str, _Lane] = {}

    async def run(self, fn: Callable[..., _T], /, *args: Any, **kwargs: Any) -> _T:
        """Run ``fn(*args, **kwargs)`` on a worker thread under the timeout."""
        with anyio.fail_after(self.timeout_s):
            # abandon_on_cancel: a timed-out caller gets its answer now, not when the
            # CPU work ends; Python cannot stop the thread itself.
            return await anyio.to_thread.run_sync(
                partial(fn, *args, **kwargs), abandon_on_cancel=True
            )

    async def run_for(
        self, user_id: str | None, fn: Callable[..., _T], /, *args: Any, **kwargs: Any
    ) -> _T:
        """:meth:`run` in the lane of ``user_id``'s tenant (see the module docs)."""
        with anyio.fail_after(self.timeout_s):
            async with self._lane(user_id):
                return await anyio.to_thread.run_sync(
                    partial(fn, *args, **kwargs), abandon_on_cancel=True
                )

    @asynccontextmanager
    async def _lane(self, user_id: str | None) -> AsyncIterator[None]:
        if self.tenant_slots <= 0 or user_id is None:
            yield
            return
        key = tenant_of(user_id) or user_id
        lane = self._lanes.get(key)
        if lane is None:
            lane = self._lanes[key] = _Lane(anyio.CapacityLimiter(self.tenant_slots))
        lane.calls += 1
        try:
            async with lane.limiter:
                yield
        finally:
            lane.calls -= 1
            if lane.calls == 0:
                del self._lanes[key]

    async def warm_up(self) -> None:
        """:func:`warm_up` on a worker thread."""
        await self.run(warm_up, self.memory)

    # --- the Memory methods -------------------------------------------------------------
    async def deep_recall(self, query: str, *, user_id: str, **options: Any) -> list[Hit]:
        """:meth:`recall.Memory.deep_recall`."""
        return await self.run_for(
            user_id, self.memory.deep_recall, query, user_id=user_id, **options
        )

    async def add(self, text: str, *, user_id: str, **options: Any) -> str:
        """:meth:`recall.Memory.add`."""
        return await self.run_for(user_id, self.memory.add, text, user_id=user_id, **options)

    async def add_many(self, items: Iterable[Mapping[str, Any]], *, user_id: str) -> list[str]:
        """:meth:`recall.Memory.add_many`."""
        return await self.run_for(user_id, self.memory.add_many, list(items), user_id=user_id)

    async def delete(self, ids: str | Sequence[str], *, user_id: str) -> int:
        """:meth:`recall.Memory.delete`."""
        return await self.run_for(user_id, self.memory.delete, ids, user_id=user_id)

    async def update_memory(
        self, states: str | Sequence[Any], *, user_id: str, background: bool = False
    ) -> UpdateResult:
        """:meth:`recall.Memory.update_memory`."""
        return await self.run_for(
            user_id, self.memory.update_memory, states, user_id=user_id, background=background
        )

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

    async def records(self, user_id: str, kinds: Sequence[str] | None = None) -> list[Record]:
        """:meth:`recall.Memory.records`."""
        return await self.run_for(user_id, self.memory.records, user_id, kinds)

    async def handle_tool_call(self, tool_call: Any, *, user_id: str) -> dict[str, Any]:
        """:meth:`recall.Memory.handle_tool_call` (any of the three call shapes)."""
        return await self.run_for(user_id, self.memory.handle_tool_call, tool_call, user_id=user_id)

    async def stats(self) -> dict[str, Any]:
        """:meth:`recall.Memory.stats`."""
        return await self.run(self.memory.stats)

    async def delete_user(self, user_id: str) -> UserDeletion:
        """:meth:`recall.Memory.delete_user`."""
        return await self.run_for(user_id, self.memory.delete_user, user_id)

    async def export_user(self, user_id: str) -> list[str]:
        """:meth:`recall.Memory.export_user`."""
        return await self.run_for(user_id, self.memory.export_user, user_id)

    async def import_user(self, lines: str | bytes, *, user_id: str | None = None) -> ImportResult:
        """:meth:`recall.Memory.import_user`."""
        return await self.run_for(user_id, self.memory.import_user, lines, user_id=user_id)

    async def flush(self, timeout: float | None = None) -> bool:
        """:meth:`recall.Memory.flush`."""
        return await self.run(self.memory.flush, timeout)

    async def aclose(self) -> None:
        """Close the memory (drains background jobs first)."""
        await anyio.to_thread.run_sync(self.memory.close)
