"""How many requests not to keep a memory recall's privacy reading finds, phrased by people
who never read its code, and how many look-alikes it takes for one.

    .venv/bin/python benchmarks/privacy_requests.py [--out benchmarks/results/privacy_requests.json]

Data (``benchmarks/data/privacy/``): user messages written from a brief by a helper blind to
recall's code and evaluation data, labelled ``private`` (asks the assistant not to keep
something: before, after or in the middle of a message, or a follow-up pointing back) or
``keep`` (look-alikes: reminders, requests to remember, "forget it" meaning never mind,
corrections, "don't tell anyone", technical deletes, plain secrets with no request). Every
file is scored (``dev`` and ``frozen``, one writer's, split at random; ``more``, another
writer's; see the folder's README.md); none was used to write or tune
:func:`recall.lifecycle.privacy.asks_privacy`. A look-alike taken
is a memory lost; a request missed is a secret kept.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from recall.lifecycle.privacy import asks_privacy

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "privacy"


def rates(rows: list[tuple[str, str, str]]) -> dict[str, Any]:
    """Per language and in all: requests found and look-alikes taken."""
    out: dict[str, Any] = {}
    for lang in ("en", "zh", "all"):
        sel = [r for r in rows if lang in ("all", r[1])]
        asks = [r for r in sel if r[0] == "private"]
        others = [r for r in sel if r[0] == "keep"]
        out[lang] = {
            "requests_found": sum(asks_privacy(r[2]) is not None for r in asks),
            "requests": len(asks),
            "lookalikes_taken": sum(asks_privacy(r[2]) is not None for r in others),
            "lookalikes": len(others),
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=HERE / "results" / "privacy_requests.json")
    args = ap.parse_args()
    result = {}
    for split in ("dev", "frozen", "more"):
        lines = (DATA / f"{split}.tsv").read_text(encoding="utf-8").splitlines()
        rows = [(p[0], p[1], p[2]) for ln in lines if len(p := ln.split("\t")) == 3]
        result[split] = rates(rows)
        for lang, v in result[split].items():
            found = v["requests_found"] / max(1, v["requests"])
            taken = v["lookalikes_taken"] / max(1, v["lookalikes"])
            print(
                f"{split:<7} {lang:<4} requests found {v['requests_found']}/{v['requests']} "
                f"({found:.1%}), look-alikes taken {v['lookalikes_taken']}/{v['lookalikes']} "
                f"({taken:.1%})"
            )
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
