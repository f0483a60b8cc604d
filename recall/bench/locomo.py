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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
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
    """Add one conversation's documents (at ``unit``), questions, qrels and evidence to ``ds``.

    The stages run in this order (sessions, then the unit's own documents, then questions)
    because questions are judged against every document already covering their evidence.
    """
    if sample.sample_id is None:
        raise DatasetError(f"{sample.where}: a sample needs a sample_id (it names the user)")
    user = sample.sample_id
    evaluation: dict[str, Any] = dict(sample.raw)  # qa, observation, session_summary
    assert ds.covers is not None and ds.evidence is not None
    sessions = _add_sessions(ds, ds.covers, sample, user, unit)
    docs: Iterable[_Doc] = ()
    if unit == "summaries":
        docs = _summary_docs(user, evaluation.get("session_summary", {}))
    if unit == "observations":
        docs = _observation_docs(user, evaluation.get("observation", {}), sessions, problems)
    _add_docs(ds, ds.covers, user, sessions, docs)
    _add_questions(ds, ds.covers, ds.evidence, user, evaluation["qa"], unit, sessions, problems)


@dataclass
class _Sessions:
    """What a sample's summaries, observations and questions need to know of its sessions."""

    turn_ids: set[str] = field(default_factory=set)
    dates: dict[int, datetime | None] = field(default_factory=dict)  # session -> its start
    date_of: dict[int, str] = field(default_factory=dict)  # session -> its date as written


def _add_sessions(
    ds: Dataset, covers: dict[str, set[str]], sample: LocomoSample, user: str, unit: Unit
) -> _Sessions:
    """Read the sample's sessions; at unit ``turns``, index each turn as a document."""
    sessions = _Sessions()
    for session in sample.sessions:
        n, date = session.number, session.date or ""
        sessions.dates[n] = session.start
        sessions.date_of[n] = date
        for t, turn in enumerate(session.turns):
            if turn.dia_id is None:
                raise DatasetError(
                    f"{sample.where} {session.key}[{t}]: a turn needs a dia_id (evidence names it)"
                )
            dia = turn.dia_id
            sessions.turn_ids.add(dia)
            if unit == "turns":
                doc = f"{user}/{dia}"
                ds.corpus[doc] = _turn_doc(user, n, date, sessions.dates[n], t, turn)
                covers[doc] = {dia}
    return sessions


def _turn_doc(
    user: str, n: int, date: str, start: datetime | None, t: int, turn: LocomoTurn
) -> dict[str, Any]:
    """The corpus entry of turn ``t`` of session ``n`` (which started at ``start``)."""
    # A session is a thread (recall scores a turn with its neighbours); turns
    # are one second apart so that the thread keeps the order they were said in.
    doc: dict[str, Any] = {
        "text": _turn_text(date, turn),
        "user": user,
        "thread": f"session_{n}",
    }
    if start is not None:
        doc["created_at"] = start + timedelta(seconds=t)
    return doc


def _session_number(key: str) -> int:
    """The session number in a per-session key (``session_3_summary`` -> 3)."""
    return int(key.split("_")[1])


def _dated(doc: dict[str, Any], when: datetime | None) -> dict[str, Any]:
    """``doc`` with ``created_at`` set to ``when``, when the session has a date."""
    if when is not None:
        doc["created_at"] = when
    return doc


#: A unit's own document: its id, its session's number, its text, the ids it covers.
_Doc = tuple[str, int, str, set[str]]


def _add_docs(
    ds: Dataset, covers: dict[str, set[str]], user: str, sessions: _Sessions, docs: Iterable[_Doc]
) -> None:
    """Add the unit's own documents, each dated by its session when the session has a date."""
    for doc, n, text, held in docs:
        ds.corpus[doc] = _dated({"text": text, "user": user}, sessions.dates.get(n))
        covers[doc] = held


def _summary_docs(user: str, summaries: dict[str, Any]) -> Iterator[_Doc]:
    """Unit ``summaries``: one document per session summary, covering its session."""
    for key, text in summaries.items():
        n = _session_number(key)
        yield f"{user}/S{n}", n, str(text), {f"S{n}"}


def _observation_docs(
    user: str, observations: dict[str, Any], sessions: _Sessions, problems: Counter[str]
) -> Iterator[_Doc]:
    """Unit ``observations``: one document per fact, covering the turns it names."""
    for key, by_speaker in observations.items():
        n = _session_number(key)
        i = 0
        for _speaker, facts in by_speaker.items():
            for fact in facts:
                i += 1
                held = {x for x in _split_ids(fact[1]) if x in sessions.turn_ids}
                problems["observations_without_valid_dia_id"] += not held
                # The fact already names its speaker; the date anchors "last year".
                yield f"{user}/O{n}:{i}", n, f"({sessions.date_of.get(n, '')}) {fact[0]}", held


def _add_questions(
    ds: Dataset,
    covers: dict[str, set[str]],
    evidence_of: dict[str, set[str]],
    user: str,
    qas: Iterable[Any],
    unit: Unit,
    sessions: _Sessions,
    problems: Counter[str],
) -> None:
    """Add the scored questions with valid evidence: query, meta, evidence and qrels."""
    for i, qa in enumerate(qas):
        cat = int(qa.get("category", 0))
        if cat not in SCORED_CATEGORIES:
            problems[f"skipped_category_{cat}"] += 1
            continue
        good = _valid_evidence(qa.get("evidence") or [], sessions.turn_ids, problems)
        if unit == "summaries":
            good = sorted({"S" + x[1:].split(":")[0] for x in good})  # session of each turn
        if not good:
            problems["skipped_no_valid_evidence"] += 1
            continue
        qid = f"{user}/q{i}"
        evidence = set(good)
        rel = {d: 1 for d, held in covers.items() if held & evidence and d.startswith(user + "/")}
        # Kept and scored 0 rather than skipped: dropping them would flatter the unit.
        problems["questions_no_unit_covers"] += not rel
        ds.queries[qid] = str(qa["question"])
        ds.query_meta[qid] = {"user": user, "category": str(cat)}
        evidence_of[qid] = evidence
        ds.qrels[qid] = rel


def _valid_evidence(raw: Any, turn_ids: set[str], problems: Counter[str]) -> list[str]:
    """The evidence ids of ``raw`` naming a turn of the conversation, in order; what is
    empty, packed several to a string, malformed or unknown is counted in ``problems``."""
    if not raw:
        problems["empty_evidence"] += 1
    ids = _split_ids(raw)
    problems["evidence_strings_with_several_ids"] += sum(
        1 for r in (raw if isinstance(raw, list) else [raw]) if len(_split_ids(r)) > 1
    )
    good = [x for x in ids if _DIA.match(x) and x in turn_ids]
    problems["malformed_evidence_ids"] += sum(1 for x in ids if not _DIA.match(x))
    problems["unknown_evidence_ids"] += sum(1 for x in ids if _DIA.match(x) and x not in turn_ids)
    return good
