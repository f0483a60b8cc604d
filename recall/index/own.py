"""Bring your own embedder: any object with one method, ``embed(texts) -> vectors``.

``recall.open(path, embedder=obj)`` makes ``obj`` the vector leg's only model, in place of
the spec's packaged ones. As in simonw/llm's ``embed_batch``, the one method takes a
sequence of texts and returns one vector per text (lists of floats or a numpy array).
:class:`AdaptedEmbedder` turns it into recall's :class:`~recall.index.embed.Embedder`:

- the identity, recorded in the index fingerprint (:func:`own_spec`): the object's ``id``
  or ``model_id`` attribute, else its class's qualified name;
- the dimension: the object's ``dimension`` attribute, else the length of the vector it
  returns for one probe text when the memory opens;
- every answer is checked (one row per text, the dimension, finite values: else
  :class:`~recall.errors.EmbedderError`) and L2-normalized to float32.

An object that already has all of ``Embedder`` (``id``, ``dimension``, ``embed_documents``,
``embed_query``) is used as it is. There is one model: no CJK routing to a second one
(:mod:`.crosslang` scores every record by it).
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from ..errors import ConfigError, EmbedderError, RecallError
from .embed import Embedder
from .spec import OWN_PREFIX, IndexSpec

__all__ = ["AdaptedEmbedder", "Embeds", "adapt_embedder", "embedder_id", "own_spec"]

Vectors = npt.NDArray[np.float32]

#: The text a model without a ``dimension`` attribute embeds once, to tell its dimension.
PROBE = "recall"


@runtime_checkable
class Embeds(Protocol):
    """The one method a model brought to ``recall.open(embedder=...)`` needs."""

    def embed(self, texts: Sequence[str]) -> Any:
        """One vector per text: a sequence of float sequences, or a 2-D numpy array."""
        ...


def embedder_id(model: object) -> str:
    """The identity of ``model`` in the index fingerprint: its ``id`` or ``model_id``
    attribute, else its class's qualified name."""
    for attr in ("id", "model_id"):
        value = getattr(model, attr, None)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return type(model).__qualname__


class AdaptedEmbedder:
    """An :class:`Embeds` model as recall's :class:`~recall.index.embed.Embedder`."""

    def __init__(self, model: Embeds) -> None:
        self.model = model
        self.id = embedder_id(model)
        declared = getattr(model, "dimension", None)
        self._dimension: int | None = None
        if declared is not None:
            try:  # an int, or an int-like such as numpy's
                size = operator.index(declared)
            except TypeError:
                size = 0
            if isinstance(declared, bool) or size < 1:
                raise ConfigError(
                    f"embedder {self.id!r}: dimension must be a positive int, got {declared!r}"
                )
            self._dimension = size
        else:  # the first call tells it
            self.embed_documents([PROBE])
        #: Length of every vector.
        self.dimension: int = self._dimension or 0

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """One normalized row per text (checked: see the module docs)."""
        if not texts:
            return np.zeros((0, self._dimension or 0), dtype=np.float32)
        try:
            raw = self.model.embed(list(texts))
        except RecallError:
            raise
        except Exception as exc:  # a remote model's outage, its client's bug: ours to name
            raise EmbedderError(
                f"embedder {self.id!r} failed: {type(exc).__name__}: {exc}"
            ) from exc
        return self._checked(raw, len(texts))

    def embed_query(self, text: str) -> Vectors:
        """One normalized vector (1-D)."""
        row: Vectors = self.embed_documents([text])[0]
        return row

    def _checked(self, raw: Any, n: int) -> Vectors:
        what = f"embedder {self.id!r}"
        try:
            rows = np.asarray(raw, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise EmbedderError(
                f"{what} returned something that is not one float vector per text "
                f"(vectors of different lengths?): {exc}"
            ) from exc
        if rows.ndim != 2 or rows.shape[0] != n:
            raise EmbedderError(
                f"{what} returned an array of shape {rows.shape} for {n} texts; embed(texts) "
                "must return one vector per text"
            )
        if self._dimension is None:
            if rows.shape[1] < 1:
                raise EmbedderError(f"{what} returned empty vectors")
            self._dimension = int(rows.shape[1])
        if rows.shape[1] != self._dimension:
            raise EmbedderError(
                f"{what} returned vectors of {rows.shape[1]} dimensions, not {self._dimension}"
            )
        bad = ~np.isfinite(rows).all(axis=1)
        if bad.any():
            raise EmbedderError(
                f"{what} returned NaN or infinite values (text {int(np.flatnonzero(bad)[0])} "
                f"of {n})"
            )
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        out: Vectors = (rows / np.maximum(norms, 1e-12)).astype(np.float32)
        return out


def adapt_embedder(model: object) -> Embedder:
    """``model`` as an :class:`~recall.index.embed.Embedder`: as it is when it has the whole
    protocol, else through :class:`AdaptedEmbedder`; ConfigError when it has no ``embed``."""
    if isinstance(model, Embedder):
        return model
    if isinstance(model, Embeds):
        return AdaptedEmbedder(model)
    raise ConfigError(
        f"the embedder {type(model).__qualname__} has no method embed(texts) returning one "
        "vector per text (nor recall's Embedder protocol: id, dimension, embed_documents, "
        "embed_query)"
    )


def own_spec(spec: IndexSpec, embedder: Embedder) -> IndexSpec:
    """``spec`` with ``embedder`` as its model: the rest (BM25, tokenizer, passages) kept.

    Its fingerprint covers the embedder's id and dimension, so a folder reopened with
    another embedder is refused as one opened with another spec is.
    """
    return dataclasses.replace(
        spec, embedder=f"{OWN_PREFIX}{embedder.id}", dimension=embedder.dimension
    )
