"""Which attribute of the user a text is about, by its nearest labelled examples.

An *attribute* is one thing about the user that holds a value at a time: where they live,
who they work for, the gym they go to, the coffee they drink, their child's school. Which
attribute a sentence sets is not read from cue words: ``attributes.tsv`` holds a few
hundred labelled examples, statements and questions in English and Chinese, written from
a brief by someone who had not seen recall's evaluation data; a text takes the label of
the examples nearest to it in the embedding space of a model recall already ships. The
default spec's multilingual part (USE-multilingual) reads both languages in one space, so
an English question and a Chinese statement meet at one label.

The label is the bridge between a question and every statement of what it asks: "Which
city does Dara live in?" and "the flat above the chip shop is freezing" share no word,
but both sit nearest to examples labelled ``home``. ``none`` labels what is about no
attribute (requests, small talk, moods); a text whose best attribute does not beat
``none`` by :data:`MARGIN` gets no label.

Adding an attribute is adding examples, not code. The score of a label is the mean
similarity of its :data:`K` nearest examples (one lucky neighbour does not decide).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..index.embed import CompositeEmbedder, Embedder

__all__ = [
    "AttributeSpace",
    "Example",
    "NONE",
    "SHIPPED",
    "bank_key",
    "examples",
    "shipped_vectors",
    "space_for",
    "write_shipped",
]

Vectors = npt.NDArray[np.float32]

#: The label of text about no attribute of the user.
NONE = "none"
#: Nearest examples averaged into a label's score.
K = 3
#: How far a label's score must beat ``none``'s to be given (cosine units).
MARGIN = 0.02
#: Sentences whose vectors each space remembers (about 2 KB each).
CACHED = 20_000


@dataclass(frozen=True)
class Example:
    """One labelled example: its attribute, language, kind (statement | question), text."""

    attribute: str
    lang: str
    kind: str
    text: str


@cache
def examples() -> tuple[Example, ...]:
    """The packaged examples (``attributes.tsv``: attribute, lang, kind, text per line)."""
    raw = resources.files(__package__).joinpath("attributes.tsv").read_text(encoding="utf-8")
    out = []
    for line in raw.splitlines():
        parts = line.split("\t")
        if len(parts) == 4 and parts[3].strip() and not line.startswith("#"):
            out.append(Example(*(p.strip() for p in parts)))
    return tuple(out)


def _columns(embedder: Embedder) -> tuple[Embedder, int, int]:
    """The model that reads every language, and its columns in ``embedder``'s vectors."""
    if not isinstance(embedder, CompositeEmbedder):
        return embedder, 0, embedder.dimension
    # The part a CJK query is routed to reads both languages (USE-multilingual by default).
    best = max(range(len(embedder.parts)), key=lambda i: embedder._cjk_scale[i])
    lo = sum(p.dimension for p in embedder.parts[:best])
    part = embedder.parts[best]
    return part, lo, lo + part.dimension


