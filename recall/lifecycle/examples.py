"""Chapter routing by example: where the rules say Dynamic, the labelled sentences decide.

The rules of :mod:`.routing` are precise but brittle: new wording of a stable fact ("My
wife Elena is a veterinarian", "我从小在内蒙古长大") matches none of them and falls back to
Dynamic. So a sentence the rules leave in Dynamic is compared with the development rows of
``chapters.tsv`` (labelled zh and en sentences, the set the rules were written against):
its 5 nearest by embedding similarity vote, weighted by similarity, and a Bedrock or
Evolutionary majority of at least 60% of the vote moves it. Rules that place a sentence
elsewhere are kept, and tool output and passing states stay in Dynamic whatever their
neighbours say. Measured in tests/lifecycle/test_chapters.py (development and held-out rows).
"""

from __future__ import annotations

import csv
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..index.embed import Embedder
from .routing import is_transient, route_utterance
from .sentences import Speaker, parse_label

__all__ = ["DATA", "ExampleRouter", "labelled_rows"]

#: The labelled sentences: chapter, lang, split (dev, heldout, heldout2), sentence, note.
DATA = Path(__file__).with_name("chapters.tsv")
_K = 5
_SHARE = 0.6


def labelled_rows(split: str | None = None) -> list[dict[str, str]]:
    """The rows of :data:`DATA`, all or those of one ``split``."""
    with DATA.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    return [r for r in rows if split is None or r["split"] == split]


class ExampleRouter:
    """Rules first, then the nearest labelled examples for what the rules left in Dynamic."""

    def __init__(self, embedder: Callable[[], Embedder]) -> None:
        self._embedder = embedder
        self._lock = threading.Lock()
        self._matrix: npt.NDArray[np.float32] | None = None
        self._labels: npt.NDArray[np.str_] | None = None

    def _examples(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.str_]]:
        with self._lock:  # embedded once per router, on first need
            if self._matrix is None or self._labels is None:
                rows = labelled_rows("dev")
                texts = [parse_label(r["sentence"])[1] for r in rows]
                self._matrix = np.asarray(self._embedder().embed_documents(texts), np.float32)
                self._labels = np.array([r["chapter"] for r in rows])
            return self._matrix, self._labels

    def refine(self, utterances: Sequence[tuple[Speaker, str]], chapters: list[str]) -> list[str]:
        """``chapters`` (the rules' verdicts, one per utterance) with the Dynamic ones that
        the examples place elsewhere moved there."""
        todo = [
            i
            for i, ((speaker, text), chapter) in enumerate(zip(utterances, chapters, strict=True))
            if chapter == "Dynamic" and speaker.role != "tool" and not is_transient(text)
        ]
        if not todo:
            return chapters
        matrix, labels = self._examples()
        vecs = np.asarray(self._embedder().embed_documents([utterances[i][1] for i in todo]))
        out = list(chapters)
        for i, sims in zip(todo, vecs @ matrix.T, strict=True):
            near = np.argsort(-sims)[:_K]
            votes: dict[str, float] = {}
            for j in near:
                votes[str(labels[j])] = votes.get(str(labels[j]), 0.0) + max(float(sims[j]), 0.0)
            best = max(votes, key=lambda c: votes[c])
            total = sum(votes.values())
            if best != "Dynamic" and total > 0 and votes[best] / total >= _SHARE:
                out[i] = best
        return out

    def route(self, sentence: str) -> str:
        """The chapter of one (possibly labelled) sentence: rules, then examples."""
        speaker, text = parse_label(sentence)
        return self.refine([(speaker, text)], [route_utterance(speaker, text)])[0]
