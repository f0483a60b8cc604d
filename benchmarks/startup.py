"""Start-up cost, old default spec (MiniLM on torch) against the new (MiniLM on onnxruntime).

What a short-lived process pays before its first answer, each measured in fresh processes,
the two specs alternating run by run:

- ``import recall``;
- ``recall search`` from a cold shell (the wall time of the whole command);
- in a Python process: ``recall.open(path)``, then the first ``deep_recall`` (model load
  included), a warm one, and the peak RSS of the process holding the folder and models.

Both folders hold the same 2,000 records (built once, not timed).

    .venv/bin/python benchmarks/startup.py [--records 2000] [--runs 5]

Prints a table and one JSON line; writes benchmarks/results/startup.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

ROOT = Path(__file__).resolve().parents[1]
RECALL = Path(sys.executable).parent / "recall"
SPECS = ("default-torch", "default")
QUERY = "which database did the team move the cache to"

_IMPORT = "import time; t = time.perf_counter(); import recall; print(time.perf_counter() - t)"
_FIRST = textwrap.dedent(
    """
    import json, sys, time
    t0 = time.perf_counter()
    import recall
    t1 = time.perf_counter()
    settings = recall.Settings(path=sys.argv[1], index_spec=sys.argv[2])
    mem = recall.open(sys.argv[1], settings=settings)
    t2 = time.perf_counter()
    mem.deep_recall(sys.argv[3], user_id="u")
    t3 = time.perf_counter()
    mem.deep_recall(sys.argv[3] + " today", user_id="u")
    t4 = time.perf_counter()
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over fork and exec from the parent.
    status = open("/proc/self/status").read().split("VmHWM:")[1]
    rss = int(status.split()[0]) / 1024
    print(json.dumps({"import_s": t1 - t0, "open_s": t2 - t1, "first_query_ms": (t3 - t2) * 1000,
                      "warm_query_ms": (t4 - t3) * 1000, "peak_rss_mb": rss}))
    mem.close()
    """
)


def _build(path: Path, spec: str, records: int) -> None:
    import recall

    settings = recall.Settings(path=path, index_spec=spec)
    with recall.open(path, settings=settings) as mem:
        texts = [
            f"note {i}: the cache moved to redis cluster {i % 37} on day {i}"
            for i in range(records)
        ]
        mem.add_many([{"text": t} for t in texts], user_id="u")


def _wall(cmd: list[str]) -> tuple[float, str]:
    t = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=ROOT)
    return time.perf_counter() - t, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rows: dict[str, dict[str, list[float]]] = {s: {} for s in SPECS}
    with tempfile.TemporaryDirectory(prefix="recall-startup-") as tmp:
        folders = {s: Path(tmp) / s for s in SPECS}
        for spec, folder in folders.items():
            _build(folder, spec, args.records)
        for _ in range(args.runs):
            for spec, folder in folders.items():  # alternate: load drifts hit both sides
                r = rows[spec]
                r.setdefault("import_recall_s", []).append(
                    float(_wall([sys.executable, "-c", _IMPORT])[1])
                )
                # No --spec: each folder remembers the spec it was built with.
                cli = [str(RECALL), "search", QUERY, "--user", "u", "--path", str(folder)]
                r.setdefault("cli_search_s", []).append(_wall(cli)[0])
                _, out = _wall([sys.executable, "-c", _FIRST, str(folder), spec, QUERY])
                for key, value in json.loads(out).items():
                    r.setdefault(key, []).append(value)
    medians = {s: {k: statistics.median(v) for k, v in r.items()} for s, r in rows.items()}
    print(f"{'median of ' + str(args.runs):<22} {'old (torch)':>12} {'new (onnx)':>12}")
    for key in medians["default"]:
        old, new = medians["default-torch"][key], medians["default"][key]
        print(f"{key:<22} {old:>12.3f} {new:>12.3f}")
    result = {
        "records": args.records,
        "runs": args.runs,
        "old_spec": "default-torch",
        "new_spec": "default",
        **{f"old_{k}": round(v, 4) for k, v in medians["default-torch"].items()},
        **{f"new_{k}": round(v, 4) for k, v in medians["default"].items()},
    }
    out_dir = ROOT / "benchmarks" / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "startup.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
