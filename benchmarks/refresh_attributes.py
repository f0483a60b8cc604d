"""Refresh recall/user/attributes.npz: the packaged labelled examples embedded by the default
spec's multilingual model (run after editing recall/user/attributes.tsv).

    .venv/bin/python benchmarks/refresh_attributes.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import recall
from recall.user import attributes


def main() -> None:
    out = Path(attributes.__file__).with_name(attributes.SHIPPED)
    with tempfile.TemporaryDirectory() as d, recall.open(d) as mem:
        print(out, attributes.write_shipped(mem.embedder(), out))


if __name__ == "__main__":
    main()
