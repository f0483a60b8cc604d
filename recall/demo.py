"""``make demo``: ingest a sample conversation, run a deep recall, print what the model sees."""

from __future__ import annotations

import os
import tempfile
from datetime import UTC, datetime, timedelta
from typing import Any

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import recall

__all__ = ["CONVERSATION", "main"]

CONVERSATION = [
    "User asked for help choosing a session cache; we compared Redis and Memcached and "
    "chose Redis because it supports TTLs per key and persistence.",
    "User's dog is called Biscuit; she is a three-year-old beagle who hates thunderstorms.",
    "We fixed the flaky test in tests/test_api.py: the timeout was 2 s, raised to 10 s.",
    "用户计划下个月和家人去北京旅行，想去故宫和长城，预算两万元。",
    "User prefers answers in short bullet points and dislikes long preambles.",
    "The deployment moved from Heroku to Fly.io in March; the database stayed on Postgres 16.",
]


def main() -> None:
    """Ingest :data:`CONVERSATION`, deep-recall it, print the built context."""
    folder = os.environ.get("RECALL_DEMO_PATH") or tempfile.mkdtemp(prefix="recall-demo-")
    mem = recall.open(folder)
    start = datetime(2026, 10, 1, tzinfo=UTC)
    for i, text in enumerate(CONVERSATION):
        mem.add(text, user_id="demo-user", created_at=start + timedelta(days=3 * i))
    print(f"memory folder: {folder}\ningested {len(CONVERSATION)} short-term summaries\n")

    user_turn = "你仔细想想, what did we decide about the cache last time?"
    print(f"user: {user_turn}")
    print(f"wants_deep_recall: {recall.wants_deep_recall(user_turn)}\n")
    call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "deep_recall", "arguments": '{"query": "cache decision", "top_k": 3}'},
    }
    hits = mem.deep_recall("cache decision", user_id="demo-user", top_k=3)
    print("deep_recall hits (fused = 0.5 keyword + 0.5 vector):")
    for h in hits:
        print(
            f"  {h.score:.3f}  kw {h.keyword_norm:.2f} (#{h.keyword_rank})  "
            f"vec {h.vector_norm:.2f} (#{h.vector_rank})  [{h.source()}] {h.text[:70]}"
        )
    tool_message = mem.handle_tool_call(call, user_id="demo-user")
    print("\nbuilt context:")
    for message in _context(mem, user_turn, tool_message):
        print(f"--- {message['role']} ---\n{message['content']}\n")
    mem.close()


def _context(
    mem: recall.Memory, user_turn: str, tool_message: dict[str, Any]
) -> list[dict[str, Any]]:
    try:
        from .context.builder import ContextBuilder
        from .context.session import Session
    except ImportError:  # the context builder is optional in this demo
        return [{"role": "user", "content": user_turn}, tool_message]
    hits = mem.deep_recall("cache decision", user_id="demo-user", top_k=3)
    session = Session()
    built = ContextBuilder().build(
        session=session,
        soul="You are a helpful assistant with a long-term memory.",
        user_input=user_turn,
        recall_hits=hits,
    )
    print(f"report: {built.report}")
    return list(built.messages)


if __name__ == "__main__":
    main()
