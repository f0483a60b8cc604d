"""Questions about the user whose answer is not stored: how many get nothing back.

    .venv/bin/python benchmarks/absent_questions.py \
        --data ../shared/datasets/timeline_dev/users.json \
        --questions benchmarks/data/absent/timeline_dev.json [--out results.json]

Writes every user's sessions of ``--data`` (a timeline set) oldest first, as the timeline
scorers do, then asks each question of ``--questions`` (``benchmarks/data/absent/``, written
blind: see its README) with ``deep_recall(q, top_k=10)``. Prints the share that come back
empty, "far" (a topic the user never touched) and "near" (one beside a topic they talk
about) apart, and, as the cost, how many of the set's own answerable questions (current,
history, cross-language) come back empty.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from now_bounds import ingest

import recall

ANSWERABLE = ("current", "history", "crosslingual")


def score(users: list[dict[str, Any]], asked: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """The figures for ``users`` (a timeline set's) and the questions ``asked`` of them."""
    empty = {"far": [0, 0], "near": [0, 0], "answerable": [0, 0]}
    with tempfile.TemporaryDirectory() as d:
        ingest({"users": users}, Path(d))
        with recall.open(d) as mem:

            def ask(kind: str, uid: str, question: str) -> None:
                empty[kind][0] += not mem.deep_recall(question, user_id=uid, top_k=10)
                empty[kind][1] += 1

            for u in users:
                for q in asked.get(u["user_id"], []):
                    ask("near" if q["near"] else "far", u["user_id"], q["question"])
                for q in u["questions"]:
                    if q["type"] in ANSWERABLE:
                        ask("answerable", u["user_id"], q["question"])
    out: dict[str, Any] = {}
    for kind, (n_empty, n) in empty.items():
        out[f"{kind}_empty"] = n_empty
        out[f"{kind}_questions"] = n
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", required=True, help="a timeline set's users.json")
    ap.add_argument("--questions", required=True, help="absent questions for its users")
    ap.add_argument("--out", help="write the figures as JSON here")
    a = ap.parse_args()
    users = json.loads(Path(a.data).read_text())["users"]
    out = score(users, json.loads(Path(a.questions).read_text()))
    for kind in ("far", "near", "answerable"):
        n_empty, n = out[f"{kind}_empty"], out[f"{kind}_questions"]
        print(f"  {kind:<11} empty {n_empty}/{n} ({100 * n_empty / max(n, 1):.1f}%)")
    print(json.dumps(out))
    if a.out:
        Path(a.out).write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