def _unit(rows: npt.NDArray[np.floating]) -> Vectors:
    rows = np.asarray(rows, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    return (rows / np.where(norms > 0, norms, 1.0)).astype(np.float32)


class AttributeSpace:
    """The labelled examples embedded by one embedder, ready to label texts or rows."""

    def __init__(self, embedder: Embedder, bank: tuple[Example, ...] | None = None) -> None:
        self.model, self.lo, self.hi = _columns(embedder)
        packaged = bank is None
        bank = examples() if bank is None else bank
        self.labels = sorted({e.attribute for e in bank})
        self._label_of = np.array([self.labels.index(e.attribute) for e in bank], dtype=np.intp)
        shipped = shipped_vectors(self.model, bank) if packaged else None
        self._vectors = (
            shipped
            if shipped is not None
            else _unit(self.model.embed_documents([e.text for e in bank]))
        )
        self._none = self.labels.index(NONE) if NONE in self.labels else -1
        self._cache: OrderedDict[str, tuple[Vectors, npt.NDArray[np.float64]]] = OrderedDict()
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> Vectors:
        """``texts`` embedded as documents in this space (see :meth:`embed_scored`)."""
        return self.embed_scored(texts)[0]

    def embed_scored(self, texts: Sequence[str]) -> tuple[Vectors, npt.NDArray[np.float64]]:
        """``texts`` embedded as documents in this space, and their :meth:`scores`; the
        last :data:`CACHED` texts are remembered, so a partition rebuilt after a write
        embeds and scores only what is new."""
        out = np.zeros((len(texts), self.hi - self.lo), dtype=np.float32)
        scores = np.zeros((len(texts), len(self.labels)))
        todo: list[int] = []
        with self._lock:
            for k, t in enumerate(texts):
                hit = self._cache.get(t)
                if hit is None:
                    todo.append(k)
                else:
                    self._cache.move_to_end(t)
                    out[k], scores[k] = hit
        if todo:
            fresh = _unit(self.model.embed_documents([texts[k] for k in todo]))
            fresh_scores = self.scores(fresh)
            with self._lock:
                for k, v, sc in zip(todo, fresh, fresh_scores, strict=True):
                    out[k], scores[k] = v, sc
                    self._cache[texts[k]] = (v, sc)
                while len(self._cache) > CACHED:
                    self._cache.popitem(last=False)
        return out, scores

    def query(self, text: str) -> Vectors:
        """``text`` embedded as a query in this space."""
        return _unit(self.model.embed_query(text)[None, :])

    def scores(self, vectors: Vectors) -> npt.NDArray[np.float64]:
        """One row per vector, one column per label: the mean of its K nearest examples."""
        sims = vectors @ self._vectors.T
        out = np.full((len(vectors), len(self.labels)), -1.0)
        for j in range(len(self.labels)):
            cols = sims[:, self._label_of == j]
            if cols.shape[1] == 0:
                continue
            k = min(K, cols.shape[1])
            out[:, j] = np.sort(cols, axis=1)[:, -k:].mean(axis=1)
        return out

    def label(
        self, vectors: Vectors, scores: npt.NDArray[np.float64] | None = None
    ) -> tuple[list[str | None], npt.NDArray[np.float64]]:
        """Each vector's attribute (None: about no attribute) and its margin over the
        runner-up (``none`` included); ``scores`` when already computed (:meth:`scores`)."""
        scores = self.scores(vectors) if scores is None else scores
        order = np.argsort(-scores, axis=1)
        out: list[str | None] = []
        margins = np.zeros(len(vectors))
        for i in range(len(vectors)):
            best, second = int(order[i, 0]), int(order[i, 1]) if scores.shape[1] > 1 else -1
            margin = scores[i, best] - (scores[i, second] if second >= 0 else 0.0)
            margins[i] = margin
            beats_none = self._none < 0 or scores[i, best] - scores[i, self._none] >= MARGIN
            out.append(self.labels[best] if best != self._none and beats_none else None)
        return out, margins


#: The packaged examples embedded by the default spec's multilingual model (float16), so a
#: fresh process does not embed 2,000 examples (8 s) before its first answer. Written by
#: ``benchmarks/refresh_attributes.py``; used only when its key matches the model and the
#: examples (tests/index/test_attributes.py checks it against the model).
SHIPPED = "attributes.npz"


def bank_key(model: Embedder, bank: tuple[Example, ...]) -> str:
    """What shipped vectors must have been computed from: the model and every example."""
    h = hashlib.sha256(getattr(model, "id", type(model).__qualname__).encode())
    for e in bank:
        h.update(f"{e.attribute}\t{e.lang}\t{e.kind}\t{e.text}\n".encode())
    return h.hexdigest()


def shipped_vectors(model: Embedder, bank: tuple[Example, ...]) -> Vectors | None:
    """The packaged vectors of ``bank`` for ``model``, or None when they do not match."""
    ref = resources.files(__package__).joinpath(SHIPPED)
    if not ref.is_file():
        return None
    with ref.open("rb") as f, np.load(f) as data:
        if str(data["key"]) != bank_key(model, bank):
            return None
        return _unit(data["vectors"].astype(np.float32))


def write_shipped(embedder: Embedder, path: Path) -> str:
    """Embed the packaged examples with ``embedder``'s multilingual part into ``path``."""
    model = _columns(embedder)[0]
    bank = examples()
    vectors = _unit(model.embed_documents([e.text for e in bank])).astype(np.float16)
    key = bank_key(model, bank)
    np.savez_compressed(path, vectors=vectors, key=np.array(key))
    return key


_SPACES: dict[str, AttributeSpace] = {}
_LOCK = threading.Lock()


def space_for(embedder: Embedder) -> AttributeSpace:
    """The attribute space of ``embedder`` (built once per embedder id and process: the
    examples are embedded on first use)."""
    # An embedder without an id (a wrapper) is its own key.
    key = getattr(embedder, "id", None) or f"{type(embedder).__qualname__}@{id(embedder)}"
    with _LOCK:
        space = _SPACES.get(key)
        if space is None:
            space = _SPACES[key] = AttributeSpace(embedder)
        return space
