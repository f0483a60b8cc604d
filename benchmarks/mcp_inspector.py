"""MCP Inspector's CLI against ``recall serve`` over stdio: ``tools/list``, N fresh runs.

The Inspector is the host people try a server with first; it gives up on a server slow to
answer its handshake. Each run starts ``mcp-inspector --cli recall serve --path DIR
--method tools/list`` (the Inspector spawns the server, connects, lists the tools, exits)
and records whether the tool list came back, and the wall time of the whole run.

    npm install --prefix /tmp/insp @modelcontextprotocol/inspector     # once (npm registry)
    .venv/bin/python benchmarks/mcp_inspector.py --inspector /tmp/insp [--runs 10]

Prints one line per run and a summary; writes benchmarks/results/mcp_inspector.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--inspector", type=Path, required=True, help="npm prefix holding it")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--out", type=Path, default=RESULTS / "mcp_inspector.json")
    a = ap.parse_args()
    cli = a.inspector / "node_modules" / ".bin" / "mcp-inspector"
    if not cli.exists():
        raise SystemExit(
            f"no {cli}: npm install --prefix {a.inspector} @modelcontextprotocol/inspector"
        )
    recall = Path(sys.executable).parent / "recall"
    package = a.inspector / "node_modules" / "@modelcontextprotocol" / "inspector" / "package.json"
    version = json.loads(package.read_text())["version"]
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(a.runs):
            folder = Path(tmp) / f"m{k}"
            cmd = [str(cli), "--cli", str(recall), "serve", "--path", str(folder)]
            t0 = time.perf_counter()
            done = subprocess.run(
                [*cmd, "--method", "tools/list"],
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
            wall = time.perf_counter() - t0
            try:
                tools = [t["name"] for t in json.loads(done.stdout)["tools"]]
            except (ValueError, KeyError, TypeError):
                tools = []
            ok = done.returncode == 0 and bool(tools)
            runs.append({"ok": ok, "wall_s": round(wall, 2), "tools": tools})
            print(f"run {k + 1}: {'ok' if ok else 'FAILED'} in {wall:.2f} s, tools {tools}")
            if not ok:
                print(done.stderr[-1500:], file=sys.stderr)
    out = {
        "inspector_version": version,
        "runs": len(runs),
        "ok": sum(r["ok"] for r in runs),
        "wall_s_median": round(statistics.median(r["wall_s"] for r in runs), 2),
        "per_run": runs,
    }
    print(f"{out['ok']} of {out['runs']} listed the tools; median wall {out['wall_s_median']} s")
    a.out.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
