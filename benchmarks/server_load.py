"""Load test of `recall serve --transport http` against one thread doing the same work.

A memory folder is seeded (``--users`` users, ``--seed-notes`` notes each), then copied:
one copy is served by ``recall serve`` (a subprocess on 127.0.0.1, ``Server-Timing`` on)
and ``--clients`` concurrent clients send it a fixed list of ``--ops`` operations
(``--recall-share`` REST deep_recalls, the rest REST ``remember``s of a summary holding a
unique token, users drawn at random); the other copies are replayed by ONE thread in this
process calling ``Memory.deep_recall`` / ``Memory.update_memory`` with the same operations
in the same order, before and after the server run (their mean is the reference, their
spread shows the machine's drift). The ratio is server operations/s over that reference.

Afterwards every acknowledged remember (HTTP 201) is looked up among the user's records:
a write not found is lost. Each answer's ``Server-Timing`` header says where the server
spent its time (recall.server.timing); the medians per operation are printed, with
``outside`` = the client's time less the server's ``total`` (HTTP, the client, the loop),
and how many cores each side kept busy (the server's processes, this process's clients,
the one thread with its background rebuilds).

    .venv/bin/python benchmarks/server_load.py [--ops 1200] [--clients 16] [--users 50]
        [--workers N] [--fake-upsert-ms MS]

With ``--workers N`` the server runs N processes (``recall serve --workers``) with the
vectors on a ``chroma run`` server started here, which also runs on the machine's cores;
the one thread still replays on copies of the embedded folder.

``--fake-upsert-ms 12`` is an experiment, not a mode: the served process's Chroma upsert
becomes a 12 ms wait that holds no lock (chromadb's Rust bindings hold the GIL through a
write), which bounds what moving the writes out of the process could give.

Prints a summary and one JSON line, writes benchmarks/results/server_load.json. Exits 1
when there was an error or a lost write.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import anyio
import httpx

import recall

ROOT = Path(__file__).resolve().parents[1]
WORDS = ["cache", "deploy", "friday", "redis", "tea", "coffee", "budget", "launch", "design"]
THINGS = ["the api", "my sister", "the garden", "the invoice", "kubernetes", "the hotel", "march"]
SPANS = ("parse", "auth", "queue", "index", "keyword", "embed", "vector", "retrieve", "serialize")

Op = tuple[str, str, str]  # (kind, user, text)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def make_ops(n: int, users: list[str], recall_share: float, seed: int) -> list[Op]:
    """The fixed operation list both sides run: deep_recall queries and remember writes."""
    rng = random.Random(seed)
    ops: list[Op] = []
    for i in range(n):
        user = rng.choice(users)
        if rng.random() < recall_share:
            ops.append(("recall", user, f"what did we say about {rng.choice(WORDS)}?"))
        else:
            text = f"We talked about {rng.choice(WORDS)} and {rng.choice(THINGS)}, tok{i}x."
            ops.append(("remember", user, text))
    return ops


def seed_folder(
    folder: Path, users: list[str], notes: int, seed: int, chroma_url: str | None = None
) -> None:
    rng = random.Random(seed)
    with recall.open(folder, chroma_url=chroma_url) as mem:
        for user in users:
            items = [
                {"text": f"{rng.choice(THINGS)} and {rng.choice(WORDS)}: note {j} of {user}"}
                for j in range(notes)
            ]
            mem.add_many(items, user_id=user)


def _cpu_s(pids: list[int]) -> float:
    """CPU seconds (user + system) these processes have used so far (Linux /proc; 0 else)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _family(pid: int) -> list[int]:
    """``pid`` and its children (the workers of ``recall serve --workers``)."""
    kids = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if int(entry.joinpath("stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                kids.append(int(entry.name))
        except (OSError, IndexError, ValueError):
            continue
    return [pid, *kids]


def replay(folder: Path, ops: list[Op]) -> dict[str, Any]:
    """One thread, the same operations in order, on a copy of the seeded folder."""
    with recall.open(folder) as mem:
        mem.warm_up()
        lat: dict[str, list[float]] = {"recall": [], "remember": []}
        errors = 0
        start, cpu = time.perf_counter(), time.process_time()
        for kind, user, text in ops:
            t = time.perf_counter()
            try:
                if kind == "recall":
                    mem.deep_recall(text, user_id=user)
                else:
                    mem.update_memory(text, user_id=user)
            except recall.RecallError:
                errors += 1
            lat[kind].append((time.perf_counter() - t) * 1000)
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu  # every thread of this process (the prewarm too)
    return {
        "ops_per_s": round(len(ops) / elapsed, 1),
        "cores": round(cpu / elapsed, 2),
        "errors": errors,
        **{f"{k}_p50_ms": round(_pct(v, 0.5), 2) for k, v in lat.items()},
    }


def _server_timing(header: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for part in header.split(","):
        name, _, dur = part.strip().partition(";dur=")
        if name and dur:
            out[name] = float(dur)
    return out


# --fake-upsert-ms: the served process's Chroma upsert becomes a wait that holds no lock
# (the rows still reach recall.index.recent, so queries score them). An experiment, not a
# mode: what a Chroma writer outside the process would give at best.
_FAKE_UPSERT = """
import sys, time
import recall.index.vector as v
def upsert(self, user_id, ids, vectors, kinds, hashes):
    time.sleep({seconds})
    self.recent.put(user_id, list(ids), vectors, list(hashes))
v.VectorIndex.upsert = upsert
from recall.cli import main
sys.argv[0] = "recall"
main()
"""


def _start(
    folder: Path, port: int, workers: int, chroma_url: str | None, fake_upsert_ms: float = 0
) -> subprocess.Popen[bytes]:
    env = {**os.environ, "RECALL_SERVER_TIMING": "1", "HF_HUB_OFFLINE": "1"}
    cmd = [sys.executable, "-m", "recall.cli", "serve", "--transport", "http"]
    if fake_upsert_ms:
        code = _FAKE_UPSERT.format(seconds=fake_upsert_ms / 1000)
        cmd = [sys.executable, "-c", code, "serve", "--transport", "http"]
    cmd += ["--port", str(port), "--path", str(folder)]
    if chroma_url is not None:
        cmd += ["--workers", str(workers), "--chroma-url", chroma_url]
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


class _Conn:
    """One keep-alive HTTP/1.1 connection: a JSON POST out, its answer in.

    The clients share the server's two cores, so they should cost little: httpx took 0.25
    to 0.31 of a core for this load (about 3 ms a request), this about a tenth of that.
    The server answers every route here with a Content-Length (starlette's JSON answers).
    """

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = json.dumps(body).encode()
        self.writer.write(
            f"POST {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n".encode()
            + data
        )
        head = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        headers = {}
        for line in head[1:]:
            name, _, value = line.partition(":")
            if name:
                headers[name.strip().lower()] = value.strip()
        if "content-length" not in headers:
            raise RuntimeError(f"an answer without Content-Length: {head[0]}")
        payload = await self.reader.readexactly(int(headers["content-length"]))
        if headers.get("connection", "").lower() == "close":
            self.writer.close()
            self.reader = self.writer = None
        return int(head[0].split()[1]), headers, payload

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def _load(url: str, ops: list[Op], clients: int) -> dict[str, Any]:
    lat: dict[str, list[float]] = {"recall": [], "remember": []}
    spans: dict[str, dict[str, list[float]]] = {"recall": {}, "remember": {}}
    errors: list[str] = []
    acked: list[tuple[str, str, str]] = []  # (user, summary id, text)
    todo = iter(ops)
    host, _, port = url.removeprefix("http://").partition(":")

    async def client(conn: _Conn) -> None:
        for kind, user, text in todo:  # one event loop: the iterator needs no lock
            started = time.perf_counter()
            if kind == "remember":
                status, headers, body = await conn.post(
                    f"/v1/users/{user}/memories", {"summary": text}
                )
                ok = status == 201
                if ok:
                    acked.append((user, json.loads(body)["summary_id"], text))
            else:
                status, headers, body = await conn.post(f"/v1/users/{user}/recall", {"query": text})
                ok = status == 200
            took = (time.perf_counter() - started) * 1000
            lat[kind].append(took)
            timing = _server_timing(headers.get("server-timing", ""))
            timing["outside"] = took - timing.get("total", took)
            for name, ms in timing.items():
                spans[kind].setdefault(name, []).append(ms)
            if not ok:
                errors.append(f"{kind} {status}: {body[:200]!r}")

    conns = [_Conn(host, int(port)) for _ in range(clients)]
    began = time.perf_counter()
    try:
        async with anyio.create_task_group() as tg:
            for conn in conns:
                tg.start_soon(client, conn)
    finally:
        for conn in conns:
            conn.close()
    elapsed = time.perf_counter() - began
    async with httpx.AsyncClient(base_url=url, timeout=120) as http:
        lost = await _verify(http, acked)
    every = lat["recall"] + lat["remember"]
    return {
        "ops_per_s": round(len(ops) / elapsed, 1),
        "errors": len(errors),
        "error_samples": errors[:5],
        "acknowledged_writes": len(acked),
        "lost_writes": len(lost),
        "p50_ms": round(_pct(every, 0.5), 1),
        "p99_ms": round(_pct(every, 0.99), 1),
        **{f"{k}_p50_ms": round(_pct(v, 0.5), 1) for k, v in lat.items()},
        **{f"{k}_p99_ms": round(_pct(v, 0.99), 1) for k, v in lat.items()},
        "split_p50_ms": {
            k: {name: round(statistics.median(v), 2) for name, v in sorted(s.items())}
            for k, s in spans.items()
        },
        # A span's median is over the requests that had it: how many did, per operation.
        "split_share": {
            k: {name: round(len(v) / max(1, len(lat[k])), 3) for name, v in sorted(s.items())}
            for k, s in spans.items()
        },
    }


async def _verify(http: httpx.AsyncClient, acked: list[tuple[str, str, str]]) -> list[str]:
    """Acknowledged writes not found among the user's records."""
    lost = []
    by_user: dict[str, list[tuple[str, str]]] = {}
    for user, sid, text in acked:
        by_user.setdefault(user, []).append((sid, text))
    for user, writes in by_user.items():
        records = (await http.get(f"/v1/users/{user}/memories")).json()["records"]
        texts = {r["id"]: r["text"] for r in records}
        lost += [sid for sid, text in writes if texts.get(sid) != text]
    return lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", type=int, default=1200)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seed-notes", type=int, default=20)
    parser.add_argument("--recall-share", type=float, default=0.7)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--fake-upsert-ms",
        type=float,
        default=0,
        help="an experiment: the server's Chroma upsert replaced by a wait of this many ms "
        "that holds no lock (chromadb's upsert holds the GIL); the thread keeps the real one",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        help="serve from N worker processes, the vectors on a `chroma run` server started "
        "here (the served folder is seeded there with the same notes); 0: one process, "
        "embedded Chroma, a copy of the seeded folder",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/server_load.json")
    args = parser.parse_args()
    users = [f"load-{i:03d}" for i in range(args.users)]
    ops = make_ops(args.ops, users, args.recall_share, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        seeded = Path(tmp) / "seeded"
        seed_folder(seeded, users, args.seed_notes, args.seed)
        for name in ("served", "before", "after"):
            if name != "served" or not args.workers:
                shutil.copytree(seeded, Path(tmp) / name)
        chroma = None
        if args.workers:
            sys.path.insert(0, str(ROOT / "tests"))
            from chroma_server import ChromaServer, free_port

            chroma = ChromaServer(Path(tmp) / "chroma", free_port())
            chroma.start()
            seed_folder(Path(tmp) / "served", users, args.seed_notes, args.seed, chroma.url)
        before = replay(Path(tmp) / "before", ops)
        port = _free_port()
        served_at = Path(tmp) / "served"
        proc = _start(served_at, port, args.workers, chroma and chroma.url, args.fake_upsert_ms)
        try:
            # Cores used during the load: the server's processes (a Chroma server's too)
            # and this one, the clients'; the thread's figure comes from replay().
            pids = _family(proc.pid) + ([chroma.proc.pid] if chroma and chroma.proc else [])
            began, server_cpu, client_cpu = time.perf_counter(), _cpu_s(pids), time.process_time()
            served = anyio.run(_load, f"http://127.0.0.1:{port}", ops, args.clients)
            took = time.perf_counter() - began
            served["server_cores"] = round((_cpu_s(pids) - server_cpu) / took, 2)
            served["client_cores"] = round((time.process_time() - client_cpu) / took, 2)
        finally:
            proc.terminate()
            proc.wait(timeout=60)
            if chroma is not None:
                chroma.stop()
        after = replay(Path(tmp) / "after", ops)
    thread = (before["ops_per_s"] + after["ops_per_s"]) / 2
    out = {
        "command": "benchmarks/server_load.py " + " ".join(sys.argv[1:]),
        "ops": args.ops,
        "clients": args.clients,
        "users": args.users,
        "recall_share": args.recall_share,
        "workers": args.workers,
        "server": served,
        "thread_before": before,
        "thread_after": after,
        "server_over_thread": round(served["ops_per_s"] / thread, 2),
        "p99_over_p50": round(served["p99_ms"] / max(served["p50_ms"], 1e-9), 1),
    }
    print(
        f"server {served['ops_per_s']} ops/s (p50 {served['p50_ms']} ms, p99 "
        f"{served['p99_ms']} ms) | one thread {before['ops_per_s']} / {after['ops_per_s']} "
        f"ops/s (before / after) | ratio {out['server_over_thread']}x | errors "
        f"{served['errors']}, acknowledged writes {served['acknowledged_writes']}, lost "
        f"{served['lost_writes']}"
    )
    print(
        f"  cores busy: server {served['server_cores']}, its clients {served['client_cores']}; "
        f"one thread {before['cores']} / {after['cores']} (of {os.cpu_count()})"
    )
    for kind, split in served["split_p50_ms"].items():
        share = served["split_share"][kind]
        shown = ", ".join(
            f"{k} {v}" + ("" if share[k] > 0.99 else f" ({share[k]:.0%} of them)")
            for k, v in split.items()
        )
        print(f"  {kind} p50 ms: {shown}")
    print(json.dumps(out))
    args.out.write_text(json.dumps(out, indent=1) + "\n")
    if served["errors"] or served["lost_writes"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
