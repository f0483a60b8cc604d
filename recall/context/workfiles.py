"""The files a session's tool calls read, wrote or edited, and what each holds now.

The history keeps a call's input cut at 500 characters and its result at 1,000, so after a
compaction neither the path of a long write nor the text of a long read can be read back
from it. This records them as the calls are added, from the full input and result: each
call's path (any of the usual argument names), and each file's content as far as the
conversation shows it: a read's result, a write's text, an edit (old → new) applied to what
was known; and the whole input of a call that wrote something else (a plan, a todo list).
After a compaction the files come back with that content
(:mod:`recall.context.restore`), or with what the host's ``read_file`` returns (the file as
it is on disk now), which is the truth when the host has it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["FileReader", "WorkFiles", "disk_reader", "operation_of", "path_of"]

#: The host's view of a file now: its text, or None when it cannot say.
FileReader = Callable[[str], "str | None"]

_FILE_KEYS = ("path", "file", "file_path", "filepath", "filename", "target", "document")
_TEXT_KEYS = ("content", "file_text", "text", "contents", "data", "body")
_EDIT_KEYS = (("old_string", "new_string"), ("old_str", "new_str"), ("old", "new"))
_WRITE = frozenset({"write", "create", "save", "put", "upload", "insert", "new"})
_EDIT = frozenset({"edit", "update", "patch", "replace", "append", "modify", "rename", "move"})


def operation_of(tool: str) -> str:
    """``write``, ``edit`` or ``read``, from the words of a tool's name (``str_replace``,
    ``writeFile``, ``create_file``)."""
    parts = set(re.split(r"[^a-z]+", re.sub(r"([a-z])([A-Z])", r"\1_\2", tool).lower()))
    return "write" if parts & _WRITE else "edit" if parts & _EDIT else "read"


def _arguments(arguments: Any) -> Mapping[str, Any] | None:
    if isinstance(arguments, Mapping):
        return arguments
    if isinstance(arguments, str):
        try:
            data = json.loads(arguments)
        except ValueError:
            return None
        return data if isinstance(data, Mapping) else None
    return None


def path_of(arguments: Any) -> str | None:
    """The file a call's arguments (a dict or its JSON) name, or None."""
    data = _arguments(arguments)
    if data is None:
        return None
    for key in _FILE_KEYS:
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


@dataclass
class _File:
    content: str | None = None  # None: the conversation never showed the whole of it


class WorkFiles:
    """Files by path, with their content as the calls so far left them; calls by id."""

    def __init__(self) -> None:
        self._files: dict[str, _File] = {}
        self._calls: dict[str, tuple[str, str]] = {}  # tool_use_id -> (path, operation)
        self._state: dict[str, str] = {}  # tool_use_id -> full input of a write without path

    @classmethod
    def replay(cls, messages: Sequence[Mapping[str, Any]]) -> WorkFiles:
        """What OpenAI-format ``messages`` show of their files (inputs and results as the
        messages hold them: cut ones no longer parse, so their files stay unknown)."""
        files = cls()
        for message in messages:
            for call in message.get("tool_calls") or ():
                fn = call.get("function") or {}
                files.call(str(call.get("id")), str(fn.get("name", "")), fn.get("arguments"))
            if message.get("role") == "tool":
                files.result(str(message.get("tool_call_id")), str(message.get("content") or ""))
        return files

    def call(self, tool_use_id: str, name: str, arguments: Any) -> None:
        """A call with its full ``arguments``: its path, and a write's or edit's effect."""
        path = path_of(arguments)
        op = operation_of(name)
        if path is None:
            if op != "read":  # a plan or a todo list written: the whole of it, for restore
                full = arguments if isinstance(arguments, str) else json.dumps(arguments)
                self._state[tool_use_id] = full
            return
        self._calls[tool_use_id] = (path, op)
        file = self._files.setdefault(path, _File())
        data = _arguments(arguments) or {}
        if op == "write":
            text = next((v for k in _TEXT_KEYS if isinstance(v := data.get(k), str)), None)
            file.content = text if text is not None else file.content
        elif op == "edit":
            file.content = _edited(file.content, data)

    def result(self, tool_use_id: str, content: str) -> None:
        """A call's full result: a read's result is the file's content."""
        known = self._calls.get(tool_use_id)
        if known is not None and known[1] == "read":
            self._files[known[0]].content = content

    def path(self, tool_use_id: str) -> str | None:
        """The path of call ``tool_use_id``, read from its full arguments."""
        known = self._calls.get(tool_use_id)
        return known[0] if known else None

    def written(self, tool_use_id: str) -> str | None:
        """The full input of a call that wrote something other than a file (a plan, a todo
        list: ``update_plan``, ``todo_write``), or None."""
        return self._state.get(tool_use_id)

    def content(self, path: str, read_file: FileReader | None = None) -> str | None:
        """The file's text now: the host's ``read_file`` when it answers, else what the
        conversation showed (None when it never showed all of it)."""
        if read_file is not None:
            try:
                text = read_file(path)
            except (OSError, ValueError):
                text = None
            if isinstance(text, str):
                return text
        file = self._files.get(path)
        return None if file is None else file.content


def _edited(content: str | None, data: Mapping[str, Any]) -> str | None:
    """``content`` after an edit call's old → new replacement (None when not known)."""
    for old_key, new_key in _EDIT_KEYS:
        old, new = data.get(old_key), data.get(new_key)
        if isinstance(old, str) and isinstance(new, str):
            if content is None or old not in content:
                return None  # the file is not what we saw: its content is unknown now
            return content.replace(old, new, 1)
    return None


def disk_reader(root: str | Path) -> FileReader:
    """A ``read_file`` for :class:`~recall.context.session.Session`: a path's text as it is
    under ``root`` now; None for a path outside ``root``, missing or not UTF-8 text."""
    base = Path(root).resolve()

    def read(path: str) -> str | None:
        target = (base / path).resolve()
        if not target.is_relative_to(base) or not target.is_file():
            return None
        try:
            return target.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    return read
