"""Pydantic models for what goes in (records, requests) and what comes out (hits).

The metadata limits (:data:`JsonObject`, :func:`check_json`, :func:`stored_metadata`, ...)
live in :mod:`recall.jsonlimits` and are re-exported here.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator

from .errors import InputError
from .jsonlimits import (
    MAX_METADATA_BYTES,
    MAX_METADATA_DEPTH,
    JsonObject,
    check_depth,
    check_json,
    shown,
    stored_metadata,
)

__all__ = [
    "Fact",
    "Hit",
    "JsonObject",
    "MAX_METADATA_BYTES",
    "MAX_METADATA_DEPTH",
    "Profile",
    "RecallRequest",
    "Record",
    "as_utc",
    "check_depth",
    "check_json",
    "check_text",
    "require_text",
    "require_user_id",
    "shown",
    "stored_metadata",
    "utcnow",
    "validate_kind",
    "validate_user_id",
    "validation_message",
    "validation_problems",
]

_KIND = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
_MAX_USER_ID = 256


def check_text(value: str, name: str) -> str:
    """``value`` if it can be stored and tokenized, else ``ValueError`` naming ``name``.

    A NUL byte truncates text in C libraries, and a lone surrogate (what decoding bytes
    with ``errors="surrogateescape"`` leaves behind) is not Unicode text: SQLite, the
    tokenizers and JSON all fail on it in their own ways.
    """
    if "\x00" in value:
        raise ValueError(f"{name} contains a NUL byte; strip it before passing the text")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(
            f"{name} is not valid UTF-8 text: a lone surrogate ({value[exc.start]!r}) at "
            f"position {exc.start}; decode the input with errors='replace'"
        ) from None
    return value


def require_text(value: object, name: str) -> str:
    """``value`` if it is a storable string, else :class:`InputError` naming ``name``."""
    if not isinstance(value, str):
        raise InputError(f"{name} must be a string, got {type(value).__name__}")
    try:
        return check_text(value, name)
    except ValueError as exc:
        raise InputError(str(exc)) from None


def validate_kind(v: str) -> str:
    """``v`` if it is a kind name (a short lower-case identifier), else ``ValueError``."""
    if not _KIND.match(v):
        raise ValueError(
            f"kind {v!r} must be a short identifier: lower-case letters, digits and _, "
            "starting with a letter, at most 32 characters"
        )
    return v


def validate_user_id(user_id: object) -> str:
    """Return ``user_id`` if it is a usable user id, else raise ``ValueError``."""
    if not isinstance(user_id, str):
        raise ValueError(f"user_id must be a string, got {type(user_id).__name__}")
    if not user_id.strip():
        raise ValueError("user_id must be a non-empty string")
    if len(user_id) > _MAX_USER_ID:
        raise ValueError(f"user_id is longer than {_MAX_USER_ID} characters")
    return check_text(user_id, "user_id")


def require_user_id(user_id: object) -> str:
    """``user_id`` if usable, else :class:`InputError` telling the caller what to pass."""
    try:
        return validate_user_id(user_id)
    except ValueError as exc:
        raise InputError(f"{exc}; pass user_id='...' naming whose memory this is") from exc


def validation_problems(exc: ValidationError, whole: str = "") -> str:
    """A pydantic error as one line, ``field: problem; field: problem``.

    A problem with the value as a whole (no field) is named ``whole``, or stands alone.
    """
    parts = []
    for err in exc.errors():
        loc = ".".join(str(x) for x in err["loc"]) or whole
        parts.append(f"{loc}: {err['msg']}" if loc else err["msg"])
    return "; ".join(parts)


def validation_message(exc: ValidationError, what: str) -> str:
    """``invalid WHAT: field: problem; ...``: the one way recall words a pydantic error."""
    return f"invalid {what}: " + validation_problems(exc, what)


def utcnow() -> datetime:
    """Now, timezone-aware, in UTC."""
    return datetime.now(UTC)


def as_utc(value: datetime) -> datetime:
    """A datetime in UTC; naive datetimes are taken to be UTC already. ``ValueError`` when
    the UTC time falls outside the years 1 to 9999 (``0001-01-01T00:00+14:00``)."""
    try:
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    except OverflowError as exc:  # pydantic reports ValueError; OverflowError would be a 500
        raise ValueError(f"{value.isoformat()} is outside the years 1 to 9999 in UTC") from exc


def _some_text(value: str, name: str, blank: str) -> str:
    """``value`` if :func:`check_text` passes it and it is more than white space (else
    ValueError ``blank``)."""
    if not value.strip():
        raise ValueError(blank)
    return check_text(value, name)


#: A user id field: :func:`validate_user_id` checks it.
_UserId = Annotated[str, AfterValidator(validate_user_id)]


class Record(BaseModel):
    """One memory record as the store keeps it."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(max_length=256)
    user_id: _UserId
    kind: str
    text: str
    created_at: datetime
    tokens: int = Field(ge=0)
    metadata: JsonObject = Field(default_factory=dict)

    @field_validator("kind")
    @classmethod
    def _kind(cls, v: str) -> str:
        return validate_kind(v)

    @field_validator("text", "id")
    @classmethod
    def _text(cls, v: str) -> str:
        return _some_text(v, "text", "must not be empty or whitespace")

    @field_validator("created_at")
    @classmethod
    def _utc(cls, v: datetime) -> datetime:
        return as_utc(v)


