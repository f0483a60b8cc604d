"""Validation at the edge: what callers pass to the facade, checked before anything runs.

Every function raises :class:`~recall.errors.InputError` with a message that says what to
pass instead; nothing has been written when it does.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from .errors import InputError
from .models import (
    RecallRequest,
    Record,
    require_text,
    require_user_id,
    shown,
    utcnow,
    validate_kind,
    validation_message,
)
from .settings import Settings
from .text import count_tokens, parse_bound, resolve_time
from .text.asking import asking_part
from .text.time_only import names_only_time

__all__ = [
    "DEFAULT_KIND",
    "Depth",
    "Fusion",
    "depth_kinds",
    "fusion_params",
    "memory_request",
    "open_settings",
    "recall_request",
    "record_ids",
    "record_kinds",
    "records",
    "request_bounds",
    "time_window",
    "window_bounds",
]

Fusion = Literal["linear", "rrf"]
#: How deep a deep_recall searches: the recent tier, or the archive tier too.
Depth = Literal["recent", "archive"]
#: The kind of a record added by hand: the lifecycle never promotes or archives it.
DEFAULT_KIND = "note"
_RECORD_FIELDS = frozenset({"text", "kind", "id", "metadata", "created_at"})
#: Most kinds one listing may name (far more than recall's own; each is a bound parameter).
MAX_KINDS = 64


def _record(user_id: str, item: object, settings: Settings) -> Record:
    if not isinstance(item, Mapping):
        raise InputError(
            f"each record must be a dict such as {{'text': '...'}}, got {type(item).__name__}"
        )
    text = require_text(item.get("text"), "text")
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
    """``add_many``'s items as records of one user: ids unique, metadata strict JSON within
    :data:`~recall.models.MAX_METADATA_DEPTH` and :data:`~recall.models.MAX_METADATA_BYTES`."""
    uid = require_user_id(user_id)
    if isinstance(items, str | bytes | Mapping) or not isinstance(items, Iterable):
        raise InputError(
            "add_many takes a list of dicts such as [{'text': '...'}], got "
            f"{type(items).__name__}; use add() for one text"
        )
    # Each record's metadata is checked by Record itself (models.JsonObject): strict JSON
    # within MAX_METADATA_DEPTH and MAX_METADATA_BYTES.
    out = [_record(uid, item, settings) for item in items]
    if len({r.id for r in out}) != len(out):
        raise InputError("duplicate ids in one add_many call")
    return out


def record_ids(ids: object) -> list[str]:
    """``delete``'s ids: one id or a list (or tuple, set) of non-empty strings."""
    if isinstance(ids, str):
        wanted: list[object] = [ids]
    elif isinstance(ids, list | tuple | set | frozenset):
        wanted = list(ids)
    else:
        raise InputError(f"ids must be an id or a list of ids, got {type(ids).__name__}")
    if not all(isinstance(i, str) and i for i in wanted):
        raise InputError("ids must be non-empty strings")
    return [require_text(i, "id") for i in wanted]


def record_kinds(kinds: Sequence[object]) -> list[str]:
    """A listing's kind filter: each a kind name, at most :data:`MAX_KINDS` distinct."""
    wanted = list(dict.fromkeys(kinds))
    if len(wanted) > MAX_KINDS:
        raise InputError(f"name at most {MAX_KINDS} kinds, got {len(wanted)}")
    for kind in wanted:
        if not isinstance(kind, str):
            raise InputError(f"a kind must be a string, got {type(kind).__name__}")
        try:
            validate_kind(kind)
        except ValueError as exc:
            raise InputError(str(exc)) from None
    return [str(k) for k in wanted]


def recall_request(
    query: object,
    user_id: object,
    top_k: object,
    kinds: Sequence[str] | None,
    settings: Settings,
    depth: object = None,
    *,
    since: object = None,
    until: object = None,
    now: object = None,
) -> RecallRequest:
    """A deep_recall request, defaults from ``settings.retrieval`` filled in: ``kinds``
    when given, else the tiers of ``depth`` (default ``recall_depth``); the time windows
    of :func:`time_window`; the bounds of :func:`request_bounds`."""
    query, top_k = request_bounds(query, top_k, settings)
    if kinds is None:
        kinds = depth_kinds(depth, settings)
    elif isinstance(kinds, str):
        kinds = (kinds,)
    elif not isinstance(kinds, list | tuple | set | frozenset):
        raise InputError(f"kinds must be a list of kind names, got {type(kinds).__name__}")
    if not kinds or not all(isinstance(k, str) for k in kinds):
        raise InputError("kinds must be a non-empty list of kind names")
    uid = require_user_id(user_id)
    try:
        start, end, prior = time_window(query, since, until, now, settings)
        return RecallRequest(
            loose=(since, until) == (None, None) and start is not None,
            query=query,
            user_id=uid,
            top_k=top_k,
            kinds=tuple(sorted(set(kinds))),
            since=start,
            until=end,
            prior=prior,
        )
    except ValidationError as exc:
        raise InputError(validation_message(exc, "deep_recall request")) from exc


