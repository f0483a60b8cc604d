"""An agent loop with recall: budgeted context, the deep_recall tool, memory that builds up.

Each turn: build the context (soul, memory, awareness, history, the user's turn) within
its budgets, ask the model with ``tools=[recall.DEEP_RECALL_TOOL]``; when the model calls
the tool, answer it with ``mem.handle_tool_call``, put the call and its result into the
session (the result is fitted to the recall budget) and ask again with the turn continued
(``user_input=None``). The model answers with ``{"answer", "summary"}`` JSON
(``ANSWER_INSTRUCTION``); ``session.record_reply`` keeps the answer and sends the turn's
summary to ``update_memory`` in the background, so even a short chat leaves memory that a
later session recalls. Usage warnings print when the report carries one.

Deep recall is explicit. An explicit request ("帮我回忆一下…") makes the model call the
tool. A question that depends on the shared past makes the model propose instead ("I need a
moment to recall more deeply — may I?", ``DEEP_RECALL_PROMPT_EN`` in the soul); the session
holds the proposal, and when the user's next turn agrees, ``session.add_user`` returns a
decision whose ``query`` the host runs through ``deep_recall``: the hits reach the model as
the ``<recall>`` section (``recall_hits=``). The host runs it rather than waiting for a tool
call because "sure" carries no query of its own: the pending proposal holds it.

    # against any OpenAI-compatible endpoint (OPENAI_BASE_URL, OPENAI_API_KEY):
    python examples/agent_loop.py --model gpt-4o-mini
    # no endpoint at all: a scripted stand-in model, everything else real
    python examples/agent_loop.py --dry-run
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import recall
from recall.context.builder import ContextBuilder
from recall.context.proposal import DEEP_RECALL_PROMPT_EN, PROPOSAL_EN
from recall.context.session import Session
from recall.lifecycle.answer import ANSWER_INSTRUCTION, with_instruction

SOUL = "You are Lark, a concise assistant with a long-term memory.\n" + DEEP_RECALL_PROMPT_EN
# A first session tells the assistant two facts; a later one asks for them back.
FIRST_SESSION = [
    "We picked Redis for the session cache and Postgres 16 for the main database.",
    "The staging deploy failed with OOMKilled at 512Mi; we raised the limit to 1Gi.",
]
# A pasted log fills the dry run's small window past 60%: the usage warning shows.
EVENTS = "\n".join(
    f"Warning  BackOff  {m}m ago  kubelet  Back-off restarting failed container api in pod "
    f"api-7d9f{m:02d}-x{m * 7 % 10}q (exit code 137, OOMKilled, limit 1Gi)"
    for m in range(1, 18)
)
# An explicit request (the model calls the tool), a pasted log, then a question about the
# shared past (the model proposes a deep recall) and the user's consent (the host runs it).
LATER_SESSION = [
    "帮我回忆一下，我们的 session cache 用的是什么？",
    f"Today's events from staging:\n{EVENTS}",
    "What is the limit for the staging deploy now, after OOMKilled?",
    "Sure, go ahead.",
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
    """A scripted stand-in: calls deep_recall on an explicit request, proposes one for a
    question, answers a consent from what the host recalled, acknowledges statements."""
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
        results = json.loads(last["content"]).get("hits") or [{"text": "nothing found"}]
        return _reply(f"From memory: {results[0]['text']}", "The user asked me to recall.")
    previous = [m["content"] for m in messages if m["role"] in ("user", "assistant")]
    if len(previous) >= 3 and recall.is_recall_proposal(previous[-2]):
        # The user answered a proposal; the host ran deep_recall if they agreed. Its hits
        # are the <recall> section, less those <memory> already shows: use either.
        question = previous[-3]
        found = _best_line(_section(messages, "recall") + _section(messages, "memory"), question)
        return _reply(f"From memory: {found}", f"The user asked again: {question}")
    if last["content"].rstrip().endswith("?"):  # depends on the past: ask leave to dig
        return _reply(
            f"I don't see that in front of me. {PROPOSAL_EN}", f"The user asked: {last['content']}"
        )
    # A statement: acknowledge it, and summarize the turn as what the user said.
    return _reply("Noted.", f"The user said: {_shorten(last['content'], 160)}")


def _shorten(text: str, chars: int) -> str:
    """``text`` on one line, cut at ``chars`` with a visible mark."""
    line = " ".join(text.split())
    return line if len(line) <= chars else f"{line[: chars - 1]}…"


def _reply(answer: str, summary: str) -> Any:
    content = json.dumps({"answer": answer, "summary": summary})
    return SimpleNamespace(content=content, tool_calls=None)


def _section(messages: list[dict[str, Any]], name: str) -> list[str]:
    """The lines of a ``<name>`` section of the system messages."""
    for message in messages:
        text = message["content"] if message["role"] == "system" else ""
        if f"<{name}>" in text:
            block = text.split(f"<{name}>", 1)[1].split(f"</{name}>", 1)[0]
            return [line for line in block.strip().splitlines() if line.strip()]
    return []


_DATED = re.compile(r"^\s*(?:[-*] )?\[\d{4}-\d{2}-\d{2}\] ")


def _best_line(lines: list[str], question: str) -> str:
    """The statement sharing the most words with ``question`` (a stand-in model's reading:
    questions asked before, remembered too, answer nothing)."""
    words = set(question.lower().split())
    # The memory block dates each summary ("[2026-03-14] ..."); the answer quotes the words.
    statements = [_DATED.sub("", line) for line in lines if not line.rstrip().endswith("?")]
    return max(statements, key=lambda s: len(words & set(s.lower().split())), default="nothing")


def run(mem: recall.Memory, user_id: str, ask: Model, turns: list[str]) -> list[str]:
    """Run ``turns`` through the loop; returns the assistant's answers."""
    session = Session(mem, user_id, per_turn_summaries=True)
    builder = ContextBuilder(mem.settings)
    tools = [recall.DEEP_RECALL_TOOL]
    answers = []
    for turn in turns:
        print(f"user: {_shorten(turn, 120)}")
        # The turn answers a pending proposal (or asks explicitly): decision.query is set
        # exactly when deep_recall should run now.
        decision = session.add_user(turn)
        hits = None
        if decision.outcome == "consent":
            hits = mem.deep_recall(decision.query, user_id=user_id)
            print(f"  [recall] the user agreed: deep_recall({decision.query!r}) found:")
            for hit in hits:
                print(f"    {hit.score:.2f} {_shorten(hit.text, 110)}")
        for _ in range(4):  # at most a few tool rounds per turn
            built = builder.build(
                session=session,
                soul=SOUL,
                user_input=None,  # the turn is in the session already
                memory=mem.get_relevant_memories(
                    turn, user_id=user_id, max_tokens=builder.section_room("memory")
                ),
                recall_hits=hits,
                awareness=tools,
            )
            print(f"  [context] {built.report}")
            if built.report.warning is not None:
                print(f"  [warning] {built.report.warning.message}")
            reply = ask(with_instruction(built.messages, ANSWER_INSTRUCTION), tools)
            if not reply.tool_calls:
                break
            for call in reply.tool_calls:
                session.add_tool_use(call.function.name, call.function.arguments, call.id)
                message = mem.handle_tool_call(call, user_id=user_id)
                session.add_tool_result(call.id, message["content"])
        recorded = session.record_reply(reply.content or "")
        answers.append(recorded.reply.answer)
        print(f"assistant: {recorded.reply.answer}")
        if session.proposal.pending is not None:
            print(f"  [proposal] pending, about: {session.proposal.pending.query!r}")
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
    parser.add_argument(
        "--window",
        type=int,
        default=None,
        help="The model's context window in tokens (default: RECALL_CONTEXT_WINDOW_TOKENS; "
        "the dry run's 2,500 lets the usage warnings show within a few turns).",
    )
    args = parser.parse_args(argv)
    if not args.dry_run and not args.model:
        parser.error("give --model NAME (with OPENAI_BASE_URL/OPENAI_API_KEY) or --dry-run")
    ask = dry_run_model if args.dry_run else openai_model(args.model)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.path or tmp)
        window = args.window or (2500 if args.dry_run else None)
        settings = recall.Settings(context_window_tokens=window) if window else None
        with recall.open(path, settings=settings) as mem:
            print("--- a first session")
            run(mem, args.user, ask, FIRST_SESSION)
            mem.flush()  # the per-turn summaries are written by a background worker
            print("--- a later session: only memory connects it to the first")
            run(mem, args.user, ask, LATER_SESSION)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
