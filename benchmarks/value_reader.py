"""A learned value reader for "what is true now": tried, measured, not shipped.

    .venv/bin/python benchmarks/value_reader.py                      # intrinsic, frozen half
    .venv/bin/python benchmarks/value_reader.py --data ../shared/datasets/timeline_dev/users.json \
        [--store DIR] [--threshold 0.05] [--out FILE.json]

:mod:`recall.user.now` marks a sentence's value by salient words (names, and words the
user rarely says). This reader learns instead which phrase of a sentence is the value of
its attribute, from ``benchmarks/data/values/*.jsonl``: 1,276 sentences, en and zh, each
with its attribute and its value span marked, written from ``BRIEF.md`` by three writers
who had read neither recall's code nor any evaluation set.

A sentence's candidates are runs of one to three content words (en) or adjacent segments
(zh). A candidate scores ``knn(values of the attribute) - 0.5 * knn(other phrases)``
(mean cosine of the 3 nearest, in the multilingual model recall ships), where the other
phrases are every candidate of the training sentences that is not their value. The
sentences are split in two halves by a hash of their text: the bank is built from one,
the intrinsic figures are measured on the other.

With ``--data`` the reader replaces :func:`recall.user.now._salient` (the best candidate
above ``--threshold``) and the set's current questions are scored as
``benchmarks/now_bounds.py`` scores them (in one process per reading: ``main`` first).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

DATA = Path(__file__).parent / "data" / "values"
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’&.+#-]*[A-Za-z0-9+#]|[A-Za-z0-9]")
_CJK = re.compile(r"[\u4e00-\u9fff]")
Vectors = npt.NDArray[np.float32]


def candidates(text: str, analyzer: Any, most: int = 3) -> dict[str, frozenset[str]]:
    """Candidate value phrases of ``text`` and the analyzer tokens of each."""
    out: dict[str, frozenset[str]] = {}
    if _CJK.search(text):
        segs, pos = [], 0
        for tok in analyzer.tokens(text):
            i = text.find(tok, pos)
            if i >= 0:
                segs.append((i, i + len(tok), tok))
                pos = i + len(tok)
        for a in range(len(segs)):
            for b in range(a, min(a + most, len(segs))):
                if b > a and segs[b][0] != segs[b - 1][1]:
                    break
                phrase = text[segs[a][0] : segs[b][1]]
                out.setdefault(phrase, frozenset(s[2] for s in segs[a : b + 1]))
    runs: list[list[tuple[int, int, tuple[str, ...]]]] = [[]]
    for m in _WORD.finditer(text):
        toks = tuple(analyzer.tokens(m.group()))
        if toks and (not runs[-1] or not text[runs[-1][-1][1] : m.start()].strip()):
            runs[-1].append((m.start(), m.end(), toks))
        elif toks:
            runs.append([(m.start(), m.end(), toks)])
        elif runs[-1]:
            runs.append([])
    for run in runs:
        for a in range(len(run)):
            for b in range(a, min(a + most, len(run))):
                phrase = text[run[a][0] : run[b][1]]
                out.setdefault(phrase, frozenset(t for item in run[a : b + 1] for t in item[2]))
    return out


def load() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The labelled sentences, split in a bank half and a frozen half by a hash of the text."""
    bank, frozen = [], []
    for path in sorted(DATA.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                half = int(hashlib.sha1(row["sentence"].encode()).hexdigest(), 16) % 2
                (frozen if half else bank).append(row)
    return bank, frozen


def _unit(rows: Any) -> Vectors:
    v = np.asarray(rows, dtype=np.float32)
    n = np.linalg.norm(v, axis=-1, keepdims=True)
    return (v / np.where(n > 0, n, 1.0)).astype(np.float32)


class Reader:
    """Scores candidate phrases as values of an attribute by their nearest examples."""

    def __init__(self, model: Any, analyzer: Any, bank: list[dict[str, Any]]) -> None:
        self.model, self._cache = model, {}  # type: dict[str, Any]
        values, attrs, other = [], [], set()
        for r in bank:
            v = r.get("value") or ""
            vt = frozenset(analyzer.tokens(v)) if v else frozenset()
            if v and r["attribute"] != "none":
                values.append(v)
                attrs.append(r["attribute"])
            other |= {p for p, t in candidates(r["sentence"], analyzer).items() if not t & vt}
        self.values, self.attrs = self.embed(values), np.array(attrs)
        self.other = self.embed(sorted(other))

    def embed(self, texts: list[str]) -> Vectors:
        todo = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if todo:
            self._cache.update(zip(todo, _unit(self.model.embed_documents(todo)), strict=True))
        return np.array([self._cache[t] for t in texts], dtype=np.float32)

    def score(self, phrases: list[str], attribute: str) -> npt.NDArray[np.float64]:
        def knn(sims: Any) -> Any:
            if sims.shape[1] == 0:
                return np.full(len(sims), -1.0)
            return np.sort(sims, axis=1)[:, -min(3, sims.shape[1]) :].mean(axis=1)

        e = self.embed(phrases)
        own = self.attrs == attribute
        return np.asarray(knn((e @ self.values.T)[:, own]) - 0.5 * knn(e @ self.other.T))


def _tools() -> tuple[Any, Any]:
    import recall
    from recall.user.attributes import space_for

    mem = recall.open(tempfile.mkdtemp(prefix="value-reader-"))
    return space_for(mem.embedder()).model, mem._retriever.analyzer  # type: ignore[attr-defined]


def intrinsic(threshold: float) -> dict[str, Any]:
    """On the frozen half: the best candidate is the value; no value above the threshold
    where the sentence holds none."""
    model, analyzer = _tools()
    bank, frozen = load()
    reader = Reader(model, analyzer, bank)
    right = found = rejected = n_value = n_empty = 0
    for r in frozen:
        cands = candidates(r["sentence"], analyzer)
        if r["attribute"] == "none" or not cands:
            continue
        phrases = list(cands)
        sc = reader.score(phrases, r["attribute"])
        best = int(np.argmax(sc))
        v = r.get("value") or ""
        if v:
            n_value += 1
            hit = bool(cands[phrases[best]] & frozenset(analyzer.tokens(v)))
            right += hit
            found += hit and sc[best] > threshold
        else:
            n_empty += 1
            rejected += sc[best] <= threshold
    return {
        "bank_sentences": len(bank),
        "frozen_sentences": len(frozen),
        "best_candidate_is_value": round(100 * right / n_value, 1),
        "value_found_above_threshold": round(100 * found / n_value, 1),
        "no_value_rejected": round(100 * rejected / n_empty, 1),
        "threshold": threshold,
    }


def _patched_score(data_path: str, store: str, threshold: float) -> dict[str, Any]:
    import now_bounds

    from recall.user import now

    model, analyzer = _tools()
    reader = Reader(model, analyzer, load()[0])
    memo: dict[tuple[str, str], frozenset[str]] = {}

    def salient(s: Any, _uses: Any) -> frozenset[str]:
        if s.given is not None or s.attribute is None:
            return frozenset(s.names) if s.given is not None else frozenset()
        key = (s.text, s.attribute)
        if key not in memo:
            cands = candidates(s.text, analyzer)
            phrases = list(cands)
            sc = reader.score(phrases, s.attribute) if phrases else np.zeros(0)
            best = int(np.argmax(sc)) if phrases else -1
            memo[key] = cands[phrases[best]] if best >= 0 and sc[best] > threshold else frozenset()
        return memo[key]

    now._salient = salient  # type: ignore[attr-defined]
    data = json.loads(Path(data_path).read_text(encoding="utf-8"))
    return now_bounds.score("main", data, Path(store))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--data", help="a timeline users.json: also score its current questions")
    ap.add_argument("--store", help="a folder holding the set already written (else a temp one)")
    ap.add_argument("--threshold", type=float, default=0.05)
    ap.add_argument("--out", help="write the figures as JSON here")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:  # one reading, in a process of its own: "main" or "learned"
        import now_bounds

        data = json.loads(Path(a.data).read_text(encoding="utf-8"))
        got = (
            now_bounds.score("main", data, Path(a.store))
            if a.worker == "main"
            else _patched_score(a.data, a.store, a.threshold)
        )
        print(json.dumps(got))
        return
    out: dict[str, Any] = {"intrinsic": intrinsic(a.threshold)}
    print(json.dumps(out["intrinsic"]))
    if a.data:
        import now_bounds

        store = a.store or tempfile.mkdtemp(prefix="value-reader-set-")
        if not a.store:
            now_bounds.ingest(json.loads(Path(a.data).read_text(encoding="utf-8")), Path(store))
        for reading in ("main", "learned"):
            cmd = [sys.executable, __file__, "--data", a.data, "--store", store]
            cmd += ["--worker", reading, "--threshold", str(a.threshold)]
            line = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            out[reading] = json.loads(line.strip().splitlines()[-1])
            print(reading, json.dumps(out[reading]))
    if a.out:
        Path(a.out).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
