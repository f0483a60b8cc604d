"""The async face of :class:`recall.Memory`, for hosts that run an event loop.

Hosts (LangGraph, the Agents SDK, this server) await their tools; a deep_recall would stall
the loop. :class:`AsyncMemory` has every public method of ``Memory``, same parameters
(tests/server/test_async_parity.py), each run on a worker thread and awaited, under a
timeout and fairly between tenants (:class:`~recall.server.lanes.TenantLanes`).

The methods are made from ``Memory``'s own (:func:`_off_loop`): one signature, written once
in :mod:`recall.memory`, that this face and mypy both read; only the few that do more than
forward a call (``warm_up``, ``build_request``, ``close``) are written here.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, Concatenate, ParamSpec, Self, TypeVar, Unpack

import anyio.to_thread

from .. import Memory, RecallRequest, SearchOptions
from .lanes import TenantLanes

__all__ = ["AsyncMemory"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _lane_user(
    signature: inspect.Signature, args: tuple[Any, ...], kwargs: Mapping[str, Any]
) -> str | None:
    """Whose lane a call runs in: its ``user_id``, else the user of the built request given
    as its ``query`` (None: no tenant's lane)."""
    try:
        given = signature.bind(None, *args, **kwargs).arguments
    except TypeError:
        return None  # the call itself says what is wrong, raised when it runs
    user = given.get("user_id") or kwargs.get("user_id")
    user = user or getattr(given.get("query"), "user_id", None)
    return user if isinstance(user, str) else None


def _off_loop(
    method: Callable[Concatenate[Memory, _P], _R], *, lane: bool = True
) -> Callable[Concatenate[AsyncMemory, _P], Coroutine[Any, Any, _R]]:
    """``Memory``'s ``method`` as an AsyncMemory method with the same parameters: the call
    runs on a worker thread, awaited, in the lane of its user's tenant (``lane=False``: in
    none, for the calls that name no user)."""
    name, signature = method.__name__, inspect.signature(method)

    async def forward(self: AsyncMemory, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        call: Callable[_P, _R] = getattr(self.memory, name)
        if not lane:
            return await self.run(call, *args, **kwargs)
        return await self.run_for(_lane_user(signature, args, kwargs), call, *args, **kwargs)

    # __wrapped__: inspect.signature (the parity test, help()) reads Memory's parameters.
    functools.update_wrapper(forward, method, assigned=("__name__",), updated=())
    forward.__qualname__ = f"AsyncMemory.{name}"
    forward.__doc__ = f":meth:`recall.Memory.{name}` on a worker thread, awaited."
    return forward


class AsyncMemory(TenantLanes):
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

    async def close(self) -> None:
        """:meth:`recall.Memory.close`: :meth:`aclose`."""
        await self.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def build_request(
        self, query: str, user_id: str, **options: Unpack[SearchOptions]
    ) -> RecallRequest:
        """:meth:`recall.Memory.build_request` (it reads nothing: on the loop, no thread)."""
        return self.memory.build_request(query, user_id, **options)

    # --- in the lane of the user named (a built request's user for the searches) ---------
    add = _off_loop(Memory.add)
    add_many = _off_loop(Memory.add_many)
    delete = _off_loop(Memory.delete)
    deep_recall = _off_loop(Memory.deep_recall)
    explain = _off_loop(Memory.explain)
    records = _off_loop(Memory.records)
    handle_tool_call = _off_loop(Memory.handle_tool_call)
    update_memory = _off_loop(Memory.update_memory)
    get_relevant_memories = _off_loop(Memory.get_relevant_memories)
    long_term = _off_loop(Memory.long_term)
    profile = _off_loop(Memory.profile)
    short_term = _off_loop(Memory.short_term)
    daily_log = _off_loop(Memory.daily_log)
    forget_fact = _off_loop(Memory.forget_fact)
    edit_fact = _off_loop(Memory.edit_fact)
    rollback = _off_loop(Memory.rollback)
    forget = _off_loop(Memory.forget)
    browse = _off_loop(Memory.browse)
    article_versions = _off_loop(Memory.article_versions)
    article_diff = _off_loop(Memory.article_diff)
    article_version = _off_loop(Memory.article_version)
    holds = _off_loop(Memory.holds)
    delete_user = _off_loop(Memory.delete_user)
    export_user = _off_loop(Memory.export_user)
    import_user = _off_loop(Memory.import_user)
    claim_key = _off_loop(Memory.claim_key)
    finish_key = _off_loop(Memory.finish_key)
    release_key = _off_loop(Memory.release_key)
    write_once = _off_loop(Memory.write_once)

    # --- in no tenant's lane: the whole memory, or no user --------------------------------
    embedder = _off_loop(Memory.embedder, lane=False)
    stats = _off_loop(Memory.stats, lane=False)
    should_summarize = _off_loop(Memory.should_summarize, lane=False)
    flush = _off_loop(Memory.flush, lane=False)
    users = _off_loop(Memory.users, lane=False)
    record_counts = _off_loop(Memory.record_counts, lane=False)
    index_state = _off_loop(Memory.index_state, lane=False)
    failed_jobs = _off_loop(Memory.failed_jobs, lane=False)
