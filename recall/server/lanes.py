"""Running blocking calls off the event loop, fairly between tenants (:class:`TenantLanes`).

Each call runs on a worker thread of the lanes' own pool and is awaited, so the loop keeps
serving; with a timeout, a call still running after it raises ``TimeoutError`` at once (the
thread finishes in the background: a write may land).

Fairness: a tenant sending eight bulk writes at once would hold eight threads and the
cores under them while another tenant's recall waits its turn. With ``tenant_slots`` each
tenant (the ``T`` of user ids ``T:...``, else the user itself) runs at most that many calls
at once; the rest queue behind their own tenant, not in front of everyone else.

Slots follow the work, not the waiting: a call that timed out keeps its tenant's slot and
its thread until the thread returns (Python cannot stop it), and the pool has ``threads``
threads, never more. So a tenant whose calls time out waits for its own abandoned work
instead of piling more threads beside it (anyio's pool, which the lanes used before, gave
a slot back on the timeout and started a new thread for the next call: 13 threads became
98 under 5 s timeouts, and another tenant's p95 rose 89 times).
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio

from .. import spans
from .auth import tenant_of

__all__ = ["TenantLanes"]

_T = TypeVar("_T")
#: The pool's size for ``threads=0`` (anyio's default thread limit).
_DEFAULT_THREADS = 40


@dataclass
class _Lane:
    """One tenant's slots, and how many calls hold or wait for them."""

    limiter: anyio.CapacityLimiter
    calls: int = 0


class TenantLanes:
    """Runs blocking calls on worker threads: under ``timeout_s`` (its wait for a slot
    included; None: no bound), at most ``tenant_slots`` at once per tenant (0: no limit),
    on a pool of ``threads`` threads (0: 40), each slot held until its thread returns."""

    def __init__(
        self, *, timeout_s: float | None = None, tenant_slots: int = 0, threads: int = 0
    ) -> None:
        self.timeout_s = timeout_s
        self.tenant_slots = tenant_slots
        self.threads = threads
        self._pool: ThreadPoolExecutor | None = None
        # Only tenants with a call in flight (running, queued, or abandoned and still
        # running) have a lane; the event loop's one thread touches this dict, no lock.
        self._lanes: dict[str, _Lane] = {}

    def _executor(self) -> ThreadPoolExecutor:
        if self._pool is None:  # made on first use: a process that serves nothing has none
            self._pool = ThreadPoolExecutor(
                max_workers=self.threads or _DEFAULT_THREADS, thread_name_prefix="recall-call"
            )
        return self._pool

    async def run(self, fn: Callable[..., _T], /, *args: Any, **kwargs: Any) -> _T:
        """Run ``fn(*args, **kwargs)`` on a worker thread under the timeout."""
        with anyio.fail_after(self.timeout_s):
            return await self._submit(None, lambda: fn(*args, **kwargs))

    async def run_for(
        self, user_id: str | None, fn: Callable[..., _T], /, *args: Any, **kwargs: Any
    ) -> _T:
        """:meth:`run` in the lane of ``user_id``'s tenant (see the module docs)."""
        queued = time.perf_counter()

        def call() -> _T:  # the wait for a lane and a worker thread, timed as "queue"
            spans.add("queue", time.perf_counter() - queued)
            return fn(*args, **kwargs)

        with anyio.fail_after(self.timeout_s):
            return await self._submit(self._lane(user_id), call)

    def _lane(self, user_id: str | None) -> str | None:
        """The lane key of ``user_id`` (None: no per-tenant limit applies)."""
        if self.tenant_slots <= 0 or user_id is None:
            return None
        return tenant_of(user_id) or user_id

    async def _submit(self, key: str | None, call: Callable[[], _T]) -> _T:
        """``call`` on the pool once ``key``'s lane has a slot; the slot goes back when the
        thread returns, or when the call is dropped before a thread took it."""
        lane = None
        token = object()
        if key is not None:
            lane = self._lanes.get(key)
            if lane is None:
                lane = self._lanes[key] = _Lane(anyio.CapacityLimiter(self.tenant_slots))
            lane.calls += 1
            try:
                await lane.limiter.acquire_on_behalf_of(token)
            except BaseException:
                self._leave(key, lane, None)
                raise
        loop = asyncio.get_running_loop()
        # The caller's context (its span tally) travels with the call, as anyio's did.
        context = contextvars.copy_context()
        try:
            future: Future[_T] = self._executor().submit(context.run, call)
        except BaseException:
            if lane is not None:
                self._leave(key, lane, token)
            raise
        if lane is not None:
            # Registered before wrap_future's own callback: the slot is free again before
            # the awaiting request resumes.
            held = lane

            def done(_: Future[_T]) -> None:
                loop.call_soon_threadsafe(self._leave, key, held, token)

            future.add_done_callback(done)
        # Cancelled (the timeout): a call still queued is dropped (its slot freed by the
        # callback above); one that runs keeps its slot and thread until it returns.
        return await asyncio.wrap_future(future)

    def _leave(self, key: str | None, lane: _Lane, token: object | None) -> None:
        if token is not None:
            lane.limiter.release_on_behalf_of(token)
        lane.calls -= 1
        if lane.calls == 0 and key is not None and self._lanes.get(key) is lane:
            del self._lanes[key]
