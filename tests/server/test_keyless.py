"""The keyless budget (issue 35): requests without a valid key from one address wait their
turn past ``keyless_rate``; a keyed client, from another address or the same one, is never
charged and never slowed. Real uvicorn servers on 127.0.0.1; the "attacker" binds
127.0.0.2 (loopback too on Linux: another client address)."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from live_server import live_server

import recall
from recall.server import ApiKeys
from recall.server.keyless import KeylessBudget

pytestmark = pytest.mark.slow  # a real server per test

KEY = "operator-key-0123456789"  # an operator: /v1/stats needs one
AUTH = {"authorization": f"Bearer {KEY}"}
ATTACKER = "127.0.0.2"


def _client(base: str, source: str) -> httpx.Client:
    transport = httpx.HTTPTransport(local_address=source)
    return httpx.Client(base_url=base, transport=transport, timeout=10)


def test_an_address_over_its_keyless_rate_waits_and_a_keyed_client_does_not(
    mem: recall.Memory,
) -> None:
    keys = ApiKeys([(KEY, "*")])
    limits: dict[str, Any] = {"keyless_rate": 20.0, "keyless_burst": 5, "keyless_total_rate": 0.0}
    with live_server(mem, keys=keys, **limits) as (base, _):
        attacked = threading.Event()
        keyed_s: list[float] = []
        other_keyless_s: list[float] = []

        def keyed() -> None:
            with _client(base, "127.0.0.1") as c:
                attacked.wait(5)
                while attacked.is_set() and len(keyed_s) < 200:
                    started = time.perf_counter()
                    assert c.get("/v1/stats", headers=AUTH).status_code == 200
                    keyed_s.append(time.perf_counter() - started)
                    if len(keyed_s) % 10 == 0:  # a keyless call from another address
                        started = time.perf_counter()
                        assert c.get("/healthz").status_code == 200
                        other_keyless_s.append(time.perf_counter() - started)

        with ThreadPoolExecutor(1) as pool:
            running = pool.submit(keyed)
            with _client(base, ATTACKER) as attacker:
                started = time.perf_counter()
                attacked.set()
                # 45 keyless calls, half of them refusals (401): 5 at once, then 20 a second.
                for i in range(45):
                    got = attacker.get("/healthz" if i % 2 else "/v1/stats").status_code
                    assert got == (200 if i % 2 else 401)
                attack_s = time.perf_counter() - started
                attacked.clear()
            running.result()
    assert attack_s >= (45 - 5) / 20 * 0.9, attack_s  # served no faster than its rate
    assert len(keyed_s) >= 10, keyed_s
    keyed_s.sort()
    # The keyed client, beside it, waits for nothing (each wait of the attacker is 50 ms).
    assert keyed_s[len(keyed_s) // 2] < 0.05, keyed_s
    assert other_keyless_s and max(other_keyless_s) < 0.2, other_keyless_s


def test_keyed_requests_are_never_charged(mem: recall.Memory) -> None:
    keys = ApiKeys([(KEY, "*")])
    limits: dict[str, Any] = {"keyless_rate": 5.0, "keyless_burst": 2, "keyless_total_rate": 5.0}
    with live_server(mem, keys=keys, **limits) as (base, _), _client(base, ATTACKER) as c:
        started = time.perf_counter()
        for _ in range(20):  # keyed: a public path, a route, a 404 and a 415 refusal
            assert c.get("/healthz", headers=AUTH).status_code == 200
            assert c.get("/v1/stats", headers=AUTH).status_code == 200
            assert c.get("/v1/nothing", headers=AUTH).status_code == 404
            refused = c.post("/v1/users/acme:bob/notes", content=b"x", headers=AUTH)
            assert refused.status_code == 415
        # 80 calls charged at 5 a second would take 15 s; the per-address and total
        # buckets are both untouched after them:
        assert time.perf_counter() - started < 8
        started = time.perf_counter()
        for _ in range(2):
            assert c.get("/healthz").status_code == 200
        assert time.perf_counter() - started < 0.15  # the burst, whole
        # and the keyless calls after it are charged: a wrong key too.
        started = time.perf_counter()
        for _ in range(3):
            assert c.get("/v1/stats", headers={"authorization": "Bearer nope"}).status_code == 401
        assert time.perf_counter() - started >= 3 / 5 * 0.9


def test_keyless_calls_waiting_their_turn_are_not_requests_in_flight(
    mem: recall.Memory,
) -> None:
    keys = ApiKeys([(KEY, "*")])
    limits: dict[str, Any] = {"keyless_rate": 4.0, "keyless_burst": 1, "max_client_requests": 2}
    with live_server(mem, keys=keys, **limits) as (base, _):

        def one(_: int) -> int:
            with _client(base, ATTACKER) as c:
                return c.get("/healthz").status_code

        started = time.perf_counter()
        with ThreadPoolExecutor(6) as pool:
            statuses = list(pool.map(one, range(6)))
        # Six at once from one address, two in flight at most: each waits its turn (a
        # quarter second apart) instead of a 503 for the third.
        assert statuses == [200] * 6
        assert time.perf_counter() - started >= 5 / 4 * 0.9


def test_a_turn_too_far_away_is_refused_at_once_and_not_charged() -> None:
    now = [0.0]
    budget = KeylessBudget(1.0, 2, 0.0, clock=lambda: now[0])
    waits = [budget.wait(ATTACKER) for _ in range(9)]
    assert waits[:2] == [0.0, 0.0] and waits[2:7] == [1.0, 2.0, 3.0, 4.0, 5.0]
    assert waits[7:] == [None, None]  # past 5 s: a 429, nothing reserved
    assert budget.wait("127.0.0.1") == 0.0  # another address, its own bucket
    now[0] = 7.0
    assert budget.wait(ATTACKER) == 0.0  # the reservations made were 7; none for the 429s
    # A total rate holds every address together (twice the burst at once).
    total = KeylessBudget(0.0, 1, 2.0, clock=lambda: now[0])
    assert [total.wait(f"10.0.0.{i}") for i in range(3)] == [0.0, 0.0, 0.5]
