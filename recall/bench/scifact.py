"""BEIR SciFact: scientific claims against abstracts; the whole corpus is one user's memory.

Reads BEIR's own files (``corpus.jsonl``, ``queries.jsonl``, ``qrels/<split>.tsv``) and
keeps only the queries judged in that split. Standard metric: nDCG@10 on ``test``.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from .data import DEFAULT_USER, Dataset, DatasetError

__all__ = ["load_beir", "load_scifact"]


def _jsonl(path: Path) -> list[dict[str, object]]:
    try:
        with path.open(encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()]
    except (OSError, json.JSONDecodeError) as exc:
        raise DatasetError(f"cannot read {path}: {exc}") from exc


def load_beir(path: str | Path, *, split: str = "test", name: str = "beir") -> Dataset:
    """Load a BEIR dataset folder as one user's memory, scored on ``qrels/<split>.tsv``."""
    root = Path(path)
    qrels_path = root / "qrels" / f"{split}.tsv"
    for p in (root / "corpus.jsonl", root / "queries.jsonl", qrels_path):
        if not p.is_file():
            raise DatasetError(f"{p} is missing; pass --data with a BEIR dataset folder")
    corpus = {
        str(d["_id"]): {
            "text": str(d.get("text", "")),
            "title": str(d.get("title") or ""),
            "user": DEFAULT_USER,
        }
        for d in _jsonl(root / "corpus.jsonl")
    }
    corpus = {k: v for k, v in corpus.items() if (v["title"] + v["text"]).strip()}
    all_queries = {str(q["_id"]): str(q["text"]) for q in _jsonl(root / "queries.jsonl")}
    qrels: dict[str, dict[str, int]] = {}
    with qrels_path.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            grade = int(row["score"])
            if grade > 0 and row["corpus-id"] in corpus:
                qrels.setdefault(row["query-id"], {})[row["corpus-id"]] = grade
    queries = {q: all_queries[q] for q in qrels if q in all_queries}
    ds = Dataset(
        name=name,
        corpus=corpus,
        queries=queries,
        qrels={q: qrels[q] for q in queries},
        query_meta={q: {"user": DEFAULT_USER} for q in queries},
    )
    ds.stats.update({"docs": len(corpus), "queries": len(queries)})
    ds.params.update({"data": str(root), "split": split})
    ds.validate()
    return ds


def load_scifact(path: str | Path, *, split: str = "test") -> Dataset:
    """BEIR SciFact (5,183 abstracts; 300 test queries)."""
    return load_beir(path, split=split, name="scifact")
