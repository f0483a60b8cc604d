"""Pydantic models for what goes in (records, requests) and what comes out (hits)."""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator

from .errors import InputError

__all__ = [
    "Hit",
    "JsonObject",
    "MAX_METADATA_BYTES",
    "MAX_METADATA_DEPTH",
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

log = logging.getLogger(__name__)

_KIND = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
_MAX_USER_ID = 256

#: Deepest nesting of lists and dicts accepted in a record's metadata (and in a chat
#: message handed to update_memory): ``{"a": {"b": [1]}}`` is 3 deep. Metadata is for
#: labels (a thread, a source, a page); deep trees are a document and belong in the text.
#: The bound keeps every reader (json, pydantic's serializer, an MCP client) far from its
#: recursion limit, which a few hundred levels reach.
MAX_METADATA_DEPTH = 8
#: Largest metadata accepted, as compact UTF-8 JSON. It travels with every hit and every
#: listed record, so it is kept well under a record's text.
MAX_METADATA_BYTES = 64 * 1024
#: What a record read back shows in place of stored metadata over the limits (written by
#: an older recall or directly into the store): the record still reads, its text intact.
_DROPPED = "_recall_dropped"


def check_depth(value: object, name: str, limit: int = MAX_METADATA_DEPTH) -> None:
    """Raise ``ValueError`` naming ``name`` when lists and dicts in ``value`` nest deeper
    than ``limit``.

    Iterative, so a structure nested far beyond the interpreter's recursion limit is
    measured, not crashed on.
    """
    if _depth_over(value, limit):
        raise ValueError(f"{name} is nested more than {limit} levels deep; flatten it")


def _depth_over(value: object, limit: int) -> bool:
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list | tuple):
            children = node
        else:
            continue
        if depth + 1 > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def check_json(value: object, name: str) -> None:
    """Raise ``ValueError`` naming ``name`` unless ``value`` is strict JSON within the
    metadata limits (:data:`MAX_METADATA_DEPTH`, :data:`MAX_METADATA_BYTES`).

    Strict: NaN and Infinity are not JSON and a lone surrogate is not UTF-8; either would
    be stored now and fail when read back.
    """
    try:
        check_depth(value, name)
    except ValueError as exc:
        raise ValueError(f"{exc} (metadata is for labels; put documents in the text)") from None
    try:
        size = len(json.dumps(value, allow_nan=False, ensure_ascii=False).encode("utf-8"))
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"{name} is not strict JSON ({exc}); pass str, int, finite float, bool, None, "
            "lists and dicts of them"
        ) from None
    if size > MAX_METADATA_BYTES:
        raise ValueError(
            f"{name} is {size} bytes as JSON, over the {MAX_METADATA_BYTES}-byte limit; "
            "keep labels there and put long content in the text"
        )


def _metadata(value: dict[str, Any]) -> dict[str, Any]:
    check_json(value, "metadata")
    return value


#: A JSON object within the metadata limits (the pydantic type of record metadata).
JsonObject = Annotated[dict[str, Any], AfterValidator(_metadata)]


def stored_metadata(raw: str, record_id: str) -> dict[str, Any]:
    """Metadata as stored (JSON text) for reading back; never raises.

    Metadata a write would refuse now (nested past :data:`MAX_METADATA_DEPTH`, not a JSON
    object) is replaced by ``{"_recall_dropped": reason}`` with a logged warning, so one
    record can never break a recall or a listing. The stored row is left as it is.
    """
    try:
        value = json.loads(raw)
    except RecursionError:
        value, reason = None, "nested too deep"
    except ValueError:
        value, reason = None, "not JSON"
    else:
        # No more brackets than the limit cannot nest past it: the common case skips the walk.
        shallow = raw.count("{") + raw.count("[") <= MAX_METADATA_DEPTH
        if not isinstance(value, dict):
            reason = "not a JSON object"
        elif shallow or not _depth_over(value, MAX_METADATA_DEPTH):
            return value
        else:
            reason = "nested too deep"
    log.warning(
        "recall: record %r has stored metadata %s (the limit is %d levels); it reads as "
        "{%r: ...}. Rewrite the record with flat metadata.",
        record_id,
        reason,
        MAX_METADATA_DEPTH,
        _DROPPED,
    )
    return {_DROPPED: f"stored metadata {reason}; rewrite the record"}


def shown(value: object, limit: int = 80) -> str:
    """``repr(value)`` for an error message: cut to ``limit`` characters, and never raising
    (an int past Python's digit limit or a list nested past the recursion limit would)."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return f"a {type(value).__name__} too large to show"
    return text if len(text) <= limit else text[: limit - 3] + "..."


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
    """A datetime in UTC; naive datetimes are taken to be UTC already."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Record(BaseModel):
    """One memory record as the store keeps it."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(max_length=256)
    user_id: str
    kind: str
    text: str
    created_at: datetime
    tokens: int = Field(ge=0)
    metadata: JsonObject = Field(default_factory=dict)

    @field_validator("user_id")
    @classmethod
    def _user(cls, v: str) -> str:
        return validate_user_id(v)

    @field_validator("kind")
    @classmethod
    def _kind(cls, v: str) -> str:
        return validate_kind(v)

    @field_validator("text", "id")
    @classmethod
    def _text(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("must not be empty or whitespace")
        return check_text(v, "text")

    @field_validator("created_at")
    @classmethod
    def _utc(cls, v: datetime) -> datetime:
        return as_utc(v)


class RecallRequest(BaseModel):
    """A validated deep_recall query."""

    model_config = ConfigDict(frozen=True)

    query: str
    user_id: str
    top_k: int
    kinds: tuple[str, ...]

    @field_validator("query")
    @classmethod
    def _query(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("query must not be empty or whitespace")
        return check_text(v, "query")

    @field_validator("user_id")
    @classmethod
    def _user(cls, v: str) -> str:
        return validate_user_id(v)

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
    in a thread, a leg's raw score includes its neighbours' shares (recall.index.threads),
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

    def source(self) -> str:
        """A one-line provenance label: kind and date."""
        return f"{self.kind} · {self.created_at:%Y-%m-%d}"
