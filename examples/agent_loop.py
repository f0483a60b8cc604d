"""An agent loop with recall: budgeted context, the deep_recall tool, memory that builds up.

Each turn: build the context (soul, memory, awareness, history, the user's turn) within
its budgets, ask the model with ``tools=[recall.DEEP_RECALL_TOOL]``; when the model calls
the tool, answer it with ``mem.handle_tool_call``, put the call and its result into the
session (the result is fitted to the recall budget) and ask again with the turn continued
(``user_input=None``). The model answers with ``{"answer", "summary"}`` JSON
(``ANSWER_INSTRUCTION``); ``session.record_reply`` keeps the answer and sends the turn's
summary to ``update_memory`` in the background, so even a short chat leaves memory that a
later session recalls. Usage warnings print when the report carries one.

    # against any OpenAI-compatible endpoint (OPENAI_BASE_URL, OPENAI_API_KEY):
    python examples/agent_loop.py --model gpt-4o-mini
    # no endpoint at all: a scripted stand-in model, everything else real
    python examples/agent_loop.py --dry-run
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import recall
from recall.context.builder import ContextBuilder
from recall.context.session import Session
from recall.lifecycle.answer import ANSWER_INSTRUCTION, with_instruction

SOUL = (
    "You are Lark, a concise assistant with a long-term memory. When the user asks you to "
    "remember something from earlier conversations, call deep_recall before answering."
)
# A first session tells the assistant two facts; a later one asks for them back.
FIRST_SESSION = [
    "We picked Redis for the session cache and Postgres 16 for the main database.",
    "The staging deploy failed with OOMKilled at 512Mi; we raised the limit to 1Gi.",
]
LATER_SESSION = [
    "帮我回忆一下，我们的 session cache 用的是什么？",
    "Try to remember: what limit did we set after the OOMKilled error?",
]
Model = Callable[[list[dict[str, Any]], list[dict[str, Any]]], Any]


def openai_model(model: str) -> Model:
    """A model function backed by the ``openai`` client (OPENAI_BASE_URL, OPENAI_API_KEY)."""
    from openai import OpenAI

    client = OpenAI()

    def ask(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Any:
        reply = client.chat.completions.create(model=model, messages=messages, tools=tools)  # type: ignore[arg-type]
        return reply.choices[0].message

    return ask


def dry_run_model(messages: list[dict[str, Any]], _tools: list[dict[str, Any]]) -> Any:
    """A scripted stand-in: calls deep_recall on an explicit request, then quotes the best hit."""
    last = messages[-1]
    if last["role"] == "user" and recall.wants_deep_recall(last["content"]):
        call = SimpleNamespace(
            id=f"call_{len(messages)}",
            type="function",
            function=SimpleNamespace(
                name="deep_recall", arguments=json.dumps({"query": last["content"]})
            ),
        )
        return SimpleNamespace(content=None, tool_calls=[call])
    if last["role"] == "tool":
        results = json.loads(last["content"]).get("results") or [{"text": "nothing found"}]
        answer = f"From memory: {results[0]['text']}"
        return SimpleNamespace(
            content=json.dumps({"answer": answer, "summary": ""}), tool_calls=None
        )
    # A statement: acknowledge it, and summarize the turn as what the user said.
    reply = {"answer": "Noted.", "summary": f"The user said: {last['content']}"}
    return SimpleNamespace(content=json.dumps(reply), tool_calls=None)


def run(mem: recall.Memory, user_id: str, ask: Model, turns: list[str]) -> list[str]:
    """Run ``turns`` through the loop; returns the assistant's answers."""
    session = Session(mem, user_id, per_turn_summaries=True)
    builder = ContextBuilder(mem.settings)
    tools = [recall.DEEP_RECALL_TOOL]
    answers = []
    for turn in turns:
        user_input: str | None = turn
        for _ in range(4):  # at most a few tool rounds per turn
            built = builder.build(
                session=session,
                soul=SOUL,
                user_input=user_input,
                memory=mem.get_relevant_memories(
                    turn, user_id=user_id, max_tokens=builder.section_room("memory")
                ),
                awareness=tools,
            )
            print(f"  [context] {built.report}")
            if built.report.warning is not None:
                print(f"  [warning] {built.report.warning.message}")
            reply = ask(with_instruction(built.messages, ANSWER_INSTRUCTION), tools)
            if user_input is not None:
                session.add_user(user_input)
                user_input = None  # from here on the turn continues inside the session
            if not reply.tool_calls:
                break
            for call in reply.tool_calls:
                session.add_tool_use(call.function.name, call.function.arguments, call.id)
                message = mem.handle_tool_call(call, user_id=user_id)
                session.add_tool_result(call.id, message["content"])
        recorded = session.record_reply(reply.content or "")
        answers.append(recorded.reply.answer)
        print(f"user: {turn}\nassistant: {recorded.reply.answer}")
        if recorded.sent:
            print(f"  [memory] stored the turn's summary: {recorded.reply.summary}")
        print(f"  [usage] {session.usage()}")
    return answers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default=None, help="Model name at the OpenAI endpoint.")
    parser.add_argument("--dry-run", action="store_true", help="No endpoint: a scripted model.")
    parser.add_argument("--path", default=None, help="Memory folder (default: a temp folder).")
    parser.add_argument("--user", default="demo-user")
    args = parser.parse_args(argv)
    if not args.dry_run and not args.model:
        parser.error("give --model NAME (with OPENAI_BASE_URL/OPENAI_API_KEY) or --dry-run")
    ask = dry_run_model if args.dry_run else openai_model(args.model)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.path or tmp)
        with recall.open(path) as mem:
            print("--- a first session")
            run(mem, args.user, ask, FIRST_SESSION)
            mem.flush()  # the per-turn summaries are written by a background worker
            print("--- a later session: only memory connects it to the first")
            run(mem, args.user, ask, LATER_SESSION)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
