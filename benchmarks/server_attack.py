"""`recall serve --transport http` under the attacks of issue 35, beside a keyed client.

Loopback only, bounded in count and time (``--seconds`` per phase, five phases: a
couple of minutes with the start). A server is started on a fresh folder with one API key
(the real models), a keyed client (from 127.0.0.1) seeds a few notes, then runs
``POST /v1/users/acme:bob/recall`` back to back: first alone, then beside each attack in
turn, each attack from another process bound to 127.0.0.2 (also loopback on Linux: another
client address, so the per-address share applies to it and not to the keyed client):

- ``pipelined``: 16 sockets send pipelined keyless requests (``GET /healthz`` and
  ``GET /v1/stats``, a 401) and never read an answer (at most 8 MB a socket);
- ``silent``: up to 300 sockets held open without a byte, each one the server closes
  opened again;
- ``stalled_bodies``: 64 sockets each declare an 8 MB body on a public path
  (``GET /healthz``), send 64 KiB of it and stall; reopened when closed;
- ``openapi``: 4 keyless clients fetch ``/openapi.json`` as fast as they are answered.

For each phase: the server process's peak RSS (VmRSS, sampled every 20 ms) and its growth
over the RSS at the phase's start, the RSS a second after the attack ended (memory given
back), the keyed client's p50/p95 and its refused calls beside its p50/p95 alone. Targets
(docs/server.md): growth within the documented bound for the attack's connections, and the
keyed p50 within 3x of alone.

    .venv/bin/python benchmarks/server_attack.py [--seconds 15]

Prints a table and writes benchmarks/results/server_attack.json; exits 1 when a target is
missed.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
KEY = "attack-bench-key-0123456789"
ATTACKER = "127.0.0.2"
MIB = 1024 * 1024
# The documented bound per keyless connection with the default settings (docs/server.md):
# one read held (256 KiB) + 8 queued requests (64 KiB head + 64 KiB body each) + the body
# read (16 KiB) + unsent bytes (64 KiB) + the answer being written (/openapi.json, ~60 KiB).
PER_CONNECTION = 256 * 1024 + 8 * 128 * 1024 + 16 * 1024 + 64 * 1024 + 64 * 1024


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            line = next(x for x in f if x.startswith("VmRSS:"))
    except (OSError, StopIteration):
        return 0.0
    return int(line.split()[1]) / 1024


class _Peak:
    """The peak RSS of ``pid`` since :meth:`reset`, sampled on a thread."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak, self.stop = pid, 0.0, False
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        while not self.stop:
            self.peak = max(self.peak, _rss_mb(self.pid))
            time.sleep(0.02)

    def reset(self) -> float:
        self.peak = now = _rss_mb(self.pid)
        return now


def _request(conn: http.client.HTTPConnection, method: str, path: str, body: Any = None) -> int:
    data = json.dumps(body).encode() if body is not None else None
    headers = {"authorization": f"Bearer {KEY}", "content-type": "application/json"}
    conn.request(method, path, body=data, headers=headers)
    answer = conn.getresponse()
    answer.read()
    return answer.status


def _keyed(port: int, seconds: float) -> dict[str, Any]:
    """The keyed client: recalls back to back for ``seconds``; its latencies in ms."""
    lat: list[float] = []
    refused = 0
    conn = None
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if conn is None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        started = time.perf_counter()
        try:
            status = _request(conn, "POST", "/v1/users/acme:bob/recall", {"query": "tea garden"})
        except (OSError, http.client.HTTPException):
            status = 0
        if status == 200:
            lat.append((time.perf_counter() - started) * 1000)
        else:
            refused += 1
            conn.close()
            conn = None
            time.sleep(0.05)
    if conn is not None:
        conn.close()
    lat.sort()
    pct = (lambda q: round(lat[min(len(lat) - 1, int(q * len(lat)))], 2)) if lat else None
    return {
        "calls": len(lat),
        "refused": refused,
        "p50_ms": pct(0.5) if pct else None,
        "p95_ms": pct(0.95) if pct else None,
    }


