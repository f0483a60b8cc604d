"""Restoring key items after compaction.

The items the compacted part of a conversation worked on (files read, written or edited,
tool results) are scored 0..100 by recency, frequency, operation and type, with a file-type
table (see docs/design.md), and the best are put back: at most ``restore_max_items``
items of at most ``restore_item_tokens`` tokens each and ``restore_total_tokens`` in all.
A file comes back with its content now, tied to its path even when the history cut the
call's input (:mod:`recall.context.workfiles`). Scoring is pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..settings import Settings
from ..text import Count
from .budget import cut_to_tokens, truncate_chars
from .workfiles import FileReader, WorkFiles, operation_of

__all__ = ["RestoredItem", "item_score", "render_restored", "restore_items"]

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


def restore_items(
    messages: Sequence[Mapping[str, Any]],
    settings: Settings,
    count: Count,
    files: WorkFiles | None = None,
    read_file: FileReader | None = None,
) -> list[RestoredItem]:
    """The items ``messages`` worked on, best first, within the restore limits.

    ``files`` (the session's :class:`~recall.context.workfiles.WorkFiles`) ties each call
    to its path even when its input was cut, and gives each file the content the calls
    left it with; ``read_file`` (the host's) gives the file as it is now. Without them a
    file's content is what its last call's result or input shows. A file over
    ``restore_item_tokens`` comes back cut to it, visibly; other items over it are left out.
    """
    n = len(messages)
    files = WorkFiles.replay(messages) if files is None else files
    items = _worked_on(messages, files)
    c = settings.context
    scored = []
    for key, item in items.items():
        content = item.get("content")
        if item["kind"] == "file":
            content = files.content(key, read_file) or content
        if not content:
            continue
        ops = item["ops"]
        s = item_score(key, item["kind"], ops, n, c.restore_weights)
        head = _render_item(key, ops[-1][1], s, "")
        if item["kind"] == "file":  # the file's head, cut visibly to the per-item limit
            content = cut_to_tokens(content, c.restore_item_tokens - count(head), count)
        tokens = count(head + content)
        scored.append(RestoredItem(key, item["kind"], ops[-1][1], content, tokens, s))
    scored.sort(key=lambda r: -r.score)
    chosen: list[RestoredItem] = []
    total = 0
    for ranked in scored:
        if len(chosen) >= c.restore_max_items:
            break
        if not ranked.content or ranked.tokens > c.restore_item_tokens:
            continue
        if total + ranked.tokens > c.restore_total_tokens:
            continue  # best fit: a smaller item further down may still fit
        chosen.append(ranked)
        total += ranked.tokens
    return chosen


def _worked_on(
    messages: Sequence[Mapping[str, Any]], files: WorkFiles
) -> dict[str, dict[str, Any]]:
    """Each file or tool the calls of ``messages`` touched: kind, (position, operation)
    of each touch, and the content the messages show."""
    items: dict[str, dict[str, Any]] = {}
    by_call: dict[str, tuple[str, str]] = {}
    for pos, message in enumerate(messages):
        for call in message.get("tool_calls") or ():
            fn = call.get("function") or {}
            name, args = str(fn.get("name", "")), str(fn.get("arguments", ""))
            call_id = str(call.get("id"))
            # The replayed or recorded calls hold every path their input names: a cut input
            # that no longer parses names none (recall.context.workfiles).
            path = files.path(call_id)
            op = operation_of(name)
            # A plan or todo list written (no path) is one item per tool: its latest state.
            key = path or (name if op != "read" else f"{name}({truncate_chars(args, 60)})")
            item = items.setdefault(key, {"kind": "file" if path else "tool", "ops": []})
            item["ops"].append((pos, op))
            if op != "read":  # what was written is its content as far as we know
                item["content"] = files.written(call_id) or args
            by_call[call_id] = (key, op)
        if message.get("role") == "tool" and message.get("tool_call_id") in by_call:
            key, op = by_call[message["tool_call_id"]]
            item = items[key]
            if op == "read":  # a write's result is a status
                item["content"] = message.get("content") or item.get("content", "")
            item["ops"].append((pos, op))
    return items


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
