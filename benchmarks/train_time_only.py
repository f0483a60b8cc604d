"""Fit recall/text/time_only.npz (run after editing recall/text/time_only.tsv), and measure it.

    .venv/bin/python benchmarks/train_time_only.py [--folds 5] [--frozen] [--out FILE.json]

A logistic regression (``ngram_fit.py``; L2) over the hashed n-gram features of the
question with the time it names masked (:func:`recall.text.time_only.masked`), fitted on
every packaged example (``benchmarks/data/time_only/dev.tsv`` and ``more.tsv``, written
from ``BRIEF.md`` by two helpers who read no code), and judged with the words no time-only
example uses (:func:`recall.text.time_only.judged`). Printed: the rates of a
5-fold cross-validation over the examples (each fold fitted on the rest, its words too),
and with ``--frozen`` the rates on ``benchmarks/data/time_only/frozen.tsv``, written from
the same brief by another helper and never used to fit or choose anything.
"""

from __future__ import annotations

import argparse
import csv
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from ngram_fit import fit, fit_and_save, matrix, rates, show

from recall.text import time_only
from recall.text.when import resolve

C = 16.0
DATA = Path(__file__).parent / "data" / "time_only"
NOW = datetime(2026, 6, 15, 12, tzinfo=UTC)  # any day: only the phrases are read


def read(path: Path) -> list[tuple[bool, str, str]]:
    """(time only, lang, text) rows of a TSV with a label, lang, text header."""
    with path.open(encoding="utf-8", newline="") as fh:
        rows = csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
        return [(r["label"] == "time_only", r["lang"], r["text"]) for r in rows]


def prepared(text: str) -> str:
    """The text the model reads: the time it names masked (unmasked when none is read)."""
    found = resolve(text, NOW)
    return text if found is None else time_only.masked(text, found)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--frozen", action="store_true")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    rows = [(label == "time_only", lang, text) for label, lang, text in time_only.bank()]
    texts = [prepared(t) for _, _, t in rows]
    y = np.array([label for label, _, _ in rows])
    langs = [g for _, g, _ in rows]
    fold = np.random.default_rng(0).integers(0, args.folds, len(rows))
    pred = np.zeros(len(rows), dtype=bool)
    for f in range(args.folds):
        test = fold == f
        train = [t for t, s in zip(texts, test, strict=True) if not s]
        columns, model = fit(train, y[~test], C)
        frame = time_only.frame_words(t for t, yes in zip(train, y[~test], strict=True) if yes)
        held = [t for t, s in zip(texts, test, strict=True) if s]
        scores = model.decision_function(matrix(held, columns))
        unseen = [sum(w not in frame for w in time_only.words(t)) for t in held]
        pred[test] = [time_only.judged(z, n) for z, n in zip(scores, unseen, strict=True)]
    # Only a question a time was read in is ever judged (recall.inputs.time_window).
    read_in = np.array([resolve(t, NOW) is not None for _, _, t in rows])
    cv = rates(
        pred[read_in],
        y[read_in],
        [g for g, r in zip(langs, read_in, strict=True) if r],
        "time_only",
        "topic",
    )
    result: dict[str, Any] = {"examples": len(rows), "C": C, "cross_validated": cv}
    print(f"{len(rows)} examples ({int(read_in.sum())} with a time read: scored), C={C}")
    show("cross-validated", result["cross_validated"], "time_only", "topic")
    out = Path(time_only.__file__).with_name("time_only.npz")
    kept = fit_and_save(texts, y, C, out, time_only.bank_key())
    time_only._model.cache_clear()
    print(f"  wrote {out} ({kept:,} weights); time-only above log-odds {time_only.LOGIT}")
    if args.frozen:
        every = read(DATA / "frozen.tsv")
        scored = [(row, w) for row in every if (w := resolve(row[2], NOW)) is not None]
        fp = np.array([time_only.names_only_time(row[2], w) for row, w in scored])
        fy = np.array([row[0] for row, _ in scored])
        result["frozen"] = rates(fp, fy, [row[1] for row, _ in scored], "time_only", "topic")
        result["frozen_time_read"] = len(scored)
        show("frozen", result["frozen"], "time_only", "topic")
        print(f"  frozen: a time read in {len(scored)}/{len(every)} (the rows scored)")
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
