"""Fusion of the keyword and vector legs: pure functions, property-tested.

Every candidate has an exact score from both legs (see ``recall.index.retriever``). Each
leg is normalized per query with min-max, with guards so that a leg never hands out a free
1.0:

- a leg with no signal (no positive score among the candidates) contributes 0 to all;
- a single candidate, or all candidates tied (within a relative 1e-12), get 1.0 if their
  score is positive, else 0;
- otherwise ``(s - min) / (max - min)``, so the best candidate gets 1 and the worst 0.

The fused score is ``alpha * keyword + (1 - alpha) * vector`` (alpha = 0.5 by default), in
[0, 1]. Reciprocal rank fusion is the alternative, scaled so that a candidate ranked first
in both legs scores 1.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["fuse_linear", "fuse_rrf", "minmax", "ranks"]

FloatArray = npt.NDArray[np.float64]
_EPS = 1e-12


def minmax(scores: Sequence[float] | FloatArray) -> FloatArray:
    """Per-query min-max normalization with the guards described in the module doc."""
    s = np.asarray(scores, dtype=np.float64)
    if s.size == 0:
        return s
    s = np.where(np.isfinite(s), s, 0.0)  # NaN and ±inf count as no signal (nan_to_num, faster)
    hi = float(s.max())
    if hi <= 0.0:
        # No candidate has signal in this leg (e.g. no query word occurs anywhere).
        return np.zeros_like(s)
    lo = float(s.min())
    # Relative tolerance: scores may be tiny (a BM25 leg on a rare term) and still ordered,
    # so only a spread below rounding noise of the top score counts as a tie.
    if hi - lo <= _EPS * hi:
        return np.where(s > 0.0, 1.0, 0.0)
    return np.clip((s - lo) / (hi - lo), 0.0, 1.0)


def ranks(scores: Sequence[float] | FloatArray) -> npt.NDArray[np.int64]:
    """1-based ranks, best first; ties keep input order (stable)."""
    s = np.asarray(scores, dtype=np.float64)
    order = np.argsort(-s, kind="stable")
    out = np.empty(s.size, dtype=np.int64)
    out[order] = np.arange(1, s.size + 1)
    return out


def fuse_linear(
    keyword: Sequence[float] | FloatArray, vector: Sequence[float] | FloatArray, alpha: float
) -> FloatArray:
    """``alpha * minmax(keyword) + (1 - alpha) * minmax(vector)``, in [0, 1]."""
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be in [0, 1], got {alpha}")
    k, v = minmax(keyword), minmax(vector)
    if k.shape != v.shape:
        raise ValueError("both legs must score the same candidates")
    return np.clip(alpha * k + (1.0 - alpha) * v, 0.0, 1.0)


def fuse_rrf(
    keyword: Sequence[float] | FloatArray,
    vector: Sequence[float] | FloatArray,
    alpha: float,
    k: int = 60,
) -> FloatArray:
    """Weighted reciprocal rank fusion, scaled into [0, 1].

    A leg with no signal contributes nothing (its ranks would be arbitrary).
    """
    kw, vec = np.asarray(keyword, dtype=np.float64), np.asarray(vector, dtype=np.float64)
    if kw.shape != vec.shape:
        raise ValueError("both legs must score the same candidates")
    if kw.size == 0:
        return kw
    out = np.zeros_like(kw)
    for weight, s in ((alpha, kw), (1.0 - alpha, vec)):
        if s.max() > 0.0:
            out += weight / (k + ranks(s))
    return np.clip(out * (k + 1), 0.0, 1.0)
