"""Reading a file for ``recall ingest``: its top-level JSON values, and chat messages checked.

``.jsonl``/``.ndjson`` files, and JSON files holding several values, are read one value per
line; any other file is one JSON value (a list is read entry by entry). Each value comes
with its location in the file ("chat.jsonl line 3", "chat.json[2]"), which every later
error names. Foreign exceptions are mapped here, by type, to
:class:`~recall.errors.InputError`: ``OSError`` (unreadable), ``UnicodeDecodeError`` (not
UTF-8), ``json.JSONDecodeError`` (not JSON), pydantic's ``ValidationError`` (not a chat
message).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from ..errors import InputError
from ..jsonlimits import shown
from ..models import validation_problems
from .states import ROLES

__all__ = ["check_message", "conversation", "read_values"]

_JSONL_SUFFIXES = (".jsonl", ".ndjson")
_JSON_SPACE = " \t\n\r"  # white space as JSON defines it (str.strip() takes more)


class _Message(BaseModel):
    """The shape of an OpenAI chat message; update_memory checks the content in depth."""

    model_config = ConfigDict(extra="allow")

    role: str
    content: str | list[dict[str, Any]] | None = None
    name: str | None = None
    tool_calls: list[dict[str, Any]] | None = None
    tool_call_id: str | None = None

    @field_validator("role")
    @classmethod
    def _role(cls, v: str) -> str:
        if v not in ROLES:
            raise ValueError(f"unknown role {shown(v)}; use one of {sorted(ROLES)}")
        return v


def _read(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"{path} line {line}: not UTF-8 ({exc.reason}); save it as UTF-8") from exc


def _jsonl(text: str, name: str) -> list[tuple[str, object]]:
    values: list[tuple[str, object]] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            values.append((f"{name} line {n}", json.loads(line)))
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{name} line {n}: not valid JSON ({exc.msg} at column {exc.colno}); "
                "JSONL needs one JSON value per line"
            ) from exc
    return values


def _values(path: Path, text: str) -> list[tuple[str, object]]:
    name = path.name
    if path.suffix.lower() in _JSONL_SUFFIXES:
        return _jsonl(text, name)
    # Decode the first value, then look at what follows it: more than white space means
    # several JSON values, read as JSONL. This reads the structure, not an error's wording.
    start = len(text) - len(text.lstrip(_JSON_SPACE))
    try:
        data, end = json.JSONDecoder().raw_decode(text, start)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{name} line {exc.lineno} column {exc.colno}: not valid JSON ({exc.msg})"
        ) from exc
    if text[end:].strip(_JSON_SPACE):
        return _jsonl(text, name)
    if isinstance(data, list):
        return [(f"{name}[{i}]", v) for i, v in enumerate(data)]
    return [(name, data)]


def read_values(path: Path) -> list[tuple[str, object]]:
    """``(location, value)`` of every top-level entry of the file at ``path``."""
    return _values(path, _read(path))


def check_message(value: object, where: str) -> dict[str, Any]:
    """``value`` as a chat message dict, if it has an OpenAI chat message's shape."""
    if not isinstance(value, Mapping):
        raise InputError(f"{where}: a chat message must be an object with 'role' and 'content'")
    try:
        _Message.model_validate(value)
    except ValidationError as exc:
        raise InputError(
            f"{where}: not an OpenAI chat message: {validation_problems(exc)}"
        ) from exc
    return dict(value)


def conversation(value: object, where: str) -> list[tuple[str, dict[str, Any]]]:
    """The ``(location, message)`` pairs of a conversation (a non-empty list of messages)."""
    if not isinstance(value, list) or not value:
        raise InputError(f"{where}: 'messages' must be a non-empty list of chat messages")
    return [(f"{where}[{j}]", check_message(m, f"{where}[{j}]")) for j, m in enumerate(value)]
