"""Load test of `recall serve --transport http` (bounded, loopback only).

Starts the server as a subprocess on 127.0.0.1 in a fresh memory folder, then runs
``--clients`` concurrent clients for ``--duration`` seconds against ``--users`` users, each
request a REST ``remember`` (POST /memories with a summary holding a unique token) with
probability ``--write-ratio``, else a ``deep_recall``. Afterwards every acknowledged remember
(HTTP 201) is looked up among the user's records (its summary id, whatever kind promotion
turned it into) and by a deep_recall of its token: a write not found is lost.

    .venv/bin/python benchmarks/server_load.py [--clients 16] [--duration 60] [--users 100]

Prints per-operation p50/p99 latency and requests/s, errors and lost writes, then one JSON
line. Exits 1 when there was an error or a lost write.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio
import httpx

WORDS = ["cache", "deploy", "friday", "redis", "tea", "coffee", "budget", "launch", "design"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(folder: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "ANONYMIZED_TELEMETRY": "False", "HF_HUB_OFFLINE": "1"}
    cmd = [sys.executable, "-m", "recall.cli", "serve", "--transport", "http"]
    cmd += ["--port", str(port), "--path", str(folder)]
    proc = subprocess.Popen(cmd, env=env)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("recall serve exited before it was ready")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("recall serve did not come up in 180 s")


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def _load(url: str, args: argparse.Namespace) -> dict[str, object]:
    lat: dict[str, list[float]] = {"remember": [], "recall": []}
    errors: list[str] = []
    acked: list[tuple[str, str, str]] = []  # (user, summary id, token)
    users = [f"load-{i:03d}" for i in range(args.users)]
    stop = time.monotonic() + args.duration
    rng = random.Random(args.seed)

    async def client(n: int, http: httpx.AsyncClient) -> None:
        seq = 0
        while time.monotonic() < stop:
            user = rng.choice(users)
            started = time.perf_counter()
            if rng.random() < args.write_ratio:
                seq += 1
                token = f"tok{n}x{seq}"
                text = f"We talked about {rng.choice(WORDS)} and {token}."
                r = await http.post(f"/v1/users/{user}/memories", json={"summary": text})
                op, ok = "remember", r.status_code == 201
                if ok:
                    acked.append((user, r.json()["summary_id"], token))
            else:
                query = f"what about {rng.choice(WORDS)}?"
                r = await http.post(f"/v1/users/{user}/recall", json={"query": query})
                op, ok = "recall", r.status_code == 200
            lat[op].append((time.perf_counter() - started) * 1000)
            if not ok:
                errors.append(f"{op} {r.status_code}: {r.text[:200]}")

    began = time.monotonic()
    limits = httpx.Limits(max_connections=args.clients)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as http:
        async with anyio.create_task_group() as tg:
            for n in range(args.clients):
                tg.start_soon(client, n, http)
        elapsed = time.monotonic() - began
        lost = await _verify(http, acked)
    total = sum(len(v) for v in lat.values())
    return {
        "clients": args.clients,
        "duration_s": round(elapsed, 1),
        "users": args.users,
        "requests": total,
        "requests_per_s": round(total / elapsed, 1),
        "errors": len(errors),
        "error_samples": errors[:5],
        "acknowledged_writes": len(acked),
        "lost_writes": len(lost),
        **{f"{op}_p50_ms": round(_pct(v, 0.5), 1) for op, v in lat.items()},
        **{f"{op}_p99_ms": round(_pct(v, 0.99), 1) for op, v in lat.items()},
        **{f"{op}_mean_ms": round(statistics.fmean(v), 1) for op, v in lat.items() if v},
        **{f"{op}_count": len(v) for op, v in lat.items()},
    }


async def _verify(http: httpx.AsyncClient, acked: list[tuple[str, str, str]]) -> list[str]:
    """Acknowledged writes not found among the user's records or by a search for them."""
    lost = []
    by_user: dict[str, list[tuple[str, str]]] = {}
    for user, sid, token in acked:
        by_user.setdefault(user, []).append((sid, token))
    for user, writes in by_user.items():
        records = (await http.get(f"/v1/users/{user}/memories")).json()["records"]
        texts = {r["id"]: r["text"] for r in records}
        for sid, token in writes:
            if sid not in texts or token not in texts[sid]:
                lost.append(sid)
        sid, token = writes[-1]  # the newest write of each user is also searchable
        body = {"query": token, "top_k": 50, "depth": "archive"}
        hits = (await http.post(f"/v1/users/{user}/recall", json=body)).json()["hits"]
        if not any(token in h["text"] for h in hits):
            lost.append(f"{sid} (not found by deep_recall)")
    return lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--users", type=int, default=100)
    parser.add_argument("--write-ratio", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        port = _free_port()
        proc = _start(Path(tmp) / "memory", port)
        try:
            out = anyio.run(_load, f"http://127.0.0.1:{port}", args)
        finally:
            proc.terminate()
            proc.wait(timeout=60)
    for op in ("remember", "recall"):
        print(
            f"{op:8s} n={out[f'{op}_count']:>6} p50 {out[f'{op}_p50_ms']:>8} ms  "
            f"p99 {out[f'{op}_p99_ms']:>8} ms"
        )
    print(
        f"{out['requests']} requests in {out['duration_s']} s = {out['requests_per_s']} req/s; "
        f"errors {out['errors']}, acknowledged writes {out['acknowledged_writes']}, "
        f"lost {out['lost_writes']}"
    )
    print(json.dumps(out))
    if out["errors"] or out["lost_writes"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
