"""Memory injection's ranking on facts and questions written by someone who read no code.

    .venv/bin/python benchmarks/injection.py --split dev|frozen [--out FILE.json]

Each case (``benchmarks/data/injection/<split>.json``, written from
``benchmarks/data/triggers/BRIEF.md``, part 2) is one user's 8 to 12 facts, each with a
confidence, a message, and the facts that would help answer it; the relevant facts often
share no word with the message, and confident irrelevant ones are there as distractors.
``rank_facts(facts, message)`` ranks them with the documents' 0.6 · similarity + 0.4 ·
confidence, the similarity TF-IDF alone or, given recall's embedder, the larger of TF-IDF
and the embedding cosine scaled over the facts. Printed per language: a relevant fact first
(top 1), the share of relevant facts in the first 3 (recall@3), and MRR. ``dev`` chose the
similarity; ``frozen`` (another helper's) was only scored.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

import recall
from recall.context.facts import rank_facts

DATA = Path(__file__).parent / "data" / "injection"


def score(cases: list[dict[str, Any]], embedder: recall.Embedder | None) -> dict[str, float]:
    top1 = at3 = mrr = 0.0
    for case in cases:
        texts = [f["text"] for f in case["facts"]]
        facts = [{"content": f["text"], "confidence": f["confidence"]} for f in case["facts"]]
        ranked = [texts.index(f.text) for f in rank_facts(facts, case["query"], embedder=embedder)]
        relevant = set(case["relevant"])
        top1 += ranked[0] in relevant
        at3 += len(relevant & set(ranked[:3])) / min(3, len(relevant))
        mrr += 1 / (1 + min(ranked.index(i) for i in relevant))
    n = len(cases) or 1
    return {"top1": 100 * top1 / n, "recall@3": 100 * at3 / n, "mrr": mrr / n, "cases": len(cases)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", choices=("dev", "frozen"), default="dev")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    cases = json.loads((DATA / f"{args.split}.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as d, recall.open(d) as mem:
        embedder = mem.embedder()
        out: dict[str, Any] = {}
        for lang in ("en", "zh", "all"):
            mine = [c for c in cases if lang in ("all", c["lang"])]
            for name, emb in (("tfidf", None), ("tfidf+embedding", embedder)):
                r = out.setdefault(lang, {})[name] = score(mine, emb)
                print(
                    f"{args.split} {lang:<3} {name:<16} top1 {r['top1']:5.1f}  "
                    f"recall@3 {r['recall@3']:5.1f}  MRR {r['mrr']:.3f}  ({r['cases']} cases)"
                )
    if args.out:
        args.out.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
