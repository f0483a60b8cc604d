"""Start-up of two source trees side by side: ``import recall`` and a cold ``recall search``.

    git worktree add /tmp/before <rev>
    .venv/bin/python benchmarks/startup_trees.py /tmp/before . [--runs 7] [--records 200]

Each run is a fresh process of this venv's Python with the tree first on ``sys.path``
(run from inside the tree: ``python -c`` and ``python -m`` put the working directory ahead
of ``PYTHONPATH``), the trees alternating run by run. ``search`` is the wall time of
``python -m recall.cli search`` on a folder of ``--records`` notes (written once, by the
last tree), from a cold process (models loaded, first query answered). Prints medians and
writes benchmarks/results/startup_trees.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
_IMPORT = "import time; t = time.perf_counter(); import recall; print(time.perf_counter() - t)"
_FILL = """
import sys, recall
n = int(sys.argv[2])
notes = [{"text": f"Note {i}: shard {i} of the cache moved to Redis."} for i in range(n)]
with recall.open(sys.argv[1]) as m:
    m.add_many(notes, user_id="u1")
"""


def _env(tree: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree), "ANONYMIZED_TELEMETRY": "False"}


def _run(tree: Path, args: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *args],
        cwd=tree,
        env=_env(tree),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"{tree}: {' '.join(args)} failed:\n{done.stderr[-2000:]}")
    return time.perf_counter() - t0, done.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("trees", nargs="+", type=Path)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--records", type=int, default=200)
    ap.add_argument("--out", type=Path, default=RESULTS / "startup_trees.json")
    a = ap.parse_args()
    trees = [t.resolve() for t in a.trees]
    imports: dict[Path, list[float]] = {t: [] for t in trees}
    search: dict[Path, list[float]] = {t: [] for t in trees}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "memory"
        _run(trees[-1], ["-c", _FILL, str(folder), str(a.records)])
        query = ["-m", "recall.cli", "search", "cache shard", "--user", "u1", "--path", str(folder)]
        for _ in range(a.runs):
            for tree in trees:
                imports[tree].append(float(_run(tree, ["-c", _IMPORT])[1].strip()))
                search[tree].append(_run(tree, query)[0])
    out = {
        "runs": a.runs,
        "records": a.records,
        "trees": {
            str(t): {
                "import_recall_s_median": round(statistics.median(imports[t]), 3),
                "cold_search_s_median": round(statistics.median(search[t]), 3),
                "import_recall_s": [round(x, 3) for x in imports[t]],
                "cold_search_s": [round(x, 3) for x in search[t]],
            }
            for t in trees
        },
    }
    for t in trees:
        row = out["trees"][str(t)]
        print(
            f"{t}: import recall {row['import_recall_s_median']:.3f} s, "
            f"cold recall search {row['cold_search_s_median']:.2f} s (medians of {a.runs})"
        )
    a.out.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
