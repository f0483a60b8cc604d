"""Fit recall/lifecycle/privacy.npz: whether a user's message asks not to keep something.

    .venv/bin/python benchmarks/train_privacy.py [--frozen] [--out FILE.json]

Data (``benchmarks/data/privacy/``, its README): messages labelled ``private`` or ``keep``
(look-alikes), written from a brief by two helpers blind to the code and to each other:
``dev.tsv`` and ``frozen.tsv`` one writer's, ``more.tsv`` the other's. A logistic regression
(scikit-learn, the dev install's; C below) over each message's unit vector in the default
spec's multilingual model. Printed, for the patterns alone and for the patterns with the
model at :data:`recall.lifecycle.privacy_model.LOGIT`:

- across writers: fitted on ``more``, scored on ``dev``; fitted on ``dev``, scored on
  ``more`` (how it holds on phrasings of someone it never saw);
- the shipped fit, on ``dev`` + ``more``, written to privacy.npz;
- with ``--frozen``, that fit on ``frozen.tsv`` (never fitted on; score it once).
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
from recall import triggers
from recall.lifecycle import privacy_model
from recall.lifecycle.privacy import asks_privacy
from recall.user.attributes import _columns, _unit, examples

#: Inverse regularization strength.
C = 100.0
DATA = Path(__file__).resolve().parent / "data" / "privacy"
VALUES = DATA.parent / "values"
Rows = list[tuple[str, str, str]]


def load(name: str) -> Rows:
    """``label, lang, text`` rows of one file."""
    rows = []
    for line in (DATA / f"{name}.tsv").read_text(encoding="utf-8").splitlines():
        parts = line.split("\t")
        if len(parts) == 3 and not line.startswith("#"):
            rows.append((parts[0], parts[1], parts[2]))
    return rows


def chatter() -> Rows:
    """Everyday messages, all to keep, written blind for other purposes: the attribute
    examples (recall/user/attributes.tsv), the deep-recall trigger examples
    (recall/triggers.tsv) and the value sentences (benchmarks/data/values), less any the
    patterns read as a request. Without them the model learns "a personal disclosure"
    rather than "a request not to keep it", since the requests it sees mostly guard one."""
    texts = [(e.lang, e.text) for e in examples()]
    texts += [(lang, text) for _, lang, text in triggers.bank()]
    for name in ("a", "b", "c"):
        for line in (VALUES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            texts.append((row["lang"], row["sentence"]))
    return [("keep", lang, text) for lang, text in texts if asks_privacy(text) is None]


def rates(taken: npt.NDArray[np.bool_], rows: Rows) -> dict[str, Any]:
    """Requests found and look-alikes taken, per language and in all."""
    out: dict[str, Any] = {}
    for lang in ("en", "zh", "all"):
        sel = np.array([lang in ("all", r[1]) for r in rows])
        asks = sel & np.array([r[0] == "private" for r in rows])
        keep = sel & np.array([r[0] == "keep" for r in rows])
        out[lang] = {
            "requests_found": int(taken[asks].sum()),
            "requests": int(asks.sum()),
            "lookalikes_taken": int(taken[keep].sum()),
            "lookalikes": int(keep.sum()),
        }
    return out


def show(name: str, r: dict[str, Any]) -> None:
    a = r["all"]
    print(
        f"  {name:34} requests found {a['requests_found']:3}/{a['requests']:3} "
        f"({100 * a['requests_found'] / a['requests']:4.1f}%; en "
        f"{100 * r['en']['requests_found'] / r['en']['requests']:4.1f}, zh "
        f"{100 * r['zh']['requests_found'] / r['zh']['requests']:4.1f})  "
        f"look-alikes taken {a['lookalikes_taken']:2}/{a['lookalikes']}"
    )


def fit(x: npt.NDArray[np.float64], rows: Rows) -> LogisticRegression:
    y = np.array([r[0] == "private" for r in rows])
    return LogisticRegression(C=C, max_iter=5_000).fit(x, y)


def score(name: str, m: LogisticRegression, x: npt.NDArray[np.float64], rows: Rows) -> Any:
    """The patterns alone and with the model, on ``rows``."""
    patterns = np.array([asks_privacy(r[2]) is not None for r in rows])
    learned = m.decision_function(x) > privacy_model.LOGIT
    out = {"patterns": rates(patterns, rows), "patterns+model": rates(patterns | learned, rows)}
    print(f"{name}: {len(rows)} messages")
    show("patterns", out["patterns"])
    show(f"patterns + model (log-odds > {privacy_model.LOGIT:g})", out["patterns+model"])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frozen", action="store_true", help="score frozen.tsv (once, at the end)")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d, recall.open(d) as mem:
        model = _columns(mem.embedder())[0]
        sets = {name: load(name) for name in ("dev", "more", "frozen")}
        sets["chatter"] = chatter()
        vec = {
            name: _unit(model.embed_documents([r[2] for r in rows])).astype(np.float64)
            for name, rows in sets.items()
        }
        result: dict[str, Any] = {"C": C, "logit": privacy_model.LOGIT, "model": model.id}
        for train, test in (("more", "dev"), ("dev", "more")):
            m = fit(np.vstack([vec[train], vec["chatter"]]), sets[train] + sets["chatter"])
            result[f"{train}->{test}"] = score(
                f"fitted on {train}, scored on {test}", m, vec[test], sets[test]
            )
        rows = sets["dev"] + sets["more"] + sets["chatter"]
        m = fit(np.vstack([vec["dev"], vec["more"], vec["chatter"]]), rows)
        out = Path(privacy_model.__file__).with_name(privacy_model.SHIPPED)
        np.savez_compressed(
            out,
            model=np.array(str(model.id)),
            weights=m.coef_[0].astype(np.float32),
            bias=np.array(m.intercept_[0]),
        )
        privacy_model._shipped.cache_clear()
        print(f"wrote {out} (fitted on dev + more, {len(rows)} messages)")
        if args.frozen:
            result["frozen"] = score("frozen (never fitted on)", m, vec["frozen"], sets["frozen"])
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
