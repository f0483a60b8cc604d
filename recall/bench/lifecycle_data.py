"""The lifecycle benchmark's data: conversations as update_memory calls, raw turns, questions.

A :class:`Conversation` holds what one user said, twice: as the product's write path sees
it (``updates``: one update_memory call per LoCoMo session or MemDaily day, in order, with
its date) and as raw turns for the ceiling (``turns``: one record each, kind ``turn``,
threaded by session, dated, exactly as ``recall bench locomo``/``memdaily`` index them).
Each :class:`Question` names the sessions its evidence is in, so a run can tell questions
about promoted memory from questions about memory still short-term.

Scoring is answer-token recall: the share of the gold answer's words found in what was
retrieved. Latin-script words are lower-cased alphanumeric runs less a short stop-word
list, matched as words; Chinese words (jieba) are matched as substrings, since the
retrieved text would be segmented differently.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from ..lifecycle.ingest import plan_values
from ..lifecycle.locomo import read_samples
from ..settings import Settings
from .data import DatasetError
from .locomo import load_locomo
from .memdaily import load_memdaily

__all__ = [
    "Conversation",
    "Question",
    "answer_recall",
    "answer_words",
    "locomo_conversations",
    "memdaily_conversations",
]

_STOP_WORDS = (
    "a an the of to in on at for and or is are was were be been it its i you he she they we "
    "my your his her their our this that with as by from not no do did does has have had"
)
_STOP = frozenset(_STOP_WORDS.split())
_CJK_STOP = frozenset("的了是在和与及吗呢吧啊我你他她它们这那一个也都就有")  # one-character words
_LATIN = re.compile(r"[a-z0-9]+")
_CJK = re.compile(r"[\u3400-\u9fff]+")
_EVIDENCE = re.compile(r"D(\d+):\d+")


@dataclass
class Question:
    """One question, its gold answer, and the sessions (update keys) its evidence is in."""

    qid: str
    text: str
    answer: str
    category: str
    sessions: set[str]


@dataclass
class Conversation:
    """One user's conversation: the update_memory calls, the raw turns, the questions."""

    user: str
    updates: list[tuple[str, list[dict[str, Any]], datetime | None]] = field(default_factory=list)
    turns: list[dict[str, Any]] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)


def answer_words(text: str) -> tuple[set[str], set[str]]:
    """The answer's content words: (Latin words, Chinese words)."""
    import jieba  # the CJK analyzer's segmenter; imported here, it is slow to load

    low = str(text).lower()
    latin = {w for w in _LATIN.findall(low) if w not in _STOP}
    cjk = {w for run in _CJK.findall(low) for w in jieba.lcut(run) if w not in _CJK_STOP}
    return latin, cjk


def answer_recall(answer: str, retrieved: str) -> float | None:
    """Share of the answer's content words present in ``retrieved``; None: no words."""
    latin, cjk = answer_words(answer)
    if not latin and not cjk:
        return None
    low = retrieved.lower()
    found = set(_LATIN.findall(low))
    hits = sum(w in found for w in latin) + sum(w in low for w in cjk)
    return hits / (len(latin) + len(cjk))


def locomo_conversations(path: Path, settings: Settings, limit: int | None) -> list[Conversation]:
    """LoCoMo: one update per session (``recall ingest``'s plan), categories 1-4 asked."""
    samples = read_samples(path)[:limit]
    ds = load_locomo(path, "turns")
    by_user: dict[str, list[str]] = defaultdict(list)
    for doc, entry in ds.corpus.items():
        by_user[entry["user"]].append(doc)
    out = []
    for sample in samples:
        user = str(sample.sample_id)
        conv = Conversation(user=user)
        for u in plan_values([(sample.where, dict(sample.raw))], settings):
            conv.updates.append((u.where.rsplit(" ", 1)[-1], u.messages, u.at))
        for doc in by_user[user]:
            entry = ds.corpus[doc]
            item = {"id": doc, "text": entry["text"], "kind": "turn"}
            item["metadata"] = {"thread": entry["thread"]}
            if entry.get("created_at") is not None:
                item["created_at"] = entry["created_at"]
            conv.turns.append(item)
        for i, qa in enumerate(sample.raw.get("qa", [])):
            category = qa.get("category")
            if category not in (1, 2, 3, 4) or "answer" not in qa:
                continue
            sessions = {f"session_{n}" for n in _EVIDENCE.findall(str(qa.get("evidence")))}
            text, answer = str(qa["question"]), str(qa["answer"])
            conv.questions.append(Question(f"{user}/q{i}", text, answer, str(category), sessions))
        out.append(conv)
    return out


def memdaily_conversations(path: Path, limit: int | None, seed: int = 0) -> list[Conversation]:
    """MemDaily: each question's haystack (100 messages) as a user, one update per day."""
    ds = load_memdaily(path, limit=limit, seed=seed)
    answers: dict[str, str] = {}
    for f in sorted(path.glob("*.json")) if path.is_dir() else [path]:
        try:
            trajs = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise DatasetError(f"cannot read MemDaily file {f}: {exc}") from exc
        for t in trajs:
            for q in t["question_list"]:
                answers[f"{f.stem}/t{t['tid']}/q{q['qid']}"] = str(q["answer"])
    convs: dict[str, Conversation] = {}
    day_of: dict[str, str] = {}
    docs = sorted(ds.corpus, key=lambda d: (ds.corpus[d].get("created_at") or datetime.min, d))
    days: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for doc in docs:
        entry = ds.corpus[doc]
        when = entry.get("created_at")
        day = f"{when:%Y-%m-%d}" if when else "undated"
        days[entry["user"]][day].append(doc)
        day_of[doc] = day
        conv = convs.setdefault(entry["user"], Conversation(user=entry["user"]))
        item: dict[str, Any] = {"id": doc, "text": entry["text"], "kind": "turn"}
        item["metadata"] = {"thread": day}
        if when is not None:
            item["created_at"] = when
        conv.turns.append(item)
    for user, by_day in days.items():
        for day, day_docs in by_day.items():
            messages = [{"role": "user", "content": ds.corpus[d]["text"]} for d in day_docs]
            convs[user].updates.append((day, messages, ds.corpus[day_docs[0]].get("created_at")))
    for qid, text in ds.queries.items():
        user = ds.query_meta[qid]["user"]
        sessions = {day_of[d] for d in ds.qrels[qid]}
        category = str(ds.query_meta[qid].get("category", ""))
        convs[user].questions.append(Question(qid, text, answers[qid], category, sessions))
    return list(convs.values())
