"""Fit recall/triggers.npz (run after editing recall/triggers.tsv), and measure it.

    .venv/bin/python benchmarks/train_triggers.py [--folds 5] [--frozen] [--out FILE.json]

A logistic regression (``ngram_fit.py``; L2, C=64) over the hashed n-gram
features of :func:`recall.triggers.features`, fitted on every packaged example; only its
non-zero weights are shipped. Printed: the rates of a 5-fold cross-validation over the
examples written from the brief (each fold fitted on the rest of the bank), and with
``--frozen`` the rates on tests/data/triggers_frozen.tsv, written from the same brief by
another helper and never used to fit or choose anything.
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path
from typing import Any

import numpy as np
from ngram_fit import fit, fit_and_save, matrix, rates, show

from recall import triggers

C = 64.0
FROZEN = Path(__file__).parents[1] / "tests" / "data" / "triggers_frozen.tsv"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--frozen", action="store_true")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    raw = Path(triggers.__file__).with_name("triggers.tsv").read_text(encoding="utf-8")
    rows, part = [], "recall"
    for line in raw.splitlines():
        if line.startswith("# "):  # a part's header: only the brief's are cross-validated
            part = "brief" if line.startswith("# brief") else "recall"
        elif line:
            label, lang, text = line.split("\t")
            rows.append((label == "request", lang, text, part))
    texts = [t for _, _, t, _ in rows]
    y = np.array([label for label, _, _, _ in rows])
    brief = np.array([p == "brief" for _, _, _, p in rows])
    fold = np.random.default_rng(0).integers(0, args.folds, len(rows))
    pred = np.zeros(len(rows), dtype=bool)
    for f in range(args.folds):
        test = brief & (fold == f)
        columns, model = fit([t for t, s in zip(texts, test, strict=True) if not s], y[~test], C)
        pred[test] = model.predict(
            matrix([t for t, s in zip(texts, test, strict=True) if s], columns)
        )
    langs = [g for _, g, _, _ in rows]
    result: dict[str, Any] = {
        "cross_validated": rates(
            pred[brief],
            y[brief],
            [g for g, b in zip(langs, brief, strict=True) if b],
            "requests",
            "non_requests",
        )
    }
    print(f"{len(rows)} examples ({int(brief.sum())} from the brief), C={C}")
    show("cross-validated", result["cross_validated"], "requests", "non_requests")
    out = Path(triggers.__file__).with_name("triggers.npz")
    kept = fit_and_save(texts, y, C, out, triggers.bank_key())
    triggers._model.cache_clear()
    print(f"  wrote {out} ({kept:,} weights)")
    if args.frozen:
        with FROZEN.open(encoding="utf-8", newline="") as fh:
            frozen = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
        fp = np.array([triggers.wants_deep_recall(r["text"]) for r in frozen])
        fy = np.array([r["label"] == "request" for r in frozen])
        result["frozen"] = rates(fp, fy, [r["lang"] for r in frozen], "requests", "non_requests")
        show("frozen", result["frozen"], "requests", "non_requests")
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
