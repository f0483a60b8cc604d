"""Validation at the edge: what callers pass to the facade, checked before anything runs.

Every function raises :class:`~recall.errors.InputError` with a message that says what to
pass instead; nothing has been written when it does.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from pydantic import ValidationError

from .errors import InputError
from .models import RecallRequest, Record, require_user_id, utcnow, validation_message
from .settings import Settings
from .text import count_tokens

__all__ = [
    "DEFAULT_KIND",
    "Depth",
    "Fusion",
    "depth_kinds",
    "fusion_params",
    "memory_request",
    "recall_request",
    "record_ids",
    "records",
]

Fusion = Literal["linear", "rrf"]
#: How deep a deep_recall searches: the recent tier, or the archive tier too.
Depth = Literal["recent", "archive"]
#: The kind of a record added by hand: the lifecycle never promotes or archives it.
DEFAULT_KIND = "note"
_RECORD_FIELDS = frozenset({"text", "kind", "id", "metadata", "created_at"})


def _record(user_id: str, item: Mapping[str, Any], settings: Settings) -> Record:
    text = item.get("text")
    if not isinstance(text, str):
        raise InputError(f"text must be a string, got {type(text).__name__}")
    limit = settings.storage.max_text_chars
    if len(text) > limit:
        raise InputError(
            f"text is {len(text)} characters, over max_text_chars={limit}; "
            "split it or summarize it first"
        )
    unknown = set(item) - _RECORD_FIELDS
    if unknown:
        raise InputError(f"unknown record fields {sorted(unknown)}")
    try:
        return Record(
            id=item.get("id") or uuid.uuid4().hex,
            user_id=user_id,
            kind=item.get("kind") or DEFAULT_KIND,
            text=text,
            created_at=item.get("created_at") or utcnow(),
            tokens=count_tokens(text, settings.text.encoding),
            metadata=dict(item.get("metadata") or {}),
        )
    except ValidationError as exc:
        raise InputError(validation_message(exc, "record")) from exc
    except (TypeError, ValueError) as exc:
        raise InputError(f"invalid record: {exc}") from exc


def records(
    items: Iterable[Mapping[str, Any]], user_id: object, settings: Settings
) -> list[Record]:
    """``add_many``'s items as records of one user: ids unique, metadata JSON-serializable."""
    uid = require_user_id(user_id)
    out = [_record(uid, item, settings) for item in items]
    for r in out:
        try:
            json.dumps(r.metadata)
        except (TypeError, ValueError) as exc:
            raise InputError(f"metadata of {r.id!r} is not JSON-serializable: {exc}") from exc
    if len({r.id for r in out}) != len(out):
        raise InputError("duplicate ids in one add_many call")
    return out


def record_ids(ids: str | Sequence[str]) -> list[str]:
    """``delete``'s ids: one id or a sequence of non-empty strings."""
    wanted = [ids] if isinstance(ids, str) else list(ids)
    if not all(isinstance(i, str) and i for i in wanted):
        raise InputError("ids must be non-empty strings")
    return wanted


def recall_request(
    query: object,
    user_id: object,
    top_k: object,
    kinds: Sequence[str] | None,
    settings: Settings,
    depth: object = None,
) -> RecallRequest:
    """A deep_recall request, defaults from ``settings.retrieval`` filled in: ``kinds``
    when given, else the tiers of ``depth`` (default ``recall_depth``)."""
    r = settings.retrieval
    if not isinstance(query, str):
        raise InputError(f"query must be a string, got {type(query).__name__}")
    if len(query) > r.max_query_chars:
        raise InputError(
            f"query is {len(query)} characters, over max_query_chars={r.max_query_chars}; "
            "shorten it to the question itself"
        )
    top_k = r.default_top_k if top_k is None else top_k
    if isinstance(top_k, bool) or not isinstance(top_k, int):
        raise InputError(f"top_k must be an integer, got {top_k!r}")
    if not 1 <= top_k <= r.max_top_k:
        raise InputError(f"top_k must be between 1 and {r.max_top_k}, got {top_k}")
    if kinds is None:
        kinds = depth_kinds(depth, settings)
    elif isinstance(kinds, str):
        kinds = (kinds,)
    if not kinds or not all(isinstance(k, str) for k in kinds):
        raise InputError("kinds must be a non-empty list of kind names")
    uid = require_user_id(user_id)
    try:
        return RecallRequest(query=query, user_id=uid, top_k=top_k, kinds=tuple(sorted(set(kinds))))
    except ValidationError as exc:
        raise InputError(validation_message(exc, "deep_recall request")) from exc


def depth_kinds(depth: object, settings: Settings) -> tuple[str, ...]:
    """The kinds a search of ``depth`` covers: "recent" the recent tier, "archive" both."""
    r = settings.retrieval
    depth = r.recall_depth if depth is None else depth
    if depth == "recent":
        return r.recall_kinds
    if depth == "archive":
        return (*r.recall_kinds, *r.archive_kinds)
    raise InputError(f"depth must be 'recent' or 'archive', got {depth!r}")


def fusion_params(alpha: object, fusion: object, settings: Settings) -> tuple[float, Fusion]:
    """This call's alpha and fusion method: the arguments, else the settings."""
    if alpha is None:
        alpha = settings.retrieval.alpha
    if not (isinstance(alpha, int | float) and 0.0 <= alpha <= 1.0):
        raise InputError(f"alpha must be a number in [0, 1], got {alpha!r}")
    fusion = fusion or settings.retrieval.fusion
    if fusion in {"linear", "rrf"}:
        return float(alpha), fusion
    raise InputError(f"fusion must be 'linear' or 'rrf', got {fusion!r}")


def memory_request(user_input: object, user_id: object, max_tokens: object) -> str:
    """``get_relevant_memories``' arguments checked; returns the validated user id."""
    if not isinstance(user_input, str) or not user_input.strip():
        raise InputError(
            "user_input must be a non-empty string: the user's current turn, which the "
            "short-term summaries are ranked against"
        )
    if max_tokens is not None and (not isinstance(max_tokens, int) or max_tokens < 0):
        raise InputError(f"max_tokens must be a non-negative int, got {max_tokens!r}")
    return require_user_id(user_id)
