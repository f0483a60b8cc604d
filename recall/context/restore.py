"""Restoring key items after compaction.

The items the compacted part of a conversation worked on (files read or written, tool
results) are scored 0..100 by recency, frequency, operation and type, with a file-type
table (see docs/design.md), and the best are put back: at most ``restore_max_items``
items of at most ``restore_item_tokens`` tokens each and ``restore_total_tokens`` in all.
Scoring is pure.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..settings import Settings
from ..text import Count
from .budget import truncate_chars

__all__ = ["RestoredItem", "item_score", "render_restored", "restore_items"]

_FILE_KEYS = ("path", "file", "file_path", "filepath", "filename", "target", "document")
_WRITE = frozenset({"write", "create", "save", "put", "upload", "insert", "new"})
_EDIT = frozenset({"edit", "update", "patch", "replace", "append", "modify", "rename", "move"})
# The file-type table: code over configuration over documents; 30 when unknown.
_TYPE_SCORE = {
    **dict.fromkeys(("js", "ts"), 100), **dict.fromkeys(("jsx", "tsx"), 95), "py": 90,
    **dict.fromkeys(("java", "cpp", "c"), 85), **dict.fromkeys(("go", "rs"), 80),
    **dict.fromkeys(("php", "rb"), 75), "json": 70, **dict.fromkeys(("yaml", "yml"), 65),
    "toml": 60, "xml": 55, **dict.fromkeys(("ini", "env", "config"), 50), "css": 45,
    "md": 40, "html": 35, "txt": 30, **dict.fromkeys(("doc", "docx"), 25), "pdf": 20,
}  # fmt: skip
_UNKNOWN_TYPE, _TOOL_TYPE = 30.0, 50.0


@dataclass(frozen=True)
class RestoredItem:
    """A file or tool result put back after compaction, with its score (0..100)."""

    key: str
    kind: Literal["file", "tool"]
    operation: str
    content: str
    tokens: int
    score: float


def _operation(tool: str) -> str:
    parts = set(re.split(r"[^a-z]+", re.sub(r"([a-z])([A-Z])", r"\1_\2", tool).lower()))
    return "write" if parts & _WRITE else "edit" if parts & _EDIT else "read"


def _file_of(arguments: str) -> str | None:
    try:
        data = json.loads(arguments)
    except ValueError:
        data = None
    if isinstance(data, Mapping):
        for key in _FILE_KEYS:
            value = data.get(key)
            if isinstance(value, str) and value.strip():
                return value.strip()
    return None


def restore_items(
    messages: Sequence[Mapping[str, Any]], settings: Settings, count: Count
) -> list[RestoredItem]:
    """The items ``messages`` worked on, best first, within the restore limits."""
    n = len(messages)
    items: dict[str, dict[str, Any]] = {}
    by_call: dict[str, str] = {}
    for pos, message in enumerate(messages):
        for call in message.get("tool_calls") or ():
            fn = call.get("function") or {}
            name, args = str(fn.get("name", "")), str(fn.get("arguments", ""))
            path = _file_of(args)
            key = path or f"{name}({truncate_chars(args, 60)})"
            item = items.setdefault(key, {"kind": "file" if path else "tool", "ops": []})
            op = _operation(name)
            item["ops"].append((pos, op))
            if op != "read":  # what was written is the file's content as far as we know
                item["content"] = args
            by_call[str(call.get("id"))] = key
        if message.get("role") == "tool" and message.get("tool_call_id") in by_call:
            item = items[by_call[message["tool_call_id"]]]
            item["content"] = message.get("content") or item.get("content", "")
            item["ops"].append((pos, item["ops"][-1][1]))
    scored = []
    for key, item in items.items():
        if not item.get("content"):
            continue
        ops = item["ops"]
        s = item_score(key, item["kind"], ops, n, settings.context.restore_weights)
        block = _render_item(key, ops[-1][1], s, item["content"])
        scored.append(RestoredItem(key, item["kind"], ops[-1][1], item["content"], count(block), s))
    scored.sort(key=lambda r: -r.score)
    chosen: list[RestoredItem] = []
    total = 0
    for ranked in scored:
        if len(chosen) >= settings.context.restore_max_items:
            break
        if ranked.tokens > settings.context.restore_item_tokens:
            continue
        if total + ranked.tokens > settings.context.restore_total_tokens:
            continue  # best fit: a smaller item further down may still fit
        chosen.append(ranked)
        total += ranked.tokens
    return chosen


def item_score(
    key: str, kind: str, ops: Sequence[tuple[int, str]], n: int, weights: Sequence[float]
) -> float:
    """The restore score (0..100; see docs/design.md). Recency is by position in the
    conversation, as messages carry no clock and position is what "recent" means inside
    one session."""
    last_pos, last_op = ops[-1]
    temporal = 100.0 * (last_pos + 1) / max(1, n)
    calls = [op for _, op in ops]
    recent = sum(1 for p, _ in ops if p >= 0.75 * n)
    frequency = min(80.0, 5.0 * len(calls)) + min(20.0, 10.0 * recent)
    operation = 15 * calls.count("write") + 10 * calls.count("edit") + 3 * calls.count("read")
    operation += {"write": 25, "edit": 15}.get(last_op, 0)
    ext = key.rsplit(".", 1)[-1].lower() if "." in key else ""
    kind_score = _TOOL_TYPE if kind == "tool" else _TYPE_SCORE.get(ext, _UNKNOWN_TYPE)
    parts = (temporal, frequency, min(100.0, float(operation)), kind_score)
    return round(sum(w * p for w, p in zip(weights, parts, strict=True)) / (sum(weights) or 1), 2)


def _render_item(key: str, operation: str, score: float, content: str) -> str:
    return f"### {key} ({operation}, score {score:.0f})\n{content}"


def render_restored(items: Sequence[RestoredItem]) -> str:
    """Restored items as one block for the context."""
    body = "\n\n".join(_render_item(i.key, i.operation, i.score, i.content) for i in items)
    return f"<restored_items>\n{body}\n</restored_items>"