# --- the attacks: each runs in its own process, from ATTACKER, until ``end`` ----------------
def _connect(port: int) -> socket.socket:
    sock = socket.socket()
    sock.bind((ATTACKER, 0))
    sock.settimeout(2)
    sock.connect(("127.0.0.1", port))
    return sock


def _pipelined(port: int, end: float, out: Any) -> None:
    req = (
        b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        b"GET /v1/stats HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    ) * 128
    socks = [_connect(port) for _ in range(16)]
    for s in socks:
        s.setblocking(False)
    sent = [0] * len(socks)
    while time.monotonic() < end and any(n < 8 * MIB for n in sent):
        moved = False
        for i, s in enumerate(socks):
            if sent[i] >= 8 * MIB:
                continue
            try:
                sent[i] += s.send(req)
                moved = True
            except BlockingIOError:
                pass
            except OSError:
                sent[i] = 8 * MIB  # dropped by the server
        if not moved:
            time.sleep(0.01)
    out.put({"connections": len(socks), "bytes_sent": sum(sent)})
    time.sleep(max(0.0, end - time.monotonic()))
    for s in socks:
        s.close()


def _alive(sock: socket.socket) -> bool:
    try:
        sock.setblocking(False)
        sock.recv(1, socket.MSG_PEEK)  # an answer (503, 408, 413) or the end: closed
    except BlockingIOError:
        return True  # nothing to read: still held open
    except OSError:
        pass
    finally:
        sock.setblocking(True)
    return False


def _hold(port: int, end: float, out: Any, count: int, opening: bytes) -> None:
    """Keep ``count`` sockets open, each sending ``opening`` then nothing; reopen any the
    server closes (or answers), at most every 20 ms a round."""
    socks: list[socket.socket] = []
    opened = refused = 0
    while time.monotonic() < end:
        live = []
        for s in socks:
            if _alive(s):
                live.append(s)
            else:
                s.close()
        socks = live
        while len(socks) < count and time.monotonic() < end:
            try:
                s = _connect(port)
                if opening:
                    s.sendall(opening)
                socks.append(s)
                opened += 1
            except OSError:
                refused += 1
                break
        time.sleep(0.02)
    out.put({"connections_opened": opened, "connect_failures": refused, "held_at_end": len(socks)})
    for s in socks:
        s.close()


def _silent(port: int, end: float, out: Any) -> None:
    _hold(port, end, out, 300, b"")


def _stalled(port: int, end: float, out: Any) -> None:
    head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 8000000\r\n\r\n"
    _hold(port, end, out, 64, head + b"x" * (64 * 1024))


def _openapi(port: int, end: float, out: Any) -> None:
    done, started = [0], time.monotonic()

    def client() -> None:
        conn = None
        while time.monotonic() < end:
            try:
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", port, 10, (ATTACKER, 0))
                conn.request("GET", "/openapi.json")
                conn.getresponse().read()
                done[0] += 1
            except (OSError, http.client.HTTPException):
                conn = None

    threads = [threading.Thread(target=client) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put(
        {
            "connections": 4,
            "requests": done[0],
            "per_s": round(done[0] / (time.monotonic() - started), 1),
        }
    )


ATTACKS = {
    "pipelined": (_pipelined, 16),
    "silent": (_silent, 64),  # the per-address share: the server holds 64 of the 300
    "stalled_bodies": (_stalled, 64),
    "openapi": (_openapi, 4),
}


def _start(folder: Path, port: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "ANONYMIZED_TELEMETRY": "False",
        "RECALL_SERVER_API_KEYS": f"{KEY}=*",
    }
    cmd = [sys.executable, "-m", "recall.cli", "serve", "--transport", "http"]
    cmd += ["--port", str(port), "--path", str(folder)]
    proc = subprocess.Popen(cmd, env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("recall serve exited before it was ready")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return proc
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("recall serve did not come up in 180 s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="per phase")
    args = parser.parse_args()
    port = _free_port()
    ctx = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as tmp:
        proc = _start(Path(tmp) / "memory", port)
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            notes = [{"text": f"note {i}: tea in the garden on day {i}"} for i in range(30)]
            assert _request(conn, "POST", "/v1/users/acme:bob/notes", {"notes": notes}) == 201
            conn.close()
            _keyed(port, 3)  # warm: the user's partition built, caches filled
            peak = _Peak(proc.pid)
            start_rss = peak.reset()
            alone = _keyed(port, args.seconds)
            alone["peak_rss_mb"] = round(peak.peak, 1)
            phases: dict[str, Any] = {}
            for name, (attack, conns) in ATTACKS.items():
                time.sleep(1)
                before = peak.reset()
                out = ctx.Queue()
                end = time.time() + args.seconds
                worker = ctx.Process(target=_run_attack, args=(attack, port, end, out))
                worker.start()
                time.sleep(0.5)  # the attack is under way
                keyed = _keyed(port, args.seconds - 0.5)
                worker.join(timeout=args.seconds + 30)
                attack_stats = out.get(timeout=5) if not out.empty() else {}
                top = peak.peak
                time.sleep(1)
                bound = conns * PER_CONNECTION / MIB
                phases[name] = {
                    "attack": attack_stats,
                    "rss_before_mb": round(before, 1),
                    "peak_rss_mb": round(top, 1),
                    "growth_mb": round(top - before, 1),
                    "bound_mb": round(bound, 1),
                    "rss_after_mb": round(_rss_mb(proc.pid), 1),
                    "keyed": keyed,
                    "p50_ratio": _ratio(keyed["p50_ms"], alone["p50_ms"]),
                    "p95_ratio": _ratio(keyed["p95_ms"], alone["p95_ms"]),
                }
                ok = top - before <= bound and (phases[name]["p50_ratio"] or 99) <= 3
                phases[name]["target_met"] = ok
            peak.stop = True
        finally:
            proc.terminate()
            proc.wait(timeout=60)
    result = {
        "seconds_per_phase": args.seconds,
        "server_rss_at_start_mb": round(start_rss, 1),
        "alone": alone,
        "phases": phases,
        "all_targets_met": all(p["target_met"] for p in phases.values()),
    }
    _print(result)
    out_path = ROOT / "benchmarks" / "results" / "server_attack.json"
    out_path.write_text(json.dumps(result, indent=2) + "\n")
    return 0 if result["all_targets_met"] else 1


def _run_attack(attack: Any, port: int, end_wall: float, out: Any) -> None:
    attack(port, time.monotonic() + (end_wall - time.time()), out)


def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a is not None and b else None


def _print(result: dict[str, Any]) -> None:
    alone = result["alone"]
    print(
        f"keyed client alone: p50 {alone['p50_ms']} ms, p95 {alone['p95_ms']} ms "
        f"({alone['calls']} calls); server RSS {result['server_rss_at_start_mb']} MB"
    )
    print(f"{'phase':16} {'peak MB':>8} {'growth':>7} {'bound':>7} {'after':>7} "
          f"{'p50 ms':>7} {'p95 ms':>7} {'x p50':>6} {'refused':>7}  target")  # fmt: skip
    for name, p in result["phases"].items():
        k = p["keyed"]
        print(
            f"{name:16} {p['peak_rss_mb']:>8} {p['growth_mb']:>7} {p['bound_mb']:>7} "
            f"{p['rss_after_mb']:>7} {k['p50_ms']!s:>7} {k['p95_ms']!s:>7} "
            f"{p['p50_ratio']!s:>6} {k['refused']:>7}  {'met' if p['target_met'] else 'MISSED'}"
        )
        print(f"{'':16} attack: {p['attack']}")
    print(json.dumps(result))


if __name__ == "__main__":
    sys.exit(main())