def request_bounds(query: object, top_k: object, settings: Settings) -> tuple[str, int]:
    """The one place a request's bounds are checked: ``query`` text within
    ``retrieval.max_query_chars``, ``top_k`` (None: ``default_top_k``) from 1 to
    ``max_top_k``. Returns both, checked."""
    r = settings.retrieval
    text = require_text(query, "query")
    if len(text) > r.max_query_chars:
        raise InputError(
            f"query is {len(text)} characters, over max_query_chars={r.max_query_chars}; "
            "shorten it to the question itself"
        )
    top_k = r.default_top_k if top_k is None else top_k
    if isinstance(top_k, bool) or not isinstance(top_k, int):
        raise InputError(f"top_k must be an integer, got {shown(top_k)}")
    if not 1 <= top_k <= r.max_top_k:
        raise InputError(f"top_k must be between 1 and {r.max_top_k}, got {shown(top_k)}")
    return text, top_k


def window_bounds(since: object, until: object) -> tuple[datetime | None, datetime | None]:
    """``since`` (inclusive) and ``until`` (exclusive; a bare date keeps its whole day) as
    datetimes, None where not given; ``InputError`` unless each parses and since < until."""
    try:
        start = None if since is None else parse_bound(since, "since")
        end = None if until is None else parse_bound(until, "until", end=True)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    if start is not None and end is not None and start >= end:
        raise InputError(f"since ({start.isoformat()}) must be before until ({end.isoformat()})")
    return start, end


def time_window(
    query: str, since: object, until: object, now: object, settings: Settings
) -> tuple[datetime | None, datetime | None, tuple[datetime, datetime] | None]:
    """The hard window (``since`` inclusive, ``until`` exclusive: a bare date ``until``
    covers its whole day) and the soft one the query names itself, read against ``now``
    (default: the current time) unless ``retrieval.relative_time`` is off. Of a query of
    several sentences, only those that ask are read for time words (:mod:`recall.text.asking`:
    "今天天气真好。……那个人的爱好是什么？" names no time)."""
    start, end = window_bounds(since, until)
    try:
        at = utcnow() if now is None else parse_bound(now, "now")
    except ValueError as exc:
        raise InputError(str(exc)) from None
    found = resolve_time(asking_part(query), at) if settings.retrieval.relative_time else None
    if found is None:
        return start, end, None
    # A topic anywhere in the query ("I'm training for a marathon. What did we say last
    # week?") keeps the window soft; only a query with nothing but a time makes it hard.
    if names_only_time(query, found):
        # "What did we talk about last week?": the time is the whole question.
        lo = found.start if start is None else max(start, found.start)
        hi = found.end if end is None else min(end, found.end)
        if lo < hi:
            return lo, hi, None
    return start, end, (found.start, found.end)


def depth_kinds(depth: object, settings: Settings) -> tuple[str, ...]:
    """The kinds a search of ``depth`` covers: "recent" the recent tier, "archive" both."""
    r = settings.retrieval
    depth = r.recall_depth if depth is None else depth
    if depth == "recent":
        return r.recall_kinds
    if depth == "archive":
        return (*r.recall_kinds, *r.archive_kinds)
    raise InputError(f"depth must be 'recent' or 'archive', got {shown(depth)}")


def fusion_params(alpha: object, fusion: object, settings: Settings) -> tuple[float, Fusion]:
    """This call's alpha and fusion method: the arguments, else the settings."""
    if alpha is None:
        alpha = settings.retrieval.alpha
    if isinstance(alpha, bool) or not (isinstance(alpha, int | float) and 0.0 <= alpha <= 1.0):
        raise InputError(f"alpha must be a number in [0, 1], got {shown(alpha)}")
    fusion = fusion or settings.retrieval.fusion
    if isinstance(fusion, str) and fusion in ("linear", "rrf"):
        return float(alpha), fusion  # type: ignore[return-value]
    raise InputError(f"fusion must be 'linear' or 'rrf', got {shown(fusion)}")


def memory_request(user_input: object, user_id: object, max_tokens: object) -> str:
    """``get_relevant_memories``' arguments checked; returns the validated user id."""
    if not isinstance(user_input, str) or not user_input.strip():
        raise InputError(
            "user_input must be a non-empty string: the user's current turn, which the "
            "short-term summaries are ranked against"
        )
    require_text(user_input, "user_input")
    if max_tokens is not None and (
        isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 0
    ):
        raise InputError(f"max_tokens must be a non-negative int, got {shown(max_tokens)}")
    return require_user_id(user_id)


def open_settings(path: object, settings: object, **updates: Any) -> Settings:
    """``recall.open``'s arguments as one validated :class:`Settings`.

    ``updates`` are flat setting names (``chroma_url=...``); None leaves a setting as is.
    """
    if settings is not None and not isinstance(settings, Settings):
        raise InputError(
            f"settings must be a recall.Settings, got {type(settings).__name__}; build one "
            "with Settings(...) or Settings().replace(name=value)"
        )
    changes = {k: v for k, v in updates.items() if v is not None}
    if path is not None:
        if not isinstance(path, str | os.PathLike):
            raise InputError(f"path must be a folder path, got {type(path).__name__}")
        text = os.fspath(path)
        if not isinstance(text, str) or not text.strip():
            raise InputError(
                "path must name a folder such as './memory' (an empty path would put the "
                "store in the current directory)"
            )
        changes["path"] = Path(require_text(text, "path"))
    base = settings or Settings()
    return base.replace(**changes) if changes else base
