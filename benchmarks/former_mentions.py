"""Which named thing of a message is the user's former one: two readers, tried, not shipped.

    .venv/bin/python benchmarks/former_mentions.py [--out FILE.json]     # across writers
    .venv/bin/python benchmarks/former_mentions.py --data USERS.json --store DIR [--window 10]

``benchmarks/train_former.py`` showed that a message-level "speaks of the past" reading
fails on the messages that name the old and the new thing together: which of its things is
past is what has to be read. Data (``benchmarks/data/former/BRIEF_VALUES.md``; ``c.tsv`` and
``d.tsv``, two writers blind to the code, to the sets and to each other, less every line
naming a value, decoy or user name of a timeline set): a message, ONE thing it names, and
whether that thing is the user's ``now``, ``former`` or ``other``; most messages come twice,
once per thing. Two logistic regressions, ``former`` against the rest:

- ``vector``: the message's USE vector with the thing replaced by "X";
- ``context``: the words (en) or jieba words (zh) within :data:`WINDOW` of the thing, by
  side and distance, and the rest of the message's words at a lower weight.

Printed across writers: each label read as former (log-odds over 0), and of the messages
naming a former and a current thing, how often the former scores higher. With ``--data``:
the ``context`` reader, fitted on both writers, in the newest-first window (``--window``
hits) of each current question: a user's turn whose things shared with another turn of the
window are all read as former goes after the other statements; scored as
``benchmarks/now_bounds.py`` scores the current questions.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import jieba
import numpy as np
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression

import recall
from recall.user.attributes import _columns, _unit

DATA = Path(__file__).resolve().parent / "data" / "former"
LABELS = ("former", "now", "other")
#: Words on each side of the thing that the context reader reads by distance.
WINDOW = 2
_CJK = re.compile(r"[\u4e00-\u9fff]")
Row = tuple[str, str, str, str]


def load(name: str) -> list[Row]:
    """``label, lang, thing, message`` rows of one file."""
    rows = []
    for line in (DATA / f"{name}.tsv").read_text(encoding="utf-8").splitlines():
        p = line.split("\t")
        if len(p) == 4 and p[0] in LABELS and p[2] in p[3]:
            rows.append((p[0], p[1], p[2], p[3]))
    return rows


def _tokens(text: str) -> list[str]:
    if _CJK.search(text):
        return [t for t in jieba.lcut(text) if t.strip()]
    return re.findall(r"[a-z0-9']+|[^\sa-z0-9]", text.lower())


def context(message: str, thing: str) -> dict[str, float]:
    """The context reader's features of ``thing`` in ``message``."""
    at = message.find(thing)
    left, right = _tokens(message[:at]), _tokens(message[at + len(thing) :])
    out: dict[str, float] = {f"B:{t}": 0.3 for t in left + right}
    for k, t in enumerate(reversed(left[-WINDOW:])):
        out[f"L:{t}"] = out[f"L{k}:{t}"] = 1.0
    for k, t in enumerate(right[:WINDOW]):
        out[f"R:{t}"] = out[f"R{k}:{t}"] = 1.0
    return out


def _scores(reader: str, train: list[Row], test: list[Row], model: Any) -> Any:
    y = [r[0] == "former" for r in train]
    if reader == "vector":

        def vec(rows: list[Row]) -> Any:
            texts = [m.replace(t, "X") for _, _, t, m in rows]
            return _unit(model.embed_documents(texts)).astype(np.float64)

        return LogisticRegression(max_iter=5_000).fit(vec(train), y).decision_function(vec(test))
    dv = DictVectorizer()
    x = dv.fit_transform([context(m, t) for _, _, t, m in train])
    m = LogisticRegression(max_iter=5_000).fit(x, y)
    return m.decision_function(dv.transform([context(m_, t) for _, _, t, m_ in test]))


def across(model: Any) -> dict[str, Any]:
    """Both readers, fitted on one writer and scored on the other."""
    sets = {name: load(name) for name in ("c", "d")}
    out: dict[str, Any] = {}
    for reader in ("vector", "context"):
        for train, test in (("c", "d"), ("d", "c")):
            z = _scores(reader, sets[train], sets[test], model)
            read = {
                label: round(100 * float((z[[r[0] == label for r in sets[test]]] > 0).mean()), 1)
                for label in LABELS
            }
            by: dict[str, dict[str, float]] = {}
            for r, score in zip(sets[test], z, strict=True):
                by.setdefault(r[3], {})[r[0]] = float(score)
            pairs = [v for v in by.values() if "former" in v and "now" in v]
            ordered = sum(v["former"] > v["now"] for v in pairs)
            out[f"{reader} {train}->{test}"] = {
                "read_as_former": read,
                "pairs": [ordered, len(pairs)],
            }
            print(
                f"  {reader}, fitted on {train}, scored on {test}: read as former {read}; "
                f"former above now in {ordered} of {len(pairs)} messages naming both"
            )
    return out


def _words(text: str) -> set[str]:
    if _CJK.search(text):
        return {t for t in jieba.lcut(text) if len(t) >= 2 and _CJK.search(t)}
    return {w for w in re.findall(r"[A-Za-z][\w'&-]*", text) if len(w) >= 3}


def end_to_end(data: str, store: str, window: int) -> dict[str, Any]:
    """The context reader in the newest-first window of each current question."""
    import now_bounds

    from recall.index import hits

    states = hits._states  # type: ignore[attr-defined]
    rows = load("c") + load("d")
    dv = DictVectorizer()
    m = LogisticRegression(max_iter=5_000).fit(
        dv.fit_transform([context(m_, t) for _, _, t, m_ in rows]),
        [r[0] == "former" for r in rows],
    )

    def past(head: Any) -> list[bool]:
        # The user's own statements of the window (plans, questions keep their places).
        own = [r.kind == "turn" and r.metadata.get("role") == "user" and states(r) for r in head]
        said = [_words(r.text) if mine else set() for r, mine in zip(head, own, strict=True)]
        shared = Counter(w.lower() for words in said for w in words)
        out = []
        for r, words in zip(head, said, strict=True):
            things = [w for w in words if shared[w.lower()] >= 2]
            z = (
                m.decision_function(dv.transform([context(r.text, w) for w in things]))
                if things
                else None
            )
            out.append(z is not None and bool((z > 0).all()))
        return out

    now_bounds.past_last(past)
    return now_bounds.score_window(data, store, window)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--data", help="a timeline users.json: score its current questions")
    ap.add_argument("--store", help="a folder holding the set already written")
    ap.add_argument("--window", type=int, default=10)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d, recall.open(d) as mem:
        model = _columns(mem.embedder())[0]
    result: dict[str, Any] = {"model": model.id, "window": WINDOW}
    if args.data:
        result["end_to_end"] = end_to_end(args.data, args.store, args.window)
        print("  end to end:", result["end_to_end"])
    else:
        result["across_writers"] = across(model)
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
