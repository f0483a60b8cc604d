"""LoCoMo conversations (Maharana et al., 2024) read into samples, sessions and turns.

The one parser of the format: ``recall ingest`` makes each session an update_memory call
(:mod:`recall.lifecycle.ingest`), the retrieval benchmark indexes each turn
(:mod:`recall.bench.locomo`). A file is a JSON list of samples::

    {"sample_id": "conv-26",
     "conversation": {"speaker_a": "Caroline", "speaker_b": "Melanie",
                      "session_1_date_time": "1:56 pm on 8 May, 2023",
                      "session_1": [{"speaker": "Caroline", "dia_id": "D1:1", "text": "...",
                                     "blip_caption": "a photo of ..."}, ...], ...},
     "qa": [...], "observation": {...}, "session_summary": {...}, "event_summary": {...}}

Sessions come in session-number order, turns in file order, every turn kept as written
(text unstripped): each reader renders them its own way. The evaluation data (``qa``,
``observation``, ``session_summary``, ``event_summary``) is not read here; it stays in
:attr:`LocomoSample.raw` for the benchmark. Every problem is an
:class:`~recall.errors.InputError` naming the sample and the session.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeGuard

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import InputError
from ..models import validation_problems

__all__ = [
    "LocomoSample",
    "LocomoSession",
    "LocomoTurn",
    "is_locomo_sample",
    "parse_locomo_date",
    "parse_sample",
    "read_samples",
]

_SESSION = re.compile(r"^session_(\d+)$")
_DATE_FORMAT = "%I:%M %p on %d %B, %Y"  # LoCoMo writes "1:56 pm on 8 May, 2023"


class LocomoTurn(BaseModel):
    """One turn: who said it, what, its ``dia_id`` ("D1:3") and a shared photo's caption."""

    model_config = ConfigDict(frozen=True)

    speaker: str = Field(min_length=1)
    text: str
    dia_id: str | None = None
    caption: str | None = Field(default=None, alias="blip_caption")


@dataclass(frozen=True)
class LocomoSession:
    """``session_N`` of a conversation: its number, its date as written, its turns."""

    number: int
    key: str
    date: str | None
    turns: tuple[LocomoTurn, ...]

    @property
    def start(self) -> datetime | None:
        """The session's date as an aware (UTC) datetime; None when it does not parse."""
        return parse_locomo_date(self.date)


@dataclass(frozen=True)
class LocomoSample:
    """One conversation: its id, the two speakers, its sessions, and the sample as read."""

    sample_id: str | None
    where: str
    speakers: tuple[str, ...]
    sessions: tuple[LocomoSession, ...]
    raw: Mapping[str, Any]

    def turns(self) -> list[tuple[LocomoSession, LocomoTurn]]:
        """Every turn with its session, in conversation order."""
        return [(s, t) for s in self.sessions for t in s.turns]


def parse_locomo_date(value: str | None) -> datetime | None:
    """LoCoMo's ``session_N_date_time`` ("1:56 pm on 8 May, 2023") as a UTC datetime."""
    if value is None:
        return None
    try:
        return datetime.strptime(value.strip(), _DATE_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        return None


def is_locomo_sample(value: object) -> TypeGuard[Mapping[str, Any]]:
    """Whether ``value`` has the shape of a LoCoMo sample (an object with 'conversation')."""
    return isinstance(value, Mapping) and "conversation" in value


def _session(conv: Mapping[str, Any], n: int, key: str, where: str) -> LocomoSession:
    here = f"{where} {key}"
    raw = conv[key]
    if not isinstance(raw, list):
        raise InputError(f"{here}: must be a list of turns {{speaker, dia_id, text}}")
    turns = []
    for j, item in enumerate(raw):
        try:
            turns.append(LocomoTurn.model_validate(item))
        except ValidationError as exc:
            raise InputError(f"{here}[{j}]: not a LoCoMo turn: {validation_problems(exc)}") from exc
    date = conv.get(f"{key}_date_time")
    return LocomoSession(n, key, date if isinstance(date, str) else None, tuple(turns))


def parse_sample(value: object, where: str) -> LocomoSample:
    """Check one sample and read its sessions; ``where`` names it in errors ("x.json[0]")."""
    if not isinstance(value, Mapping):
        raise InputError(f"{where}: a LoCoMo sample must be an object with 'conversation'")
    raw_id = value.get("sample_id")
    if isinstance(raw_id, str):
        where = f"{where} ({raw_id})"
    conv = value.get("conversation")
    if not isinstance(conv, Mapping):
        raise InputError(f"{where}: 'conversation' must be an object with session_N lists")
    keys = sorted(
        (int(m.group(1)), str(key)) for key in conv if (m := _SESSION.match(str(key))) is not None
    )
    if not keys:
        raise InputError(f"{where}: the conversation has no session_1, session_2, ... lists")
    speakers = tuple(
        s for s in (conv.get("speaker_a"), conv.get("speaker_b")) if isinstance(s, str) and s
    )
    return LocomoSample(
        sample_id=None if raw_id is None else str(raw_id),
        where=where,
        speakers=speakers,
        sessions=tuple(_session(conv, n, key, where) for n, key in keys),
        raw=value,
    )


def read_samples(path: str | Path) -> list[LocomoSample]:
    """Every sample of a LoCoMo JSON file (``locomo10.json`` or a subset), checked."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read LoCoMo file {path}: {exc}") from exc
    if not isinstance(data, list):
        raise InputError(f"{path}: expected a JSON list of LoCoMo samples")
    return [parse_sample(sample, f"{path}[{i}]") for i, sample in enumerate(data)]
