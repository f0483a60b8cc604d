"""`recall context` and the agent loop example, on a real memory (SQLite, Chroma, MiniLM).

The loop's model is the real ``openai`` client talking to a chat-completions server on
127.0.0.1 (tests/chat_server.py); the dry-run mode needs no server at all.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest
from chat_server import running
from click.testing import CliRunner

import recall
from recall.cli import main
from recall.text import count_tokens

ROOT = Path(__file__).resolve().parents[2]


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("agent_loop", ROOT / "examples" / "agent_loop.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_context_command_prints_messages_and_report(mem: recall.Memory, tmp_path: Path) -> None:
    mem.add("We chose Redis for the session cache.", user_id="u1")
    mem.close()
    session = tmp_path / "session.json"
    session.write_text(
        json.dumps(
            {
                "soul": "You are Lark.",
                "daily_log": "09:00 standup",
                "messages": [
                    {"role": "user", "content": "你好"},
                    {"role": "assistant", "content": "你好！有什么可以帮你？"},
                    {"role": "user", "content": "Do you remember what we chose for the cache?"},
                ],
            },
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    path = str(mem.settings.storage.path)
    runner = CliRunner()
    res = runner.invoke(
        main, ["context", "--user", "u1", "--session", str(session), "--path", path, "--json"]
    )
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    messages, report = out["messages"], out["report"]
    # The summary is in <memory> (get_relevant_memories): a system message of its own,
    # right after the main one (soul, daily log).
    assert messages[0]["content"].startswith("You are Lark.\n\n<daily_log>\n09:00 standup")
    assert messages[1] == {"role": "system", "content": messages[1]["content"]}
    assert messages[1]["content"].startswith("<memory>\n## Short-term")
    # "Do you remember" asks for deep recall; its one hit is the summary <memory> already
    # holds, so it is not repeated, and the report says so.
    assert "".join(m["content"] for m in messages).count("Redis for the session cache") == 1
    assert "<recall>" not in messages[0]["content"]
    assert any("already in <memory>" in str(c) for c in report["cuts"]), report["cuts"]
    assert messages[-1] == {
        "role": "user",
        "content": "Do you remember what we chose for the cache?",
    }
    assert (
        report["total_tokens"] == sum(count_tokens(m["content"]) + 4 for m in messages)
        and report["level"] == "normal"
    )

    # With no room for memory, the hit is in the recall section, with its source and date.
    res = runner.invoke(
        main,
        ["context", "--user", "u1", "--session", str(session), "--path", path, "--json"],
        env={"RECALL_MEMORY_BUDGET_TOKENS": "0"},
    )
    assert res.exit_code == 0, res.output
    messages = json.loads(res.output)["messages"]
    system = messages[0]["content"]
    assert not any("<memory>" in m["content"] for m in messages)
    assert messages[1]["role"] == "user" and "<recall>\n- [note · " in system
    assert "Redis for the session cache" in system

    res = runner.invoke(
        main, ["context", "--user", "u1", "--session", str(session), "--path", path, "--no-recall"]
    )
    assert res.exit_code == 0, res.output
    assert "--- system" in res.output and "<recall>" not in res.output
    assert "=== " in res.output and "level normal" in res.output


def test_context_command_errors_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    runner = CliRunner()
    res = runner.invoke(
        main, ["context", "--user", "u1", "--session", str(bad), "--path", str(tmp_path / "m")]
    )
    assert (
        res.exit_code == 1
        and res.output.startswith("error: the session file")
        and "Traceback" not in res.output
    )
    ends_with_assistant = tmp_path / "s.json"
    ends_with_assistant.write_text(json.dumps([{"role": "assistant", "content": "hi"}]))
    res = runner.invoke(
        main,
        [
            "context",
            "--user",
            "u1",
            "--session",
            str(ends_with_assistant),
            "--path",
            str(tmp_path / "m"),
        ],
    )
    assert res.exit_code == 1 and "pass --input TEXT" in res.output


def test_agent_loop_against_an_openai_compatible_server(
    mem: recall.Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    example = load_example()
    mem.add("We chose Redis for the session cache.", user_id="u1")
    with running() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        args = json.dumps({"query": "session cache"})
        server.script = [
            {"tool_calls": [{"id": "call_1", "type": "function",
                             "function": {"name": "deep_recall", "arguments": args}}]},
            "You chose Redis.",
        ]  # fmt: skip
        answers = example.run(
            mem, "u1", example.openai_model("test-model"), ["try to remember the cache"]
        )
    assert answers == ["You chose Redis."]
    first, second = server.requests
    assert first["tools"][0]["function"]["name"] == "deep_recall"
    assert first["messages"][-1] == {"role": "user", "content": "try to remember the cache"}
    # The turn continued: user message, the call, its result (fitted JSON), no repeated turn.
    tail = second["messages"][-3:]
    assert tail[0] == {"role": "user", "content": "try to remember the cache"}
    assert tail[1]["tool_calls"][0]["id"] == "call_1"
    result = json.loads(tail[2]["content"])
    assert tail[2]["tool_call_id"] == "call_1" and "Redis" in result["hits"][0]["text"]


def test_agent_loop_dry_run(mem: recall.Memory) -> None:
    example = load_example()
    mem.add("The staging deploy hit OOMKilled; we raised the memory limit to 1Gi.", user_id="u2")
    answers = example.run(mem, "u2", example.dry_run_model, ["Try to remember the memory limit"])
    assert answers and "1Gi" in answers[0]


def test_bound_session_sends_compaction_summaries_to_memory(mem: recall.Memory) -> None:
    from recall.context.session import Session

    settings = mem.settings.replace(compact_threshold_tokens=600, compact_target_tokens=200)
    s = Session(mem, "u3", settings=settings)
    for i in range(30):
        s.add_user(f"Step {i}: move the invoices job to queue q{i} and keep retries at {i}.")
        s.add_assistant(f"Moved the invoices job to q{i}; retries stay at {i}.")
    assert len(s.compactions) >= 2 and all(c.stored for c in s.compactions)
    assert len(s.compactions) < 10, "no compaction after every message"
    stored = mem.short_term("u3")
    assert [r.text for r in stored] == [c.summary for c in s.compactions]
    assert "## Primary Request and Intent" in stored[0].text
    unbound = Session(settings=settings)
    for i in range(30):
        unbound.add_user(f"Step {i}: move the invoices job to queue q{i} and keep retries at {i}.")
        unbound.add_assistant(f"Moved the invoices job to q{i}; retries stay at {i}.")
    assert unbound.compactions and not any(c.stored for c in unbound.compactions)


def test_context_command_shows_the_usage_warning(mem: recall.Memory, tmp_path: Path) -> None:
    mem.close()
    turns = [f"Step {i}: the invoices job moves to queue q{i} with {i} retries." for i in range(30)]
    messages: list[dict[str, str]] = []
    for t in turns:
        messages += [{"role": "user", "content": t}, {"role": "assistant", "content": f"Done: {t}"}]
    session = tmp_path / "long.json"
    session.write_text(json.dumps({"messages": messages, "user_input": "status?"}))
    path = str(mem.settings.storage.path)
    # A 2,000-token window: the 1,320-token history is 66% of it.
    env = {"RECALL_CONTEXT_WINDOW_TOKENS": "2000"}
    args = ["context", "--user", "u1", "--session", str(session), "--path", path]
    runner = CliRunner()
    res = runner.invoke(main, [*args, "--json"], env=env)
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)["report"]
    assert report["level"] == "warning" and report["usage"]["budget"] == 2_000
    warning = report["warning"]
    assert warning["level"] == "warning" and warning["action"] == "wrap_up"
    assert warning["message"].endswith("% full: consider wrapping up or summarizing")
    assert warning["rounds_left"] == report["usage"]["rounds_left"] > 0
    res = runner.invoke(main, args, env=env)
    assert res.exit_code == 0, res.output
    assert f"level warning; warning: {warning['message']}" in res.output
    assert f"warning: {warning['message']} (action wrap_up, ~" in res.output
    # Under 60% there is no warning.
    res = runner.invoke(main, [*args, "--json"], env={"RECALL_CONTEXT_WINDOW_TOKENS": "128000"})
    assert json.loads(res.output)["report"]["warning"] is None


@pytest.mark.slow  # two sessions of the example agent loop, ~1.7 s
def test_agent_loop_dry_run_remembers_a_first_session_in_a_later_one(
    embedder: recall.Embedder, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # The first session only states facts; the model's per-turn summaries are all that
    # carries them to the later session, which finds them through deep_recall.
    example = load_example()
    assert example.main(["--dry-run", "--path", str(tmp_path / "mem")]) == 0
    later = capsys.readouterr().out.split("--- a later session", 1)[1]
    explicit, pasted, question, consent = later.split("\nuser: ")[1:]
    # An explicit request: the model calls the tool and answers from its results.
    assert "From memory: The user said: We picked Redis" in explicit
    # A pasted log fills the dry run's 2,500-token window past 60%: the warning shows.
    assert "[warning] context 6" in pasted and "% warning" in pasted
    # A question: the model proposes, the session holds the proposal about it...
    assert "may I?" in question
    asked = "What is the limit for the staging deploy now, after OOMKilled?"
    assert f"[proposal] pending, about: {asked!r}" in question
    # ...the user agrees, the host runs deep_recall with that query, the answer uses it.
    assert f"deep_recall({asked!r})" in consent
    assert "found:" in consent.split("[context]")[0]
    answer = consent.split("assistant: ", 1)[1].split("\n")[0]
    assert answer.startswith("From memory: The user said: ") and "1Gi" in answer
    assert "[memory] stored the turn's summary" in consent


def test_agent_loop_refused_proposal_runs_no_recall(
    mem: recall.Memory, capsys: pytest.CaptureFixture[str]
) -> None:
    example = load_example()
    mem.add("The staging deploy hit OOMKilled; we raised the memory limit to 1Gi.", user_id="u4")
    answers = example.run(
        mem,
        "u4",
        example.dry_run_model,
        ["What is the limit for the staging deploy now, after OOMKilled?", "No, never mind."],
    )
    out = capsys.readouterr().out
    assert "may I?" in answers[0] and "[proposal] pending" in out
    assert "[recall]" not in out  # refused: nothing searched
