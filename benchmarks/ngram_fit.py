"""Fitting a :class:`recall.ngrams.NgramModel`: shared by the scripts that fit one
(``train_triggers.py``, ``train_time_only.py``).

A logistic regression (scikit-learn, the dev install's; L2) over the hashed n-gram
features of :func:`recall.ngrams.features`; only its non-zero weights are shipped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from sklearn.linear_model import LogisticRegression

from recall.ngrams import features


def matrix(texts: list[str], columns: npt.NDArray[np.intp]) -> npt.NDArray[np.float32]:
    """The texts' features over ``columns`` (the features the bank uses), dense."""
    where = {int(c): j for j, c in enumerate(columns)}
    out = np.zeros((len(texts), len(columns)), dtype=np.float32)
    for i, t in enumerate(texts):
        for k, v in features(t).items():
            if k in where:
                out[i, where[k]] = v
    return out


def fit(
    texts: list[str], labels: npt.NDArray[np.bool_], c: float
) -> tuple[npt.NDArray[np.intp], Any]:
    """A model fitted on ``texts``: the feature columns it reads and the regression."""
    columns = np.array(sorted({k for t in texts for k in features(t)}), dtype=np.intp)
    model = LogisticRegression(C=c, max_iter=5_000).fit(matrix(texts, columns), labels)
    return columns, model


def rates(
    pred: npt.NDArray[np.bool_],
    y: npt.NDArray[np.bool_],
    langs: list[str],
    positive: str,
    negative: str,
) -> dict[str, Any]:
    """Per language and in all: the ``positive`` rows found and the ``negative`` ones taken."""
    out: dict[str, Any] = {}
    for lang in ("en", "zh", "all"):
        sel = np.array([lang in ("all", g) for g in langs])
        out[lang] = {
            f"{positive}_found": int((pred & y & sel).sum()),
            positive: int((y & sel).sum()),
            f"{negative}_taken": int((pred & ~y & sel).sum()),
            negative: int((~y & sel).sum()),
        }
    return out


def show(name: str, r: dict[str, Any], positive: str, negative: str) -> None:
    """Print :func:`rates`' figures, one line per language."""
    pos, neg = positive.replace("_", "-"), negative.replace("_", "-")
    for lang, v in r.items():
        found, n_pos = v[f"{positive}_found"], v[positive]
        taken, n_neg = v[f"{negative}_taken"], v[negative]
        print(
            f"  {name:<16} {lang:<3} {pos} found {found}/{n_pos} ({found / max(1, n_pos):.1%}),"
            f" {neg} taken {taken}/{n_neg} ({taken / max(1, n_neg):.1%})"
        )


def fit_and_save(
    texts: list[str], labels: npt.NDArray[np.bool_], c: float, out: Path, key: str
) -> int:
    """Fit on every one of ``texts`` (:func:`fit`) and write the model's non-zero weights,
    its bias and ``key`` (the examples' :func:`recall.ngrams.examples_key`) to ``out``;
    returns how many weights were written."""
    columns, model = fit(texts, labels, c)
    weights = model.coef_[0]
    keep = np.flatnonzero(weights)
    np.savez_compressed(
        out,
        index=columns[keep].astype(np.int32),
        weight=weights[keep].astype(np.float16),
        bias=np.array(model.intercept_[0]),
        key=np.array(key),
    )
    return len(keep)
