"""Fit recall/lifecycle/sameness.npz: when two sentences about the user say the same fact.

    .venv/bin/python benchmarks/train_sameness.py [--frozen] [--out FILE.json]

``benchmarks/data/sameness/dev.jsonl`` holds pairs of notes about a user, en and zh,
labelled ``same`` (paraphrases) or ``different`` (the same topic, another fact: a value, a
time, a person, a negation), written by a helper who read no code. A logistic regression per
language (scikit-learn, the dev install's; C=16) over
:func:`recall.lifecycle.sameness.pair_features` of the default spec's vectors; printed: a
5-fold cross-validation over dev at the threshold the module uses, the old rule (cosine ≥
``dedup_similarity``, key facts kept) beside it, and with ``--frozen`` both on
tests/data/sameness_frozen.jsonl, written by the same helper and never fitted on.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from sklearn.linear_model import LogisticRegression

import recall
from recall.lifecycle import sameness
from recall.lifecycle.extractive import key_facts
from recall.lifecycle.voice import core

C = 16.0
ROOT = Path(__file__).parents[1]
DEV = ROOT / "benchmarks" / "data" / "sameness" / "dev.jsonl"
FROZEN = ROOT / "tests" / "data" / "sameness_frozen.jsonl"


def load(path: Path) -> list[dict[str, str]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def vectors(embedder: recall.Embedder, rows: list[dict[str, str]]) -> dict[str, Any]:
    texts = sorted({core(r[k]) for r in rows for k in ("a", "b")})
    whole = np.asarray(embedder.embed_documents(texts), dtype=np.float32)
    whole /= np.linalg.norm(whole, axis=1, keepdims=True)
    return dict(zip(texts, whole, strict=True))


def features(rows: list[dict[str, str]], vec: dict[str, Any], model: sameness.Sameness) -> Any:
    out = []
    for r in rows:
        a, b = core(r["a"]), core(r["b"])
        whole = (vec[a], vec[b])
        out.append(sameness.pair_features(a, b, whole, (model.multi(vec[a]), model.multi(vec[b]))))
    return np.array(out)


def rates(pred: npt.NDArray[np.bool_], rows: list[dict[str, str]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for lang in ("en", "zh"):
        same = [
            p for p, r in zip(pred, rows, strict=True) if r["lang"] == lang and r["label"] == "same"
        ]
        diff = [
            p for p, r in zip(pred, rows, strict=True) if r["lang"] == lang and r["label"] != "same"
        ]
        out[lang] = {
            "same_merged": int(sum(same)),
            "same": len(same),
            "different_merged": int(sum(diff)),
            "different": len(diff),
        }
    return out


def show(name: str, r: dict[str, Any]) -> None:
    print(
        f"  {name:<26} "
        + " | ".join(
            f"{lang}: paraphrases merged {v['same_merged']}/{v['same']}, different facts merged "
            f"{v['different_merged']}/{v['different']}"
            for lang, v in r.items()
        )
    )


def old_rule(rows: list[dict[str, str]], vec: dict[str, Any], threshold: float) -> Any:
    return np.array(
        [
            float(vec[core(r["a"])] @ vec[core(r["b"])]) >= threshold
            and key_facts(r["b"]) <= key_facts(r["a"])
            for r in rows
        ]
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frozen", action="store_true")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d, recall.open(d) as mem:
        embedder = mem.embedder()
        _, lo, hi = sameness._columns(embedder)
        probe = sameness.Sameness(str(embedder.id), {}, lo, hi)
        threshold = mem.settings.lifecycle.dedup_similarity
        dev = load(DEV)
        vec = vectors(embedder, dev)
        X = features(dev, vec, probe)
        y = np.array([r["label"] == "same" for r in dev])
        langs = np.array([r["lang"] for r in dev])
        fold = np.random.default_rng(0).integers(0, 5, len(dev))
        prob = np.zeros(len(dev))
        weights: dict[str, Any] = {}
        for lang in ("en", "zh"):
            sel = langs == lang
            for f in range(5):
                train, test = sel & (fold != f), sel & (fold == f)
                m = LogisticRegression(C=C, max_iter=5_000).fit(X[train], y[train])
                prob[test] = m.predict_proba(X[test])[:, 1]
            m = LogisticRegression(C=C, max_iter=5_000).fit(X[sel], y[sel])
            weights[f"w_{lang}"] = m.coef_[0].astype(np.float32)
            weights[f"b_{lang}"] = np.array(m.intercept_[0])
        result: dict[str, Any] = {
            "dev_cross_validated": rates(prob > sameness.THRESHOLD, dev),
            "dev_old_rule": rates(old_rule(dev, vec, threshold), dev),
        }
        print(f"dev: {len(dev)} pairs, C={C}, threshold {sameness.THRESHOLD}")
        show("old rule (cosine)", result["dev_old_rule"])
        show("model, cross-validated", result["dev_cross_validated"])
        out = Path(sameness.__file__).with_name(sameness.SHIPPED)
        np.savez_compressed(out, embedder=np.array(str(embedder.id)), **weights)
        sameness._shipped.cache_clear()
        print(f"  wrote {out}")
        if args.frozen:
            frozen = load(FROZEN)
            fvec = vectors(embedder, frozen)
            model = sameness.load_sameness(embedder)
            assert model is not None
            pred = np.array(
                [
                    model.same(core(r["a"]), core(r["b"]), (fvec[core(r["a"])], fvec[core(r["b"])]))
                    for r in frozen
                ]
            )
            result["frozen"] = rates(pred, frozen)
            result["frozen_old_rule"] = rates(old_rule(frozen, fvec, threshold), frozen)
            show("frozen: old rule", result["frozen_old_rule"])
            show("frozen: model", result["frozen"])
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
