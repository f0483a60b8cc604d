"""Per-tenant fairness of `recall serve --transport http`: does a bulk writer multiply
another tenant's recall latency?

For each mode (the per-tenant limit on, ``RECALL_SERVER_TENANT_CONCURRENCY=2``, and off,
``0``) a fresh server starts as a subprocess on 127.0.0.1 in a fresh folder, with two API
keys: tenants ``quiet`` and ``bulk``. The quiet tenant's user ``quiet:q`` gets
``--seed-notes`` notes, then runs ``--recalls`` sequential ``POST /recall`` alone, then the
same recalls while tenant ``bulk`` keeps ``--writers`` concurrent ``POST /notes`` of
``--batch`` notes each in flight, spread over ``--bulk-users`` of its users (one user's
writes already queue on that user's index lock; many users' do not). Texts and queries
come from a seeded generator, so every run asks the same.

    .venv/bin/python benchmarks/fairness.py [--recalls 40] [--writers 8] [--batch 200]

Prints the quiet tenant's recall p50/p95 alone and under the bulk writer, per mode, and
writes them to benchmarks/results/fairness.json. A shared machine's other load shows in
the figures: the load average before each phase is recorded beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import httpx

RESULTS = Path(__file__).resolve().parent / "results" / "fairness.json"
# fmt: off
WORDS = [
    "cache", "deploy", "friday", "redis", "tea", "coffee", "budget", "launch",
    "design", "review", "invoice", "garden", "piano", "travel", "kyoto", "lisbon",
    "marathon", "recipe", "pasta", "allergy", "dentist", "meeting", "sprint", "backup",
    "laptop", "keyboard", "novel", "jazz", "hiking", "river", "camera",
]
# fmt: on
QUERIES = [
    "which cache did we choose",
    "when is the deploy",
    "what does the user drink in the morning",
    "travel plans for the spring",
    "the dentist appointment",
    "what recipe did they like",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 16))).capitalize() + "."


QUIET_KEY, BULK_KEY = "quiet-key-0123456789", "bulk-key-01234567890"


def _start(folder: Path, port: int, slots: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "ANONYMIZED_TELEMETRY": "False",
        "HF_HUB_OFFLINE": "1",
        "RECALL_SERVER_TENANT_CONCURRENCY": str(slots),
        "RECALL_SERVER_API_KEYS": f"{QUIET_KEY}=quiet,{BULK_KEY}=bulk",
    }
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
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _summary(latencies: list[float]) -> dict[str, float]:
    return {
        "n": len(latencies),
        "p50_ms": round(_pct(latencies, 0.5) * 1000, 1),
        "p95_ms": round(_pct(latencies, 0.95) * 1000, 1),
        "mean_ms": round(statistics.fmean(latencies) * 1000, 1),
    }


async def _recalls(http: httpx.AsyncClient, n: int) -> list[float]:
    out = []
    for i in range(n):
        started = time.perf_counter()
        r = await http.post(
            "/v1/users/quiet:q/recall",
            json={"query": QUERIES[i % len(QUERIES)]},
            headers={"authorization": f"Bearer {QUIET_KEY}"},
        )
        out.append(time.perf_counter() - started)
        r.raise_for_status()
    return out


async def _mode(url: str, args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    async with httpx.AsyncClient(base_url=url, timeout=300) as http:
        seed_notes = [{"text": _sentence(rng)} for _ in range(args.seed_notes)]
        quiet = {"authorization": f"Bearer {QUIET_KEY}"}
        seeded = await http.post(
            "/v1/users/quiet:q/notes", json={"notes": seed_notes}, headers=quiet
        )
        seeded.raise_for_status()
        await _recalls(http, 3)  # the user's partitions warm, as on a running server
        load_alone = os.getloadavg()[0]
        alone = await _recalls(http, args.recalls)

        batches = [[{"text": _sentence(rng)} for _ in range(args.batch)] for _ in range(64)]
        written = 0
        write_lat: list[float] = []
        done = anyio.Event()

        async def writer(k: int) -> None:
            nonlocal written
            i = k
            while not done.is_set():
                body = {"notes": batches[i % len(batches)]}
                started = time.perf_counter()
                user = f"bulk:u{k % args.bulk_users}"
                r = await http.post(
                    f"/v1/users/{user}/notes",
                    json=body,
                    headers={"authorization": f"Bearer {BULK_KEY}"},
                )
                r.raise_for_status()
                write_lat.append(time.perf_counter() - started)
                written += args.batch
                i += args.writers

        under: list[float] = []
        load_bulk = 0.0
        async with anyio.create_task_group() as tg:
            for k in range(args.writers):
                tg.start_soon(writer, k)
            await anyio.sleep(args.ramp_s)  # every writer has a request in flight
            load_bulk = os.getloadavg()[0]
            under = await _recalls(http, args.recalls)
            done.set()
    return {
        "alone": _summary(alone),
        "under_bulk": _summary(under),
        "p50_ratio": round(_pct(under, 0.5) / _pct(alone, 0.5), 2),
        "p95_ratio": round(_pct(under, 0.95) / _pct(alone, 0.95), 2),
        "bulk_notes_written": written,
        "bulk_request": _summary(write_lat) if write_lat else None,
        "loadavg_1m": {"before_alone": load_alone, "during_bulk": load_bulk},
    }


def main() -> None:
    """Run both modes and write the results."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--recalls", type=int, default=40, help="recalls per phase")
    ap.add_argument("--writers", type=int, default=8, help="concurrent bulk POST /notes")
    ap.add_argument("--batch", type=int, default=200, help="notes per bulk request")
    ap.add_argument("--bulk-users", type=int, default=8, help="users the bulk tenant writes")
    ap.add_argument("--seed-notes", type=int, default=200, help="the quiet tenant's notes")
    ap.add_argument("--ramp-s", type=float, default=2.0, help="bulk running before recalls")
    ap.add_argument("--slots", type=int, default=2, help="tenant slots of the 'on' mode")
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args()

    modes: dict[str, Any] = {}
    for name, slots in (("limiter_on", args.slots), ("limiter_off", 0)):
        with tempfile.TemporaryDirectory(prefix="recall-fairness-") as tmp:
            port = _free_port()
            proc = _start(Path(tmp) / "memory", port, slots)
            try:
                result = anyio.run(_mode, f"http://127.0.0.1:{port}", args)
            finally:
                proc.terminate()
                proc.wait(timeout=60)
        modes[name] = {"tenant_concurrency": slots, **result}
        a, u = result["alone"], result["under_bulk"]
        print(
            f"{name:12s} recall alone p50 {a['p50_ms']:7.1f} ms p95 {a['p95_ms']:7.1f} ms | "
            f"under bulk p50 {u['p50_ms']:7.1f} ms p95 {u['p95_ms']:7.1f} ms "
            f"(x{result['p50_ratio']} / x{result['p95_ratio']}); "
            f"bulk wrote {result['bulk_notes_written']} notes",
            flush=True,
        )
    report = {
        "command": "python benchmarks/fairness.py " + " ".join(sys.argv[1:]),
        "config": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "modes": modes,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
