"""``recall bench lifecycle``: the memory the product builds, measured end to end.

Each conversation goes through the product's write path (``update_memory`` per session, in
order, dated; the offline default, or the LLM path when ``RECALL_LLM_*`` configures one)
under one user, and the same turns are added raw (``add_many``, kind ``turn``, threaded by
session) under a second user: the ceiling, in the same folder and the same run. Every
question is then answered from what fits ``budget`` tokens (3,000: the ``<recall>``
section's) taken from

- ``deep_recall`` over the raw turns (the ceiling), and over the lifecycle user at each
  depth ("recent", "archive"): hits in rank order, each as ``(date) text``, until the
  budget is full;
- ``get_relevant_memories(max_tokens=budget)``, and at its default budget (4,000);
- the built context (``ContextBuilder.build`` with the memory block at its room and the
  default deep_recall's hits as ``recall_hits``): its system messages, whatever they cost.

Scored by answer-token recall (:func:`~recall.bench.lifecycle_data.answer_recall`), split
by whether an evidence session's summary was promoted out of short-term, with the tokens
each mode spent.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

import recall

from ..context.builder import ContextBuilder
from ..context.session import Session
from ..errors import RecallError
from ..inputs import Depth
from ..models import Hit
from ..text import count_tokens
from .lifecycle_data import (
    Conversation,
    answer_recall,
    locomo_conversations,
    memdaily_conversations,
)
from .output import environment, write_json

__all__ = ["MODES", "bench_lifecycle", "hits_text", "run_lifecycle", "table"]

MODES = (
    "raw turns, deep_recall (ceiling)",
    "lifecycle, deep_recall depth=recent",
    "lifecycle, deep_recall depth=archive",
    "lifecycle, get_relevant_memories",
    "lifecycle, get_relevant_memories (default budget)",
    "lifecycle, built context",
)
_TOP_K = 200  # enough hits to fill any budget with short turns


def hits_text(hits: Sequence[Hit], budget: int) -> str:
    """Hits in rank order as ``(date) text`` lines, as many as fit ``budget`` tokens."""
    lines: list[str] = []
    used = 0
    for h in hits:
        line = f"({h.created_at.day} {h.created_at:%B %Y}) {' '.join(h.text.split())}"
        cost = count_tokens(line) + 1
        if used + cost > budget:
            break
        lines.append(line)
        used += cost
    return "\n".join(lines)


def _ingest(
    mem: recall.Memory, convs: Sequence[Conversation]
) -> tuple[dict[str, set[str]], dict[str, Any]]:
    """Write every conversation both ways; the promoted session keys per user; timings."""
    promoted: dict[str, set[str]] = {}
    t0 = time.perf_counter()
    for c in convs:
        summary_of = {}
        for key, messages, at in c.updates:
            res = mem.update_memory(messages, user_id=f"life:{c.user}", at=at)
            summary_of[key] = res.summary_id
        if not mem.flush(timeout=600):
            raise RecallError("background promotions did not finish within 10 minutes")
        short = {r.id for r in mem.short_term(f"life:{c.user}")}
        promoted[c.user] = {k for k, sid in summary_of.items() if sid not in short}
    life_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    for c in convs:
        mem.add_many(c.turns, user_id=f"raw:{c.user}")
    raw_s = time.perf_counter() - t0
    return promoted, {"lifecycle_ingest_s": round(life_s, 1), "raw_ingest_s": round(raw_s, 1)}


def _modes(mem: recall.Memory, budget: int) -> dict[str, Callable[[str, str], str]]:
    builder = ContextBuilder(mem.settings)

    def recall_text(user: str, depth: Depth | None) -> Callable[[str, str], str]:
        return lambda q, u: hits_text(
            mem.deep_recall(q, user_id=f"{user}:{u}", top_k=_TOP_K, depth=depth), budget
        )

    def built(q: str, u: str) -> str:
        uid = f"life:{u}"
        room = builder.section_room("memory")
        memory = mem.get_relevant_memories(q, user_id=uid, max_tokens=room)
        hits = mem.deep_recall(q, user_id=uid, top_k=_TOP_K)
        session = Session(settings=mem.settings)
        ctx = builder.build(session=session, soul="", user_input=q, memory=memory, recall_hits=hits)
        return "\n".join(m["content"] for m in ctx.messages if m["role"] == "system")

    return {
        MODES[0]: recall_text("raw", None),
        MODES[1]: recall_text("life", "recent"),
        MODES[2]: recall_text("life", "archive"),
        MODES[3]: lambda q, u: mem.get_relevant_memories(q, user_id=f"life:{u}", max_tokens=budget),
        MODES[4]: lambda q, u: mem.get_relevant_memories(q, user_id=f"life:{u}"),
        MODES[5]: built,
    }


def run_lifecycle(
    convs: Sequence[Conversation], *, budget: int = 3000, settings: recall.Settings | None = None
) -> dict[str, Any]:
    """Run the benchmark in a temporary folder; the result as a JSON-able dict."""
    with tempfile.TemporaryDirectory() as tmp:
        base = settings or recall.Settings()
        with recall.open(tmp, settings=base) as mem:
            promoted, timing = _ingest(mem, convs)
            scores: dict[str, dict[str, list[float]]] = {
                m: {"all": [], "promoted": [], "short_term": []} for m in MODES
            }
            tokens: dict[str, list[int]] = {m: [] for m in MODES}
            modes = _modes(mem, budget)
            t0 = time.perf_counter()
            for c in convs:
                for q in c.questions:
                    split = "promoted" if q.sessions & promoted[c.user] else "short_term"
                    for name, answer_from in modes.items():
                        text = answer_from(q.text, c.user)
                        score = answer_recall(q.answer, text)
                        if score is None:
                            continue
                        scores[name]["all"].append(score)
                        scores[name][split].append(score)
                        tokens[name].append(count_tokens(text))
            timing["query_s"] = round(time.perf_counter() - t0, 1)
    rows = {
        m: {
            **{k: round(100 * statistics.fmean(v), 1) if v else None for k, v in scores[m].items()},
            "n": {k: len(v) for k, v in scores[m].items()},
            "tokens_p50": int(statistics.median(tokens[m])) if tokens[m] else 0,
        }
        for m in MODES
    }
    return {"budget": budget, "conversations": len(convs), "modes": rows, "timing": timing}


def table(result: dict[str, Any]) -> str:
    """The result as a markdown table (answer-token recall %, tokens p50)."""
    n = next(iter(result["modes"].values()))["n"]
    head = (
        f"| retrieved from | all ({n['all']} q) | evidence promoted ({n['promoted']} q) "
        f"| evidence short-term ({n['short_term']} q) | tokens p50 |\n|---|---|---|---|---|"
    )
    rows = [
        f"| {m} | {r['all']} | {r['promoted']} | {r['short_term']} | {r['tokens_p50']:,} |"
        for m, r in result["modes"].items()
    ]
    return "\n".join([head, *rows])


def bench_lifecycle(data: Path, out: Path, limit: int | None, budget: int, seed: int) -> Path:
    """``recall bench lifecycle``: LoCoMo (a JSON file) or MemDaily (a folder of them);
    ``limit`` conversations (LoCoMo) or questions (MemDaily). Prints the table, writes JSON."""
    settings = recall.Settings()
    if data.is_dir() or "memdaily" in data.name.lower():
        convs = memdaily_conversations(data, limit, seed)
        name = "lifecycle_memdaily"
    else:
        convs = locomo_conversations(data, settings, limit)
        name = "lifecycle_locomo"
    env = environment()
    result = run_lifecycle(convs, budget=budget, settings=settings)
    result["parameters"] = {"data": str(data), "limit": limit, "seed": seed, "budget": budget}
    result["environment"] = env
    click.echo(table(result))
    return write_json(result, out / f"{name}.json")
