"""The context builder's result types and section renderers (pure functions).

:class:`BuiltContext` is what :meth:`recall.ContextBuilder.build` returns: the messages and a
:class:`ContextReport` with exact token counts per section and every :class:`Cut` made.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..errors import InputError
from ..models import Hit
from .budget import Level, Usage
from .compaction import Compaction
from .usage import UsageWarning

__all__ = [
    "AwarenessItem",
    "BuiltContext",
    "ContextReport",
    "Cut",
    "compaction_info",
    "cut_reason",
    "optional_text",
    "recall_lines",
    "render_awareness",
    "system_text",
]

AwarenessItem = str | Mapping[str, Any]


@dataclass(frozen=True)
class Cut:
    """One section cut: what, why, and its tokens before and after."""

    section: str
    reason: str
    tokens_before: int
    tokens_after: int


@dataclass(frozen=True)
class ContextReport:
    """What went into the context: exact totals, tokens per section, cuts, usage level.

    ``warning`` is the session's usage warning for this build (level, message, suggested
    action, rounds left; :meth:`recall.Session.warning`): None at normal usage or while
    that level's cooldown runs.
    """

    total_tokens: int
    budget_tokens: int
    sections: dict[str, int]
    cuts: tuple[Cut, ...]
    level: Level
    usage: Usage
    history_messages: int
    compaction: dict[str, Any] | None = None  # the session's last: path, score, tokens
    warning: UsageWarning | None = None

    def to_dict(self) -> dict[str, Any]:
        """The report as plain JSON-ready data."""
        out = asdict(self)
        out["usage"]["text"] = str(self.usage)
        return out

    def __str__(self) -> str:
        parts = ", ".join(f"{k} {v}" for k, v in self.sections.items() if v)
        cuts = "; ".join(f"{c.section}: {c.reason}" for c in self.cuts) or "none"
        w = self.warning
        warning = f"; warning: {w.message}" if w else ""
        if w and w.completed:
            warning += f" {w.completed}"
        return (
            f"{self.total_tokens:,}/{self.budget_tokens:,} tokens ({parts}); level "
            f"{self.level}{warning}; {self.history_messages} history messages; cuts: {cuts}"
        )


@dataclass(frozen=True)
class BuiltContext:
    """The messages to send (OpenAI format) and the report of how they were built."""

    messages: list[dict[str, Any]]
    report: ContextReport


def optional_text(value: object, what: str) -> str:
    """``value`` as a section text: None is empty; anything but a string is an error."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InputError(f"{what} must be a string or None, got {type(value).__name__}")
    return value


def render_awareness(value: str | Sequence[AwarenessItem]) -> str:
    """The awareness list as ``- name: description`` lines (OpenAI tool dicts welcome)."""
    if isinstance(value, str):
        return value
    if not isinstance(value, Sequence):
        raise InputError("awareness must be a string, a list of tools/abilities, or a callable")
    lines = []
    for item in value:
        if isinstance(item, str):
            lines.append(f"- {item}")
        elif isinstance(item, Mapping):
            fn = item.get("function", item)  # an OpenAI tool dict, or {"name", "description"}
            desc = str(fn.get("description") or "").strip().split("\n")[0]
            lines.append(f"- {fn.get('name', '?')}: {desc}" if desc else f"- {fn.get('name')}")
        else:
            raise InputError(f"awareness items must be strings or dicts, got {type(item).__name__}")
    return "\n".join(lines)


def cut_reason(name: str, dropped: int, what: str) -> str:
    """Why section ``name`` was cut, in words for the report."""
    unit = {"memory": "oldest paragraphs", "daily_log": "oldest lines"}.get(name, "items")
    if name == "recall":
        unit = "lowest-ranked hits"
    return f"over {what}: dropped {dropped} {unit}" if dropped else f"over {what}: cut"


def recall_lines(hits: Sequence[Hit]) -> str:
    """deep_recall hits as lines, best first, each with its source (kind, date) and score."""
    best = sorted(hits, key=lambda h: -h.score)
    return "\n".join(
        f"- [{h.source()} · score {h.score:.2f}] {' '.join(h.text.split())}" for h in best
    )


def system_text(soul: str, content: Mapping[str, tuple[str, int]]) -> str:
    """The system message: the soul, then each section in its tags."""
    blocks = [soul] if soul.strip() else []
    blocks += [f"<{k}>\n{text}\n</{k}>" for k, (text, _) in content.items()]
    return "\n\n".join(blocks)


def compaction_info(compactions: Sequence[Compaction]) -> dict[str, Any] | None:
    """The last compaction for the report: path taken, gate score, tokens, items restored."""
    if not compactions:
        return None
    c = compactions[-1]
    return {
        "path": c.path,
        "score": c.score,
        "tokens_before": c.tokens_before,
        "tokens_after": c.tokens_after,
        "kept_messages": c.kept_messages,
        "restored_items": len(c.restored),
        "stored": c.stored,
    }
