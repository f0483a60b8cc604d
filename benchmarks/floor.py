"""Calibrate the relevance floor on LoCoMo development data.

    .venv/bin/python benchmarks/floor.py [--data ../shared/datasets/locomo/locomo_dev7.json]

Indexes every turn of the conversations (as ``recall bench locomo --unit turns`` does) with
no floor, then asks three sets of queries and keeps each one's top 10 hits with their raw
leg scores:

- the answerable questions (categories 1-4): LoCoMo R@10 over their evidence turns;
- category 5 (adversarial: the answer is not in the conversation, though its topic often is);
- unrelated queries (general knowledge and other people's business, written for this).

For each (min_similarity, min_keyword_coverage) on a grid, the hits under the floor are removed
and it prints R@10 on the answerable questions and the share of category-5 and unrelated
queries that come back empty. Ends with one JSON line. Calibrate here, never on a test split.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import recall
from recall.bench.locomo import load_locomo
from recall.bench.metrics import mean, recall_at_k
from recall.index.floor import above_floor, coverage
from recall.index.spec import load_spec
from recall.lifecycle.locomo import read_samples

UNRELATED = [
    "What is the boiling point of tungsten?",
    "launch codes for the missile silo",
    "quantum chromodynamics lattice simulation results",
    "How do I configure BGP on a Cisco router?",
    "What was the GDP of Portugal in 1987?",
    "Which enzyme unwinds DNA during replication?",
    "Explain the Riemann hypothesis",
    "What is the airspeed velocity of an unladen swallow?",
    "How many moons does Neptune have?",
    "Who won the 1954 FIFA World Cup?",
    "kernel panic in the ext4 journal after fsck",
    "What is the tax rate on capital gains in Norway?",
    "How do I compile a Rust crate for WebAssembly?",
    "Which bond has the highest yield in the Treasury auction?",
    "What is the half-life of carbon-14?",
    "SQL query to find duplicate invoice numbers",
    "What did the Federal Reserve decide about interest rates?",
    "How to replace the timing belt of a 2004 Corolla",
    "Who wrote the Critique of Pure Reason?",
    "What is the melting point of gallium?",
    "Kubernetes pod stuck in CrashLoopBackOff",
    "What is the capital of Burkina Faso?",
    "How does a transistor amplify current?",
    "latest firmware for the Ubiquiti access point",
    "What is the population of Reykjavik?",
    "Describe the Krebs cycle",
    "How do I file a patent in Japan?",
    "What is the speed of sound in helium?",
    "Which opcode does the JVM use for virtual calls?",
    "mortgage amortization schedule for 30 years",
]
GRID_SIM = [-1.0, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45]
GRID_COV = [0.0, 0.34, 0.5, 0.67, 1.0, 2.0]  # 2.0: keywords alone never suffice


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    default = Path(__file__).resolve().parents[2] / "shared/datasets/locomo/locomo_dev7.json"
    parser.add_argument("--data", type=Path, default=default)
    args = parser.parse_args()
    ds = load_locomo(args.data, "turns")
    adversarial = [
        (str(s.sample_id), str(qa["question"]))
        for s in read_samples(args.data)
        for qa in s.raw.get("qa", [])
        if qa.get("category") == 5
    ]
    with tempfile.TemporaryDirectory() as tmp:
        settings = recall.Settings(min_similarity=-1.0)
        with recall.open(tmp, settings=settings) as mem:
            for user, docs in ds.docs_by_user().items():
                items = []
                for d in docs:
                    item = {"id": d, "text": ds.doc_text(d), "kind": "turn"}
                    item["metadata"] = {"thread": str(ds.corpus[d].get("thread"))}
                    when = ds.doc_time(d)
                    if when is not None:
                        item["created_at"] = when
                    items.append(item)
                mem.add_many(items, user_id=user)
            users = list(ds.docs_by_user())

            analyzer = load_spec("default").analyzer

            def top10(query: str, user: str) -> list[tuple[recall.Hit, float]]:
                terms = frozenset(analyzer.tokens(query))
                hits = mem.deep_recall(query, user_id=user, top_k=10)
                return [(h, coverage(terms, analyzer.tokens(h.text))) for h in hits]

            answerable = [
                (top10(q, ds.query_meta[qid]["user"]), qid) for qid, q in ds.queries.items()
            ]
            adv = [top10(q, user) for user, q in adversarial]
            unrel = [top10(q, user) for q in UNRELATED for user in users]
    rows = []

    def kept(hits: list[tuple[recall.Hit, float]], sim: float, cov: float) -> list[str]:
        return [h.id for h, c in hits if sim <= -1 or above_floor(h, c, sim, cov)]

    for sim in GRID_SIM:
        for cov in GRID_COV:
            r10 = mean(
                recall_at_k(
                    kept(hits, sim, cov),
                    ds.qrels[qid],
                    10,
                    covers=ds.covers,
                    evidence=(ds.evidence or {}).get(qid),
                )
                for hits, qid in answerable
            )
            empty_adv = mean(1.0 if not kept(h, sim, cov) else 0.0 for h in adv)
            empty_unrel = mean(1.0 if not kept(h, sim, cov) else 0.0 for h in unrel)
            rows.append(
                {
                    "min_similarity": sim,
                    "min_keyword_coverage": cov,
                    "r10": round(100 * r10, 1),
                    "empty_cat5": round(100 * empty_adv, 1),
                    "empty_unrelated": round(100 * empty_unrel, 1),
                }
            )
    print("min_sim  min_cov   R@10  empty(cat5)  empty(unrelated)")
    for r in rows:
        print(
            f"{r['min_similarity']:>7} {r['min_keyword_coverage']:>7g} {r['r10']:>6} "
            f"{r['empty_cat5']:>11} {r['empty_unrelated']:>16}"
        )
    print(
        json.dumps(
            {
                "answerable": len(answerable),
                "cat5": len(adv),
                "unrelated": len(unrel),
                "rows": rows,
            }
        )
    )


if __name__ == "__main__":
    main()
