"""Running blocking calls off the event loop, fairly between tenants (:class:`TenantLanes`).

Each call runs on a worker thread (anyio's pool) and is awaited, so the loop keeps serving;
with a timeout, a call still running after it raises ``TimeoutError`` at once (the thread
finishes in the background: a write may land).

Fairness: every call shares anyio's thread pool, so a tenant sending eight bulk writes at
once would hold eight threads and the cores under them while another tenant's recall
waits its turn. With ``tenant_slots`` each tenant (the ``T`` of user ids ``T:...``, else
the user itself) runs at most that many calls at once; the rest queue behind their own
tenant, not in front of everyone else. An abandoned call (timed out) gives its slot back
at once although its thread runs on.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import anyio
import anyio.to_thread

from .. import spans
from .auth import tenant_of

__all__ = ["TenantLanes"]

_T = TypeVar("_T")


@dataclass
class _Lane:
    """One tenant's slots, and how many calls hold or wait for them."""

    limiter: anyio.CapacityLimiter
    calls: int = 0


class TenantLanes:
    """Runs blocking calls on worker threads: under ``timeout_s`` (its wait for a slot
    included; None: no bound), at most ``tenant_slots`` at once per tenant (0: no limit),
    on at most ``threads`` threads at once (0: anyio's pool of 40)."""

    def __init__(
        self, *, timeout_s: float | None = None, tenant_slots: int = 0, threads: int = 0
    ) -> None:
        self.timeout_s = timeout_s
        self.tenant_slots = tenant_slots
        self.threads = threads
        self._threads: anyio.CapacityLimiter | None = None
        # Only tenants with a call in flight have a lane; the event loop's one thread
        # touches this dict, so it needs no lock.
        self._lanes: dict[str, _Lane] = {}

    def _limiter(self) -> anyio.CapacityLimiter | None:
        # Made on first use, inside the event loop that will wait on it.
        if self.threads > 0 and self._threads is None:
            self._threads = anyio.CapacityLimiter(self.threads)
        return self._threads

    async def run(self, fn: Callable[..., _T], /, *args: Any, **kwargs: Any) -> _T:
        """Run ``fn(*args, **kwargs)`` on a worker thread under the timeout."""
        with anyio.fail_after(self.timeout_s):
            # abandon_on_cancel: a timed-out caller gets its answer now, not when the
            # CPU work ends; Python cannot stop the thread itself.
            return await anyio.to_thread.run_sync(
                partial(fn, *args, **kwargs), abandon_on_cancel=True, limiter=self._limiter()
            )

    async def run_for(
        self, user_id: str | None, fn: Callable[..., _T], /, *args: Any, **kwargs: Any
    ) -> _T:
        """:meth:`run` in the lane of ``user_id``'s tenant (see the module docs)."""
        queued = time.perf_counter()

        def call() -> _T:  # the wait for a lane and a worker thread, timed as "queue"
            spans.add("queue", time.perf_counter() - queued)
            return fn(*args, **kwargs)

        with anyio.fail_after(self.timeout_s):
            async with self._lane(user_id):
                return await anyio.to_thread.run_sync(
                    call, abandon_on_cancel=True, limiter=self._limiter()
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
