"""Helpers for tests of code built on recall: a stand-in embedder that loads no model.

mem = recall.open(tmp_path / "memory", embedder=HashEmbedder())
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence

import numpy as np
import numpy.typing as npt

from .text import has_cjk, tokenize

__all__ = ["HashEmbedder"]


class HashEmbedder:
    """A deterministic embedder without a model: for tests that check logic, not quality.

    Each text's word tokens (:func:`recall.text.tokenize`: jieba for Chinese, words
    elsewhere) and their character n-grams are hashed (blake2b: the same vector in every
    process, unlike ``hash()``) into ``dimension`` buckets of counts, L2-normalized. Every
    bucket is non-negative, so texts sharing a word (or an n-gram) have a positive cosine,
    and texts sharing none have about 0. Nothing is downloaded or loaded; it knows no
    synonyms and no languages: its rankings say nothing about recall's retrieval quality.

    It has the one method ``recall.open(embedder=...)`` asks for, ``embed``, with ``id``
    and ``dimension`` attributes (the id enters the index fingerprint).
    """

    def __init__(self, dimension: int = 256, *, ngram: int = 3, id: str | None = None) -> None:
        if dimension < 1 or ngram < 1:
            raise ValueError("dimension and ngram must be at least 1")
        #: Length of every vector.
        self.dimension = dimension
        #: Characters per n-gram (2 for a CJK token: its characters carry more).
        self.ngram = ngram
        #: The identity recorded in the index fingerprint.
        self.id = id or f"hash-{dimension}-{ngram}"

    def _features(self, text: str) -> Iterator[tuple[str, float]]:
        for token in tokenize(text):
            yield "w:" + token, 1.0
            n = min(self.ngram, 2) if has_cjk(token) else self.ngram
            padded = f"<{token}>"
            for i in range(max(len(padded) - n + 1, 0)):
                yield "c:" + padded[i : i + n], 0.5

    def _bucket(self, feature: str) -> int:
        digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
        return int.from_bytes(digest, "little") % self.dimension

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """One L2-normalized float32 row per text (a text without tokens: all zeros)."""
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for feature, weight in self._features(text):
                out[row, self._bucket(feature)] += weight
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        normed: npt.NDArray[np.float32] = (out / np.maximum(norms, 1e-12)).astype(np.float32)
        return normed
