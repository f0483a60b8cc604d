"""Server-Timing: off by default; on, every answer says where its time went, and the
spans of the worker thread land in the request's own tally."""

from __future__ import annotations

import threading

import anyio
import anyio.to_thread
from starlette.testclient import TestClient

import recall
from recall.server import ApiKeys, build_app
from recall.server.settings import ServerSettings
from recall.server.timing import header_value
from recall.spans import add, span, tally

LOCAL = "http://localhost"
KEY = "operator-key-0123456789"


def _timing(header: str) -> dict[str, float]:
    parts = (p.strip().partition(";dur=") for p in header.split(","))
    return {name: float(dur) for name, _, dur in parts}


def test_off_by_default(mem: recall.Memory) -> None:
    with TestClient(build_app(mem), base_url=LOCAL) as c:
        assert "server-timing" not in c.get("/healthz").headers


def test_a_recall_says_where_its_time_went(mem: recall.Memory) -> None:
    settings = ServerSettings().model_copy(update={"timing": True})
    app = build_app(mem, keys=ApiKeys([(KEY, "*")]), settings=settings)
    with TestClient(app, base_url=LOCAL, headers={"authorization": f"Bearer {KEY}"}) as c:
        r = c.post("/v1/users/u1/memories", json={"summary": "We moved the cache to redis."})
        assert r.status_code == 201
        assert {"parse", "auth", "queue", "total"} <= set(_timing(r.headers["server-timing"]))
        r = c.post("/v1/users/u1/recall", json={"query": "where is the cache?"})
        spans = _timing(r.headers["server-timing"])
    steps = {"parse", "auth", "queue", "index", "keyword", "embed", "vector", "retrieve"}
    assert steps | {"serialize", "total"} <= set(spans)
    assert all(v >= 0 for v in spans.values())
    assert spans["retrieve"] >= spans["keyword"] + spans["embed"] + spans["vector"] - 0.01
    assert spans["total"] >= spans["retrieve"]


def test_spans_cost_nothing_outside_a_tally_and_follow_anyio_threads() -> None:
    with span("nobody counts"):
        add("nobody", 1.0)  # no tally: nothing happens, nothing raises

    async def request() -> dict[str, float]:
        with tally() as counts:

            def work() -> str:
                with span("embed"):
                    add("queue", 0.25)
                return threading.current_thread().name

            name = await anyio.to_thread.run_sync(work)
            assert name != threading.current_thread().name
            return counts

    counts = anyio.run(request)
    assert counts["queue"] == 0.25 and "embed" in counts
    assert header_value({"b": 0.001, "a": 0.5}) == "a;dur=500.000, b;dur=1.000"