class RecallRequest(BaseModel):
    """A checked deep_recall query: ``Memory.build_request`` builds it, ``deep_recall`` runs it."""

    model_config = ConfigDict(frozen=True)

    query: str
    user_id: _UserId
    top_k: int
    kinds: tuple[str, ...]
    #: A hard window on ``created_at`` (when the content was said): ``since`` inclusive,
    #: ``until`` exclusive; records outside are never returned.
    since: datetime | None = None
    until: datetime | None = None
    #: A soft window (the query's own "last week", recall.text.when): records inside it are
    #: candidates and rank ahead by ``retrieval.time_prior_boost``; the rest still count.
    prior: tuple[datetime, datetime] | None = None
    loose: bool = False  # since/until read from a time-only query: may widen (window.widened)

    @field_validator("query")
    @classmethod
    def _query(cls, v: str) -> str:
        return _some_text(v, "query", "query must not be empty or whitespace")

    @field_validator("kinds")
    @classmethod
    def _kinds(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        for kind in v:
            validate_kind(kind)
        return v


class Hit(BaseModel):
    """One deep_recall result, with everything needed to see why it ranks where it does.

    ``score`` is the fused score in [0, 1]. Each leg's raw score (BM25 score; the vector
    similarity of the spec's embedder) and its per-query normalized value are both given,
    with the 1-based rank of the hit inside that leg over all fused candidates. For a record
    in a thread, a leg's raw score includes its neighbours' shares (recall.index.neighbours),
    so it can exceed a cosine's 1.
    """

    model_config = ConfigDict(frozen=True)

    id: str
    text: str
    kind: str
    created_at: datetime
    score: float
    keyword_score: float
    keyword_norm: float
    keyword_rank: int
    vector_score: float | None
    vector_norm: float
    vector_rank: int | None
    metadata: dict[str, Any] = Field(default_factory=dict)
    degraded: bool = Field(
        False, description="True when the vector leg was down and only keywords ranked this."
    )
    current: bool = Field(False, description="The user's statement of the value asked for.")
    reason: Literal["current", "newest", "time_window"] | None = Field(
        None,
        description="Why this hit stands above one with a higher score: the user's current "
        "statement of what is asked, said after the statements it moved above, or inside the "
        "question's time window; None: in score order.",
    )

    def source(self) -> str:
        """A one-line provenance label: kind and date."""
        return f"{self.kind} · {self.created_at:%Y-%m-%d}"


class Fact(BaseModel):
    """One value of one attribute of the user, as recall read it from their own words.

    ``value`` is the word that marks it (a name, or a word the user rarely says), ``words``
    every word that does; ``statement`` the newest sentence the user said of it. ``since`` is
    when it was introduced, ``last_said`` when it was last mentioned; ``superseded_by``
    names the value that replaced it (None: it holds now). ``record_ids`` are the records
    that state it, oldest first. ``read_by``: ``words`` (recall's offline reading of the
    user's sentences) or ``model`` (a configured LLM's, :mod:`recall.lifecycle.extract`)."""

    model_config = ConfigDict(frozen=True)

    attribute: str
    value: str
    words: list[str] = Field(default_factory=list)
    statement: str
    since: datetime
    last_said: datetime
    record_ids: list[str]
    superseded_by: str | None = None
    read_by: Literal["words", "model"] = "words"

    @property
    def current(self) -> bool:
        """True when nothing replaced it."""
        return self.superseded_by is None


class Profile(BaseModel):
    """What recall knows of one user, attribute by attribute, with each one's history.

    ``facts`` maps an attribute (``home``, ``employer``, ``gym``...) to its values oldest
    first: the last one holds now (:meth:`now`)."""

    model_config = ConfigDict(frozen=True)

    user_id: str
    facts: dict[str, list[Fact]]

    def now(self) -> dict[str, Fact]:
        """Each attribute's current value."""
        return {a: vs[-1] for a, vs in self.facts.items() if vs}

    def history(self, attribute: str) -> list[Fact]:
        """The values ``attribute`` held, oldest first ([] when never stated)."""
        return list(self.facts.get(attribute, []))
