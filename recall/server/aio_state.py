"""The async face of :mod:`recall.memory.state`: users, index state, article version,
writes run once per key, and the day's log, each run on a worker thread and awaited."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, tzinfo
from typing import TYPE_CHECKING, Any

from .lanes import TenantLanes

if TYPE_CHECKING:
    from .. import FailedJob, IndexState, KeyClaim, Memory

__all__ = ["AsyncStateMethods"]


class AsyncStateMethods(TenantLanes):
    """:class:`~recall.server.aio.AsyncMemory`'s part for :mod:`recall.memory.state`."""

    memory: Memory

    async def users(self) -> list[str]:
        """:meth:`recall.Memory.users` on a worker thread."""
        return list(await self.run(self.memory.users))

    async def holds(self, user_id: str) -> bool:
        """:meth:`recall.Memory.holds` on a worker thread."""
        return bool(await self.run_for(user_id, self.memory.holds, user_id))

    async def record_counts(self) -> dict[str, dict[str, int]]:
        """:meth:`recall.Memory.record_counts` on a worker thread."""
        counts: dict[str, dict[str, int]] = await self.run(self.memory.record_counts)
        return counts

    async def index_state(self, user_id: str | None = None) -> IndexState:
        """:meth:`recall.Memory.index_state` on a worker thread."""
        state: IndexState = await self.run(self.memory.index_state, user_id)
        return state

    async def article_version(self, user_id: str) -> int:
        """:meth:`recall.Memory.article_version` on a worker thread."""
        return int(await self.run_for(user_id, self.memory.article_version, user_id))

    async def failed_jobs(self) -> list[FailedJob]:
        """:meth:`recall.Memory.failed_jobs` on a worker thread."""
        return list(await self.run(self.memory.failed_jobs))

    async def claim_key(self, user_id: str, key: str, fingerprint: str) -> KeyClaim:
        """:meth:`recall.Memory.claim_key` on a worker thread."""
        claim: KeyClaim = await self.run_for(
            user_id, self.memory.claim_key, user_id, key, fingerprint
        )
        return claim

    async def finish_key(self, user_id: str, key: str, status: int, body: str) -> None:
        """:meth:`recall.Memory.finish_key` on a worker thread."""
        await self.run_for(user_id, self.memory.finish_key, user_id, key, status, body)

    async def release_key(self, user_id: str, key: str) -> None:
        """:meth:`recall.Memory.release_key` on a worker thread."""
        await self.run_for(user_id, self.memory.release_key, user_id, key)

    async def write_once(
        self,
        user_id: str,
        key: str,
        fingerprint: str,
        write: Callable[[], Any],
        answer: Callable[[Any], str],
        status: int = 201,
    ) -> KeyClaim:
        """:meth:`recall.Memory.write_once` on a worker thread."""
        claim: KeyClaim = await self.run_for(
            user_id, self.memory.write_once, user_id, key, fingerprint, write, answer, status
        )
        return claim

    async def daily_log(
        self,
        user_id: str,
        *,
        day: date | None = None,
        tz: tzinfo | None = None,
        budget_tokens: int | None = None,
    ) -> str:
        """:meth:`recall.Memory.daily_log` on a worker thread."""
        log: str = await self.run_for(
            user_id, self.memory.daily_log, user_id, day=day, tz=tz, budget_tokens=budget_tokens
        )
        return log
