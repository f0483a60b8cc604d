"""Per-tenant lanes in AsyncMemory: a tenant's calls queue behind each other, not in front
of another tenant's (the figures: benchmarks/fairness.py)."""

from __future__ import annotations

import threading
import time

import anyio
import pytest

from recall.server import AsyncMemory


class _Probe:
    """Counts how many calls of each tenant run at once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.now: dict[str, int] = {}
        self.peak: dict[str, int] = {}
        self.ended: dict[str, float] = {}

    def work(self, tenant: str, seconds: float) -> None:
        with self.lock:
            self.now[tenant] = self.now.get(tenant, 0) + 1
            self.peak[tenant] = max(self.peak.get(tenant, 0), self.now[tenant])
        time.sleep(seconds)
        with self.lock:
            self.now[tenant] -= 1
            self.ended[tenant] = time.monotonic()


def _run(slots: int) -> tuple[_Probe, float]:
    probe = _Probe()
    amem = AsyncMemory(memory=None, tenant_slots=slots)  # type: ignore[arg-type]
    started = 0.0

    async def main() -> None:
        nonlocal started
        started = time.monotonic()
        async with anyio.create_task_group() as tg:
            for i in range(6):  # one bulk tenant, six calls at once, over two of its users
                tg.start_soon(amem.run_for, f"bulk:u{i % 2}", probe.work, "bulk", 0.2)
            await anyio.sleep(0.02)
            tg.start_soon(amem.run_for, "quiet:u", probe.work, "quiet", 0.05)
        assert amem._lanes == {}  # idle tenants hold nothing

    anyio.run(main)
    return probe, started


def test_a_tenant_runs_its_slots_and_no_more_while_others_pass() -> None:
    probe, started = _run(slots=2)
    assert probe.peak == {"bulk": 2, "quiet": 1}
    # The quiet tenant did not wait for the bulk one's queue (3 rounds of 0.2 s).
    assert probe.ended["quiet"] - started < 0.2 < probe.ended["bulk"] - started - 0.3


def test_no_slots_means_no_limit() -> None:
    probe, _ = _run(slots=0)
    assert probe.peak["bulk"] == 6


def test_a_user_without_a_tenant_prefix_is_its_own_tenant() -> None:
    amem = AsyncMemory(memory=None, tenant_slots=1)  # type: ignore[arg-type]
    order: list[str] = []

    def step(name: str) -> None:
        order.append(f"{name}>")
        time.sleep(0.05)
        order.append(f"<{name}")

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(amem.run_for, "alice", step, "a1")
            tg.start_soon(amem.run_for, "alice", step, "a2")
            tg.start_soon(amem.run_for, "bob", step, "b1")

    anyio.run(main)
    # alice's two calls never overlap; bob's runs beside them.
    a1, a2 = order.index("<a1"), order.index("a2>")
    assert a1 < a2 or order.index("<a2") < order.index("a1>")
    assert order.index("b1>") < max(a1, a2)


def test_threads_bound_the_calls_running_at_once_for_every_tenant() -> None:
    from recall.server.lanes import TenantLanes

    lanes = TenantLanes(threads=2)
    running, peak = [0], [0]
    lock = threading.Lock()

    def work() -> None:
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            for i in range(8):
                tg.start_soon(lanes.run_for, f"t{i}:u", work)

    anyio.run(main)
    assert peak[0] == 2


def test_a_timed_out_call_keeps_its_slot_and_thread_until_its_thread_ends() -> None:
    """The caller gives up at the timeout; the tenant's slot and the pool's thread stay
    taken by the work still running, so the tenant's next call waits for it and the
    threads never pass their bound (issue 35: 13 threads became 98 under timeouts)."""
    from recall.server.lanes import TenantLanes

    lanes = TenantLanes(timeout_s=0.2, tenant_slots=1, threads=2)
    release = threading.Event()
    started: list[float] = []

    def stuck() -> None:
        release.wait(5)

    def quick() -> None:
        started.append(time.monotonic())

    async def main() -> None:
        threads_before = threading.active_count()
        with pytest.raises(TimeoutError):
            await lanes.run_for("acme:u", stuck)
        timed_out = time.monotonic()
        # acme's slot is still held by the running thread: its next call times out queued.
        with pytest.raises(TimeoutError):
            await lanes.run_for("acme:u", quick)
        assert started == [] and lanes._lanes["acme"].calls == 1
        # Another tenant has its own lane; the pool's second thread serves it.
        await lanes.run_for("other:u", quick)
        assert len(started) == 1
        # Five more abandoned calls of five tenants: two threads at most, ever.
        for i in range(5):
            with pytest.raises(TimeoutError):
                await lanes.run_for(f"t{i}:u", stuck)
        assert threading.active_count() - threads_before <= 2
        release.set()  # the work ends: its slot comes back, acme is served again
        await lanes.run_for("acme:u", quick)
        assert len(started) == 2 and time.monotonic() - timed_out < 5
        await anyio.sleep(0.05)
        assert lanes._lanes == {}

    anyio.run(main)
