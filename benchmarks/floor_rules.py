"""How the relevance floor's rule costs English retrieval: SciFact train queries (not test).

The floor (recall.index.floor) was calibrated on LoCoMo conversation turns. Claims against
scientific abstracts are another shape: long queries, few shared words, lower cosines. This
script indexes SciFact's abstracts once with no floor, asks the *train* queries (the
benchmark reports test), keeps each one's top 10 with its raw leg scores, and scores:

- ``off``: no floor;
- ``per-hit``: every hit under the floor removed (the rule until this script);
- ``gate``: the query answers nothing when no hit passes the floor, else its whole list.

Unrelated queries come back empty under ``per-hit`` and ``gate`` alike (a list is empty
under one exactly when it is empty under the other), so only the answerable side differs.

    .venv/bin/python benchmarks/floor_rules.py [--data ../shared/datasets/scifact]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import recall
from recall.bench.metrics import mean, ndcg_at_k, recall_at_k
from recall.bench.scifact import load_scifact
from recall.index.floor import above_floor, coverage
from recall.index.spec import load_spec

GRID = [0.15, 0.2, 0.25, 0.3, 0.35]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default="../shared/datasets/scifact")
    args = parser.parse_args()
    ds = load_scifact(args.data, split="train")
    analyzer = load_spec("default").analyzer
    cov_floor = recall.Settings().retrieval.min_keyword_coverage
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        settings = recall.Settings(path=Path(tmp) / "m", min_similarity=-1, min_similarity_cjk=-1)
        with recall.open(settings=settings) as mem:
            for user, docs in ds.docs_by_user().items():
                mem.add_many([{"id": d, "text": ds.doc_text(d)} for d in docs], user_id=user)
            for qid, q in ds.queries.items():
                terms = frozenset(analyzer.tokens(q))
                hits = mem.deep_recall(q, user_id=ds.query_meta[qid]["user"], top_k=10)
                rows.append((qid, [(h, coverage(terms, analyzer.tokens(h.text))) for h in hits]))

    def score(rule: str, sim: float) -> tuple[float, float]:
        ndcg, r10 = [], []
        for qid, hits in rows:
            passed = [h.id for h, c in hits if above_floor(h, c, sim, cov_floor)]
            gate = [h.id for h, _ in hits] if passed else []
            ids = passed if rule == "per-hit" else gate
            ndcg.append(ndcg_at_k(ids, ds.qrels[qid], 10))
            r10.append(recall_at_k(ids, ds.qrels[qid], 10))
        return mean(ndcg), mean(r10)

    off = score("gate", -1.0)
    print(f"{len(rows)} SciFact train queries; no floor: nDCG@10 {100 * off[0]:.1f}")
    out = []
    for sim in GRID:
        per, gate = score("per-hit", sim), score("gate", sim)
        out.append({"min_similarity": sim, "per_hit": per, "gate": gate})
        print(
            f"sim {sim}: per-hit nDCG@10 {100 * per[0]:.1f} R@10 {100 * per[1]:.1f} | "
            f"gate nDCG@10 {100 * gate[0]:.1f} R@10 {100 * gate[1]:.1f}"
        )
    print(json.dumps({"queries": len(rows), "off": off, "grid": out}))


if __name__ == "__main__":
    main()
