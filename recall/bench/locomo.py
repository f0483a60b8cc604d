"""LoCoMo (Maharana et al., 2024): long multi-session dialogues, one user per conversation.

Three retrieval units, as in the paper:

- ``turns``: each turn indexed as ``"(session date) speaker: text"`` (a shared image adds
  ``" [shares <caption>]"``, LoCoMo's own text stand-in); recall over evidence dia_ids.
- ``observations``: each observation (a fact the authors extracted per speaker and session)
  is one document; it covers its dia_id(s); recall over the evidence dia_ids it covers.
- ``summaries``: each session summary is one document; recall over the sessions that hold
  the evidence.

Conversations are read by :mod:`recall.lifecycle.locomo`, the parser ``recall ingest``
uses too. Categories 1-4 are scored; category 5 (adversarial: the answer is not in the dialogue) is
skipped. Evidence strings are split on ``;``, ``,`` and spaces; ids that are malformed or
name no turn of the conversation are counted, dropped, and reported; a question left with
no evidence is skipped and counted.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from ..errors import InputError
from ..lifecycle.locomo import LocomoSample, LocomoTurn, read_samples
from .data import Dataset, DatasetError

__all__ = ["UNITS", "load_locomo"]

Unit = Literal["turns", "observations", "summaries"]
UNITS: tuple[Unit, ...] = ("turns", "observations", "summaries")
SCORED_CATEGORIES = (1, 2, 3, 4)

_DIA = re.compile(r"^D(\d+):(\d+)$")
_SPLIT = re.compile(r"[;,\s]+")


def _turn_text(date: str, turn: LocomoTurn) -> str:
    text = f"({date}) {turn.speaker}: {turn.text}".strip()
    return f"{text} [shares {turn.caption}]" if turn.caption else text


def _split_ids(raw: object) -> list[str]:
    if isinstance(raw, list):
        return [x for item in raw for x in _split_ids(item)]
    return [x for x in _SPLIT.split(str(raw)) if x]


def load_locomo(path: str | Path, unit: Unit = "turns") -> Dataset:
    """Load a LoCoMo JSON file (``locomo10.json`` or a subset) at one retrieval unit."""
    if unit not in UNITS:
        raise DatasetError(f"unknown LoCoMo unit {unit!r}; choose one of {UNITS}")
    path = Path(path)
    try:
        samples = read_samples(path)
    except InputError as exc:
        raise DatasetError(str(exc)) from exc
    ds = Dataset(name=f"locomo-{unit}", corpus={}, queries={}, qrels={}, evidence={}, covers={})
    problems: Counter[str] = Counter()
    for sample in samples:
        try:
            _add_sample(ds, sample, unit, problems)
        except (KeyError, TypeError) as exc:
            raise DatasetError(f"{path}: a sample lacks the LoCoMo fields ({exc})") from exc
    ds.stats.update(problems)
    ds.params.update({"data": str(path), "unit": unit, "categories": list(SCORED_CATEGORIES)})
    ds.validate()
    return ds


def _add_sample(ds: Dataset, sample: LocomoSample, unit: Unit, problems: Counter[str]) -> None:
    if sample.sample_id is None:
        raise DatasetError(f"{sample.where}: a sample needs a sample_id (it names the user)")
    user = sample.sample_id
    evaluation: dict[str, Any] = dict(sample.raw)  # qa, observation, session_summary
    turn_ids: set[str] = set()
    dates: dict[int, datetime | None] = {}
    date_of: dict[int, str] = {}
    assert ds.covers is not None and ds.evidence is not None
    for session in sample.sessions:
        n, date = session.number, session.date or ""
        dates[n] = session.start
        date_of[n] = date
        for t, turn in enumerate(session.turns):
            if turn.dia_id is None:
                raise DatasetError(
                    f"{sample.where} {session.key}[{t}]: a turn needs a dia_id (evidence names it)"
                )
            dia = turn.dia_id
            turn_ids.add(dia)
            if unit == "turns":
                doc = f"{user}/{dia}"
                # A session is a thread (recall scores a turn with its neighbours); turns
                # are one second apart so that the thread keeps the order they were said in.
                ds.corpus[doc] = {
                    "text": _turn_text(date, turn),
                    "user": user,
                    "thread": f"session_{n}",
                }
                start = dates[n]
                if start is not None:
                    ds.corpus[doc]["created_at"] = start + timedelta(seconds=t)
                ds.covers[doc] = {dia}
    if unit == "summaries":
        for key, text in evaluation.get("session_summary", {}).items():
            n = int(key.split("_")[1])
            doc = f"{user}/S{n}"
            ds.corpus[doc] = {"text": str(text), "user": user}
            if dates.get(n) is not None:
                ds.corpus[doc]["created_at"] = dates[n]
            ds.covers[doc] = {f"S{n}"}
    if unit == "observations":
        for key, by_speaker in evaluation.get("observation", {}).items():
            n = int(key.split("_")[1])
            i = 0
            for _speaker, facts in by_speaker.items():
                for fact in facts:
                    i += 1
                    doc = f"{user}/O{n}:{i}"
                    held = {x for x in _split_ids(fact[1]) if x in turn_ids}
                    problems["observations_without_valid_dia_id"] += not held
                    # The fact already names its speaker; the date anchors "last year".
                    ds.corpus[doc] = {"text": f"({date_of.get(n, '')}) {fact[0]}", "user": user}
                    if dates.get(n) is not None:
                        ds.corpus[doc]["created_at"] = dates[n]
                    ds.covers[doc] = held
    for i, qa in enumerate(evaluation["qa"]):
        cat = int(qa.get("category", 0))
        if cat not in SCORED_CATEGORIES:
            problems[f"skipped_category_{cat}"] += 1
            continue
        raw = qa.get("evidence") or []
        if not raw:
            problems["empty_evidence"] += 1
        ids = _split_ids(raw)
        problems["evidence_strings_with_several_ids"] += sum(
            1 for r in (raw if isinstance(raw, list) else [raw]) if len(_split_ids(r)) > 1
        )
        good = [x for x in ids if _DIA.match(x) and x in turn_ids]
        problems["malformed_evidence_ids"] += sum(1 for x in ids if not _DIA.match(x))
        problems["unknown_evidence_ids"] += sum(
            1 for x in ids if _DIA.match(x) and x not in turn_ids
        )
        if unit == "summaries":
            good = sorted({"S" + x[1:].split(":")[0] for x in good})  # session of each turn
        if not good:
            problems["skipped_no_valid_evidence"] += 1
            continue
        qid = f"{user}/q{i}"
        evidence = set(good)
        rel = {
            d: 1 for d, held in ds.covers.items() if held & evidence and d.startswith(user + "/")
        }
        # Kept and scored 0 rather than skipped: dropping them would flatter the unit.
        problems["questions_no_unit_covers"] += not rel
        ds.queries[qid] = str(qa["question"])
        ds.query_meta[qid] = {"user": user, "category": str(cat)}
        ds.evidence[qid] = evidence
        ds.qrels[qid] = rel
