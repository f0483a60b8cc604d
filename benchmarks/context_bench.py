"""Context builder timing: build p50 for a 40,000-token history, compaction time (offline).

The history has 200 messages (users, assistants, tool calls with results; English and
Chinese) adding up to about 40,000 tokens, with every section filled and over its budget
(memory, daily log, awareness, recall hits), so each build does the real cutting work.
Build times are taken after a first build, i.e. with token counts and section fits cached
as they are across turns of one conversation; the first (cold) build is reported apart.
Compaction is timed on fresh copies of the same history with the offline summarizer.

    .venv/bin/python benchmarks/context_bench.py [--builds 300] [--compactions 5]

Ends with one JSON line: history_tokens, messages, build_p50_ms, build_p95_ms,
cold_build_ms, compact_p50_ms, compact_path, compact_score.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from datetime import UTC, datetime, timedelta

from recall.context.builder import ContextBuilder
from recall.context.session import Session
from recall.models import Hit
from recall.settings import Settings

TOPICS = ["the cache layer", "the deploy pipeline", "数据库迁移", "登录页面", "the billing job"]


def history(settings: Settings, messages: int = 200, target: int = 40_000) -> Session:
    """``messages`` messages of about ``target`` tokens in all, in rounds of four."""
    s = Session(settings=settings, auto_compact=False)
    per = target // messages
    i = 0
    while len(s) < messages:
        topic = TOPICS[i % len(TOPICS)]
        filler = f" We looked at {topic} again, step {i}; 我们继续讨论{topic}的细节。" * (per // 20)
        s.add_user(f"Round {i}: please check src/{i % 7}/main.py for {topic}.{filler}")
        s.add_tool_use("read_file", {"path": f"src/{i % 7}/main.py"}, f"c{i}")
        s.add_tool_result(f"c{i}", f"def handler_{i}():\n    return {i}\n" * (per // 14))
        s.add_assistant(f"Checked src/{i % 7}/main.py: {topic} looks fine.{filler}")
        i += 1
    return s


def sections() -> dict[str, object]:
    now = datetime(2026, 3, 1, tzinfo=UTC)
    memory = "\n\n".join(
        f"## Chapter {c}\n\n"
        + "\n\n".join(
            f"Paragraph {c}.{p}: the user decided on {TOPICS[p % 5]}. " * 6 for p in range(8)
        )
        for c in range(6)
    )
    hits = [
        Hit(id=f"h{k}", text=f"Memory {k} about {TOPICS[k % 5]}. " * 40, kind="short_term",
            created_at=now - timedelta(days=k), score=1 - k / 20, keyword_score=1.0,
            keyword_norm=1.0, keyword_rank=k + 1, vector_score=0.5, vector_norm=0.5,
            vector_rank=k + 1)
        for k in range(12)
    ]  # fmt: skip
    return {
        "soul": "You are Lark, a careful engineering assistant. 你是灵雀。" * 20,
        "memory": memory,
        "daily_log": "\n".join(
            f"{h:02d}:{m:02d} worked on {TOPICS[m % 5]}" for h in range(24) for m in range(0, 60, 5)
        ),
        "awareness": [
            {"name": f"tool_{t}", "description": f"Does thing {t} with {TOPICS[t % 5]}."}
            for t in range(60)
        ],
        "recall_hits": hits,
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--builds", type=int, default=300)
    parser.add_argument("--compactions", type=int, default=5)
    args = parser.parse_args()
    settings = Settings()
    session = history(settings)
    parts = sections()
    builder = ContextBuilder(settings)
    t0 = time.perf_counter()
    built = builder.build(session=session, user_input="What is next?", **parts)  # type: ignore[arg-type]
    cold = time.perf_counter() - t0
    times = []
    for _ in range(args.builds):
        t0 = time.perf_counter()
        builder.build(session=session, user_input="What is next?", **parts)  # type: ignore[arg-type]
        times.append(time.perf_counter() - t0)
    times.sort()
    print(f"history: {len(session)} messages, {session.tokens:,} tokens; context {built.report}")
    compactions = []
    result = None
    for _ in range(args.compactions):
        fresh = history(settings)
        t0 = time.perf_counter()
        result = fresh.compact()
        compactions.append(time.perf_counter() - t0)
    assert result is not None
    print(
        f"compaction: path {result.path}, score {result.score:.3f}, "
        f"{result.tokens_before:,} -> {result.tokens_after:,} tokens, "
        f"{len(result.restored)} items restored"
    )
    line = {
        "history_tokens": session.tokens,
        "messages": len(session),
        "build_p50_ms": round(statistics.median(times) * 1e3, 3),
        "build_p95_ms": round(times[int(0.95 * (len(times) - 1))] * 1e3, 3),
        "cold_build_ms": round(cold * 1e3, 1),
        "compact_p50_ms": round(statistics.median(compactions) * 1e3, 1),
        "compact_path": result.path,
        "compact_score": result.score,
    }
    print(json.dumps(line))


if __name__ == "__main__":
    main()
