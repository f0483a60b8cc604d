"""Per-turn summaries: the model asked for {"answer", "summary"}, each turn's summary sent to
the memory in the background, the states instead once they reach the threshold.

The model is the real ``openai`` client talking to a chat-completions server on 127.0.0.1
that can, like older compatible servers, reject ``response_format`` types it lacks with an
HTTP 400. The memory is real (SQLite, embedded Chroma, the packaged embedders).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from chat_server import ChatServer, running

import recall
from recall.context.builder import ContextBuilder
from recall.context.session import Session
from recall.errors import InputError, LLMError
from recall.lifecycle.answer import ANSWER_INSTRUCTION, ask_with_summary, with_instruction
from recall.llm import LLMClient

SOUL = "You are Lark, a careful assistant."


@pytest.fixture
def endpoint() -> Iterator[ChatServer]:
    with running() as srv:
        yield srv


@pytest.fixture
def client(endpoint: ChatServer) -> LLMClient:
    return LLMClient("test-model", base_url=endpoint.url, api_key="sk-test", timeout_s=5)


def reply(answer: str, summary: str) -> str:
    return json.dumps({"answer": answer, "summary": summary})


MESSAGES = [
    {"role": "system", "content": SOUL},
    {"role": "user", "content": "Book the Lisbon trip for June 4."},
]


def test_asks_with_a_json_schema_and_the_instruction(
    endpoint: ChatServer, client: LLMClient
) -> None:
    endpoint.script = [reply("Booked for June 4.", "User booked the Lisbon trip for June 4.")]
    out = ask_with_summary(client, MESSAGES)
    assert (out.answer, out.summary, out.parsed) == (
        "Booked for June 4.",
        "User booked the Lisbon trip for June 4.",
        True,
    )
    (req,) = endpoint.requests
    fmt = req["response_format"]
    assert fmt["type"] == "json_schema"
    assert set(fmt["json_schema"]["schema"]["required"]) == {"answer", "summary"}
    # The instruction joins the first system message; the conversation is unchanged.
    assert req["messages"] == [
        {"role": "system", "content": f"{SOUL}\n\n{ANSWER_INSTRUCTION}"},
        MESSAGES[1],
    ]
    assert MESSAGES[0]["content"] == SOUL  # the caller's messages are not touched


def test_without_a_system_message_the_instruction_comes_first() -> None:
    out = with_instruction([{"role": "user", "content": "hi"}], "JSON please")
    assert out == [{"role": "system", "content": "JSON please"}, {"role": "user", "content": "hi"}]


def test_a_400_on_json_schema_falls_back_to_json_mode(
    endpoint: ChatServer, client: LLMClient
) -> None:
    endpoint.rejects = {"json_schema"}
    endpoint.script = ['```json\n{"answer": "Yes.", "summary": "User asked; said yes."}\n```']
    out = ask_with_summary(client, MESSAGES)
    assert (out.answer, out.summary, out.parsed) == ("Yes.", "User asked; said yes.", True)
    kinds = [(r.get("response_format") or {}).get("type") for r in endpoint.requests]
    assert kinds == ["json_schema", "json_object"]


def test_no_json_support_at_all_degrades_to_the_fallback_parser(
    endpoint: ChatServer, client: LLMClient
) -> None:
    endpoint.rejects = {"json_schema", "json_object"}
    text = "Sure! The flight TP1337 leaves Lisbon at 09:05 on June 4, gate 12, boarding 08:35. " * 2
    endpoint.script = [text]
    out = ask_with_summary(client, MESSAGES, fallback_chars=40)
    assert (out.answer, out.summary, out.parsed) == (text, text[:40], False)
    assert [("response_format" in r) for r in endpoint.requests] == [True, True, False]


def test_a_failing_endpoint_is_an_llm_error(endpoint: ChatServer, client: LLMClient) -> None:
    endpoint.script = [500, reply("ok", "fine")]
    assert ask_with_summary(client, MESSAGES).answer == "ok"  # retried once
    endpoint.script = [503, 503]
    with pytest.raises(LLMError, match="HTTP 503"):
        ask_with_summary(client, MESSAGES)


TURNS = [
    (
        "We moved the billing database to Postgres 16 last week.",
        "Noted: billing now runs on Postgres 16.",
        "User said the billing database moved to Postgres 16 last week.",
    ),
    (
        "The nightly backup runs at 02:30 UTC on the Frankfurt replica.",
        "Got it: nightly backup at 02:30 UTC, Frankfurt replica.",
        "User said the nightly backup runs at 02:30 UTC on the Frankfurt replica.",
    ),
    (
        "Please call me Mira from now on.",
        "Will do, Mira.",
        "User asked to be called Mira.",
    ),
]


def test_a_short_chat_leaves_its_summaries_in_memory(
    mem: recall.Memory, endpoint: ChatServer, client: LLMClient
) -> None:
    session = Session(mem, "u1", per_turn_summaries=True)
    builder = ContextBuilder(mem.settings)
    endpoint.script = [reply(answer, summary) for _, answer, summary in TURNS]
    for turn, answer, summary in TURNS:
        built = builder.build(session=session, soul=SOUL, user_input=turn)
        out = ask_with_summary(client, built.messages)
        assert out.summary == summary
        session.add_user(turn)
        recorded = session.record_reply(out)
        assert recorded.sent == "summary" and recorded.reply.answer == answer
        assert recorded.update is not None and recorded.update.queued  # in the background
    # The history holds the answers, not the JSON.
    assert [m["content"] for m in session.messages[1::2]] == [a for _, a, _ in TURNS]
    assert mem.flush(timeout=120)
    stored = [r.text for r in mem.short_term("u1")]
    assert stored == [summary for _, _, summary in TURNS]
    hits = mem.deep_recall("when does the nightly backup run?", user_id="u1")
    assert hits and "02:30 UTC" in hits[0].text
    # The model saw the earlier turns in the history of the later ones.
    assert TURNS[0][1] in json.dumps(endpoint.requests[-1]["messages"])


def test_a_reply_text_is_read_and_bad_json_degrades(mem: recall.Memory) -> None:
    session = Session(mem, "u2", per_turn_summaries=True)
    session.add_user("What is the capital of Portugal?")
    first = session.record_reply(reply("Lisbon.", "User asked for Portugal's capital: Lisbon."))
    assert first.reply.parsed and first.sent == "summary"
    session.add_user("And its river?")
    raw = "The Tagus river flows through Lisbon into the Atlantic Ocean near Cascais." * 3
    second = session.record_reply(raw)  # not JSON: the answer is the text, summary its start
    assert not second.reply.parsed and session.messages[-1]["content"] == raw
    assert second.reply.summary == raw[: mem.settings.lifecycle.answer_summary_chars]
    assert mem.flush(timeout=120)
    assert [r.text for r in mem.short_term("u2")] == [
        "User asked for Portugal's capital: Lisbon.",
        second.reply.summary,
    ]


def test_states_go_instead_once_they_reach_the_threshold(
    settings: recall.Settings, embedder: recall.Embedder
) -> None:
    mem = recall.open(settings=settings.replace(summarize_threshold_tokens=120))
    try:
        session = Session(mem, "u3", per_turn_summaries=True)
        sent = []
        for i in range(6):
            session.add_user(f"Server web-{i} in rack {i + 10} needs a new power supply unit.")
            done = session.record_reply(
                reply(f"Logged: web-{i}, rack {i + 10}.", f"web-{i} in rack {i + 10} needs a PSU.")
            )
            sent.append(done.sent)
        # About 35 tokens a turn: the fourth turn brings the states to 120; then anew.
        assert sent == ["summary", "summary", "summary", "states", "summary", "summary"]
        assert mem.flush(timeout=120)
        texts = [r.text for r in mem.short_term("u3")]
        assert len(texts) == 6
        # The states' summary (made by the memory's summarizer) holds the turns themselves.
        assert "web-0" in texts[3] and "web-3" in texts[3] and "rack 13" in texts[3]
    finally:
        mem.close()


def test_without_the_option_the_reply_only_joins_the_history(mem: recall.Memory) -> None:
    session = Session(mem, "u4")
    session.add_user("hi")
    done = session.record_reply(reply("Hello!", "User greeted."))
    assert (done.sent, done.update) == (None, None)
    assert session.messages[-1] == {"role": "assistant", "content": "Hello!"}
    assert mem.flush(timeout=60) and mem.short_term("u4") == []
    with pytest.raises(InputError, match="per_turn_summaries needs a memory"):
        Session(per_turn_summaries=True)
    with pytest.raises(InputError, match="reply must be a string"):
        session.record_reply(42)  # type: ignore[arg-type]
