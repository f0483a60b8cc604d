"""A bounded share of the server for requests that carry no valid key.

A client needs no key to ask for ``/healthz`` or ``/openapi.json``, or to be refused (401,
403, 404, 413...), and each answer costs the event loop as much as a keyed one's parsing
and writing: a few keyless clients asking as fast as they are answered took the loop from
the keyed clients beside them (issue 35: a keyed client's median 7.8x slower beside 1,040
``/openapi.json`` a second, 23x beside 16 sockets of pipelined ``/healthz``).

:class:`KeylessBudget` gives such requests a rate, per client address (an IPv6 one by its
/64) and for every address together: a token bucket kept as its theoretical arrival time
(GCRA: each request moves it on by ``1 / rate``; ``burst`` requests pass at once after a
quiet spell). A request past its rate is not refused and not answered sooner: it waits
for its turn, and while it waits its connection reads nothing more (the pipelined requests
behind it stay bounded by :mod:`recall.server.conn_flow`), so a flood costs the server a
timer per connection, not an answer per request. Only a wait past :data:`MAX_WAIT_S`
(clients that open connections faster than they are served, then leave) is answered at
once, a 429 that closes the connection, so that waiting requests stay bounded too.

Requests that carry a valid key (or the inspector's cookie where it counts) are never
charged; neither are a keyless server's loopback clients on its non-public paths.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable

import anyio
from starlette.types import Scope, Send

from .auth import ApiKeys, key_from_headers, ui_token
from .conn_flow import SHARE_ASIDE, client_key

__all__ = ["KeylessBudget", "MAX_WAIT_S", "carries_key", "take_turn"]

#: The longest a keyless request waits for its turn; past it, a 429 at once (and the
#: connection closed), the bucket not charged.
MAX_WAIT_S = 5.0
#: Addresses remembered at most before the idle ones are forgotten.
_SWEEP_AT = 4096


class KeylessBudget:
    """Per-address and global rates for keyless requests (see the module docs)."""

    def __init__(
        self,
        rate: float,
        burst: int,
        total_rate: float,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate, self.burst, self.total_rate = rate, burst, total_rate
        self.total_burst = 2 * burst
        self.clock = clock
        self._tat: dict[str, float] = {}
        self._total_tat = 0.0

    @property
    def enabled(self) -> bool:
        return self.rate > 0 or self.total_rate > 0

    def wait(self, host: str | None) -> float | None:
        """Charge one keyless request from ``host``: the seconds it should wait for its
        turn (0: at once), or None when that would be past :data:`MAX_WAIT_S` (nothing
        charged: answer it 429 and close)."""
        now = self.clock()
        key = client_key(host) or ""
        own = total = None
        wait = 0.0
        if self.rate > 0:
            own = max(self._tat.get(key, now), now) + 1 / self.rate
            wait = max(wait, own - now - self.burst / self.rate)
        if self.total_rate > 0:
            total = max(self._total_tat, now) + 1 / self.total_rate
            wait = max(wait, total - now - self.total_burst / self.total_rate)
        if wait > MAX_WAIT_S:
            return None
        if own is not None:
            if len(self._tat) >= _SWEEP_AT and key not in self._tat:
                self._sweep(now)
            self._tat[key] = own
        if total is not None:
            self._total_tat = total
        return wait

    def _sweep(self, now: float) -> None:
        """Forget the addresses whose buckets are full again (they would start at now)."""
        for key in [k for k, tat in self._tat.items() if tat <= now]:
            del self._tat[key]

    def __len__(self) -> int:
        """Addresses remembered (a full bucket is forgotten at the next sweep)."""
        return len(self._tat)


async def take_turn(budget: KeylessBudget, scope: Scope, send: Send) -> bool:
    """Wait for a keyless request's turn (True), or answer it 429 and close (False) when
    its turn is more than :data:`MAX_WAIT_S` away. While it waits it does not count as
    one of its address's requests in flight (``max_client_requests``): it holds no work."""
    client = scope.get("client")
    wait = budget.wait(client[0] if client else None)
    if wait is None:
        await _too_many(send)
        return False
    if wait > 0:
        aside = scope.get(SHARE_ASIDE)
        with aside() if aside is not None else contextlib.nullcontext():
            await anyio.sleep(wait)
    return True


def carries_key(keys: ApiKeys | None, scope: Scope) -> bool:
    """Whether the request carries a key (or an inspector login) that ``keys`` knows."""
    if keys is None:
        return False
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
    try:
        keys.tenant(key_from_headers(headers), ui=ui_token(headers, scope["method"], scope["path"]))
    except Exception:
        return False
    return True


async def _too_many(send: Send) -> None:
    message = (
        "this address sends requests without a key faster than they are served "
        "(RECALL_SERVER_KEYLESS_RATE, RECALL_SERVER_KEYLESS_TOTAL_RATE); wait, or send a key"
    )
    body = json.dumps({"error": message, "status": 429}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(int(MAX_WAIT_S)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": 429, "headers": headers})
    await send({"type": "http.response.body", "body": body})
