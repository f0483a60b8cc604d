"""Limits on the JSON that records carry as metadata: how deep, how large, how strict.

Owns the metadata bounds (:data:`MAX_METADATA_DEPTH`, :data:`MAX_METADATA_BYTES`), the
checks a write runs against them (:func:`check_depth`, :func:`check_json`, the pydantic
type :data:`JsonObject`), the lenient reading of what is already stored
(:func:`stored_metadata`), and :func:`shown`, a value cut short for an error message.
:mod:`recall.models` re-exports every name here.
"""

from __future__ import annotations

import json
import logging
from typing import Annotated, Any

from pydantic import AfterValidator

__all__ = [
    "JsonObject",
    "MAX_METADATA_BYTES",
    "MAX_METADATA_DEPTH",
    "check_depth",
    "check_json",
    "shown",
    "stored_metadata",
]

log = logging.getLogger(__name__)

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
        name = type(value).__name__
        return f"{'an' if name[0] in 'aeiou' else 'a'} {name} too large to show"
    return text if len(text) <= limit else text[: limit - 3] + "..."
