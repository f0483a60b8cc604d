"""MCP over stdio: how long a host waits for recall's ``initialize`` answer, and for the
first tool call after it.

Each run starts ``recall serve --transport stdio`` on a folder of a few records as a host
would (a real MCP client over the process's stdin/stdout) and times, from the spawn:

- ``initialize``: the client's handshake answered (the host's connect timeout counts this);
- ``first call``: a ``deep_recall`` answered right after (the models loaded by then).

    .venv/bin/python benchmarks/mcp_startup.py [--runs 5]

Prints a table and one JSON line (medians); writes benchmarks/results/mcp_startup.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

import recall

RESULTS = Path(__file__).resolve().parent / "results"


async def _one(folder: Path) -> tuple[float, float]:
    env = {**os.environ, "ANONYMIZED_TELEMETRY": "False"}
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "recall.cli", "serve", "--path", str(folder)],
        env=env,
    )
    t0 = time.perf_counter()
    async with Client(params, read_timeout_seconds=120) as client:  # initialize on enter
        t_init = time.perf_counter() - t0
        result = await client.call_tool("deep_recall", {"query": "tea", "user_id": "u1"})
        assert not result.is_error, result
        t_call = time.perf_counter() - t0
    return t_init, t_call


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", type=Path, default=RESULTS / "mcp_startup.json")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d) / "m"
        with recall.open(folder) as mem:
            mem.add("I drink oolong tea every afternoon.", user_id="u1")
            mem.add("The team moved the cache to Redis.", user_id="u1")
        runs = [anyio.run(_one, folder) for _ in range(args.runs)]
    inits, calls = [r[0] for r in runs], [r[1] for r in runs]
    out = {
        "runs": args.runs,
        "initialize_s_median": round(statistics.median(inits), 3),
        "first_call_s_median": round(statistics.median(calls), 3),
        "initialize_s": [round(x, 3) for x in inits],
        "first_call_s": [round(x, 3) for x in calls],
    }
    print(f"{'initialize (s)':<20} {out['initialize_s_median']:>6}   runs {out['initialize_s']}")
    print(f"{'first call (s)':<20} {out['first_call_s_median']:>6}   runs {out['first_call_s']}")
    args.out.write_text(json.dumps(out, indent=2) + "\n")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
