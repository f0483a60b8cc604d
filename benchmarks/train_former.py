"""A learned "former value" reader for "what is true now": tried, measured, not shipped.

    .venv/bin/python benchmarks/train_former.py                     # across writers
    .venv/bin/python benchmarks/train_former.py --data ../shared/datasets/timeline_dev/users.json \
        --store DIR [--logit 0] [--newest-first 10] [--out FILE.json]

After a fact changes, the old value keeps coming up in chatter ("my old boss at X asked a
favour", "back in X for a christening"). Said after the change, such a message is the newest
to name the old value, so :func:`recall.index.hits.newest_asserted` puts it above the
statement of what holds now. ``benchmarks/now_bounds.py`` measured what knowing those
messages is worth: with the stale-only hits of the newest-first window put last (an oracle)
and a window of 10, timeline_dev current first goes 71.7 -> 79.2 and tune 65.6 -> 81.2.

This reader tries to learn them. Data (``benchmarks/data/former/``, its BRIEF.md): messages
labelled ``former`` (names what the user had and no longer has), ``now`` (what holds now)
or ``other`` (neither), written from the brief by two helpers blind to the code and to each
other (``a.tsv``, ``b.tsv``), less every line naming a value, decoy or user name of a
timeline set. A logistic regression (scikit-learn, C below) over each message's unit vector
in the default spec's multilingual model, ``former`` against the rest:

- printed always: fitted on one writer, scored on the other (former found; now and other
  read as former);
- with ``--data``: fitted on both, the user's own turns read above ``--logit`` put after
  the other statements of the newest-first window (``--newest-first`` hits), and the set's
  current questions scored as ``benchmarks/now_bounds.py`` scores them.
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
from recall.user.attributes import _columns, _unit

#: Inverse regularization strength.
C = 1.0
DATA = Path(__file__).resolve().parent / "data" / "former"
LABELS = ("former", "now", "other")
Rows = list[tuple[str, str, str]]


def load(name: str) -> Rows:
    """``label, lang, text`` rows of one file."""
    rows = []
    for line in (DATA / f"{name}.tsv").read_text(encoding="utf-8").splitlines():
        parts = line.split("\t")
        if len(parts) == 3 and parts[0] in LABELS:
            rows.append((parts[0], parts[1], parts[2]))
    return rows


def rates(taken: npt.NDArray[np.bool_], rows: Rows) -> dict[str, list[int]]:
    """Per label and language: how many were read as former, of how many."""
    out: dict[str, list[int]] = {}
    for label in LABELS:
        for lang in ("en", "zh", "all"):
            sel = np.array([r[0] == label and lang in ("all", r[1]) for r in rows])
            out[f"{label}_{lang}"] = [int(taken[sel].sum()), int(sel.sum())]
    return out


def show(name: str, r: dict[str, list[int]]) -> None:
    def pct(key: str) -> str:
        got, of = r[key]
        return f"{100 * got / max(of, 1):5.1f}% ({got}/{of})"

    print(
        f"  {name}: former read {pct('former_all')} [en {pct('former_en')}, zh "
        f"{pct('former_zh')}]; now read {pct('now_all')}; other read {pct('other_all')}"
    )


def fit(x: npt.NDArray[np.float64], rows: Rows) -> LogisticRegression:
    y = np.array([r[0] == "former" for r in rows])
    return LogisticRegression(C=C, max_iter=5_000).fit(x, y)


def _patched_score(
    m: LogisticRegression, model: Any, data: str, store: str, logit: float, window: int
) -> dict[str, Any]:
    import now_bounds

    def former(r: recall.Record) -> bool:
        if r.kind != "turn" or r.metadata.get("role") != "user":
            return False
        v = _unit(model.embed_documents([r.text])).astype(np.float64)
        return bool(m.decision_function(v)[0] > logit)

    now_bounds.past_last(lambda head: [former(r) for r in head])
    return now_bounds.score_window(data, store, window)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--data", help="a timeline users.json: also score its current questions")
    ap.add_argument("--store", help="a folder holding the set already written (else a temp one)")
    ap.add_argument("--logit", type=float, default=0.0)
    ap.add_argument("--newest-first", type=int, default=10)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d, recall.open(d) as mem:
        model = _columns(mem.embedder())[0]
    sets = {"a": load("a"), "b": load("b")}
    vec = {
        name: _unit(model.embed_documents([r[2] for r in rows])).astype(np.float64)
        for name, rows in sets.items()
    }
    result: dict[str, Any] = {"C": C, "logit": args.logit, "model": model.id}
    for train, test in (("a", "b"), ("b", "a")):
        m = fit(vec[train], sets[train])
        result[f"{train}->{test}"] = rates(m.decision_function(vec[test]) > args.logit, sets[test])
        show(f"fitted on {train}, scored on {test}", result[f"{train}->{test}"])
    if args.data:
        import now_bounds

        m = fit(np.vstack([vec["a"], vec["b"]]), sets["a"] + sets["b"])
        store = args.store
        if store is None:
            store = tempfile.mkdtemp(prefix="former-")
            now_bounds.ingest(json.loads(Path(args.data).read_text(encoding="utf-8")), Path(store))
        result["end_to_end"] = _patched_score(
            m, model, args.data, store, args.logit, args.newest_first
        )
        print("  end to end:", result["end_to_end"])
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
