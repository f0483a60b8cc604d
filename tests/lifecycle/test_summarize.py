"""The offline extractive summarizer: budgets, key facts, structure, bad input, speed."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recall.errors import InputError
from recall.lifecycle.summarize import SECTIONS, ExtractiveSummarizer, Summarizer, make_summarizer
from recall.settings import Settings
from recall.text import count_tokens

S = ExtractiveSummarizer()

CONVERSATION: list[dict[str, Any]] = [
    {"role": "system", "content": "You are a helpful coding assistant."},
    {
        "role": "user",
        "content": "I'm moving our billing service to Postgres 16. The main module is "
        "src/billing/db.py and the deadline is March 14. It has been a long week honestly.",
    },
    {
        "role": "assistant",
        "content": "Sure, I will look at the schema first.",
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "read_file", "arguments": '{"path": "src/billing/db.py"}'},
            }
        ],
    },
    {
        "role": "tool",
        "tool_call_id": "call_1",
        "content": "class Invoice: amount_cents: int  # 4821 rows\n"
        "OperationalError: connection refused on port 5433",
    },
    {
        "role": "assistant",
        "content": [
            {
                "type": "text",
                "text": "The connection fails because the DSN uses port 5433 instead of 5432. "
                "I fixed the DSN in config/settings.toml. Next we still need to migrate "
                "the invoices table.",
            }
        ],
    },
    {"role": "user", "content": "Great, thanks. Margarethe from finance reviews it on Friday."},
]

FILLER = [
    "That sounds reasonable to me overall.",
    "We talked about it for a while and went back and forth.",
    "It is something to keep in mind as things move along.",
    "There was some general discussion about the approach.",
    "Honestly it could go either way depending on the mood of the team.",
]


def test_it_is_a_summarizer_and_a_callable() -> None:
    assert isinstance(S, Summarizer)
    assert S(CONVERSATION, budget_tokens=600) == S.summarize(CONVERSATION, budget_tokens=600)


def test_short_input_is_kept_whole_in_order_with_roles() -> None:
    out = S.summarize(CONVERSATION, budget_tokens=600)
    assert out.index("Postgres 16") < out.index("port 5433") < out.index("Margarethe")
    assert "Tool result (read_file): class Invoice" in out  # tool_call_id -> tool name
    assert 'called read_file({"path": "src/billing/db.py"})' in out
    assert "helpful coding assistant" not in out  # the host's system prompt is not memory


def test_tight_budget_keeps_numbers_paths_names_and_tool_results() -> None:
    out = S.summarize(CONVERSATION, budget_tokens=90)
    assert count_tokens(out) <= 90
    for fact in ("src/billing/db.py", "5433", "4821"):
        assert fact in out, (fact, out)
    assert "long week" not in out  # chit-chat goes first


def test_facts_in_a_haystack_survive() -> None:
    rng = random.Random(7)
    facts = {
        "The staging cluster runs on node gpu-17 with 96 GB of memory.": "gpu-17",
        "Invoice INV-30417 was refunded by Ottoline.": "INV-30417",
        "The config lives at /etc/recall/recall.toml now.": "/etc/recall/recall.toml",
    }
    lines = [rng.choice(FILLER) + f" (aside {i})" for i in range(200)]
    for j, fact in enumerate(facts):
        lines.insert(40 + 60 * j, fact)
    messages = [
        {"role": "user" if i % 2 else "assistant", "content": line} for i, line in enumerate(lines)
    ]
    out = S.summarize(messages, budget_tokens=200)
    assert count_tokens(out) <= 200
    for needle in facts.values():
        assert needle in out


def test_repeated_sentences_count_once() -> None:
    out = S.summarize("We use Redis 7. " * 50 + "The port is 6380.", budget_tokens=600)
    assert out.count("We use Redis 7.") == 1 and "6380" in out


def test_plain_text_keeps_paragraphs() -> None:
    text = "First paragraph about Alpha 1.\n\nSecond paragraph about Beta 2."
    assert (
        S.summarize(text, budget_tokens=600)
        == "First paragraph about Alpha 1.\nSecond paragraph about Beta 2."
    )


@settings(max_examples=40, deadline=None)
@given(
    budget=st.integers(min_value=16, max_value=400),
    n=st.integers(min_value=1, max_value=40),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_never_over_budget(budget: int, n: int, seed: int) -> None:
    rng = random.Random(seed)
    words = ["cache", "Redis", "port", "6380", "deploy", "src/app.py", "Dana", "timeout", "42"]
    messages = [
        {
            "role": rng.choice(["user", "assistant", "tool"]),
            "content": " ".join(rng.choice(words) for _ in range(rng.randint(1, 60))) + ".",
        }
        for _ in range(n)
    ]
    out = S.summarize(messages, budget_tokens=budget)
    assert out.strip()
    assert count_tokens(out) <= budget


def test_one_giant_sentence_is_cut_to_the_budget() -> None:
    out = S.summarize("word " * 5_000, budget_tokens=50)
    assert 0 < count_tokens(out) <= 50


def test_chinese_conversation() -> None:
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": "我下周三要去杭州出差，住在西湖边的酒店，预算是3000元。"},
        {"role": "assistant", "content": "好的，我记下了。需要我帮你订高铁票吗？"},
        {"role": "user", "content": "要，G7365次，早上八点出发。"},
    ]
    out = S.summarize(messages, budget_tokens=40)
    assert count_tokens(out) <= 40
    assert "G7365" in out or "3000" in out


def test_structured_has_every_section_in_order_within_budget() -> None:
    out = S.summarize(CONVERSATION, budget_tokens=400, structured=True)
    assert count_tokens(out) <= 400
    positions = [out.index(f"## {name}") for name in SECTIONS]
    assert positions == sorted(positions)
    section = {name: out.split(f"## {name}\n", 1)[1].split("\n\n## ", 1)[0] for name in SECTIONS}
    assert "src/billing/db.py" in section["Files and Code Sections"]
    assert "OperationalError" in section["Errors and fixes"]
    assert "Margarethe" in section["All user messages"]
    assert "migrate the invoices table" in section["Pending Tasks"]
    assert "Postgres 16" in section["Primary Request and Intent"]


def test_structured_empty_sections_say_none_and_tiny_budget_is_refused() -> None:
    out = S.summarize("Just one line about Kestrel 9.", budget_tokens=200, structured=True)
    assert out.count("## ") == 8 and "- (none)" in out
    with pytest.raises(InputError, match="too small"):
        S.summarize(CONVERSATION, budget_tokens=40, structured=True)


@pytest.mark.parametrize(
    "states, message",
    [
        ([], "empty"),
        ("   ", "empty"),
        ([{"role": "wizard", "content": "hi"}], "unknown role"),
        (["hello"], "must be an object"),
        ([{"content": "no role"}], "unknown role"),
        ([{"role": "user", "content": 42}], "content"),
        ([{"role": "user", "content": [{"type": "video"}]}], "unknown type"),
        ([{"role": "assistant", "tool_calls": [{"function": {}}]}], "function.name"),
        ([{"role": "user", "content": ""}], "every message is empty"),
        ([{"role": "user", "content": "bad \ud800 surrogate"}], "UTF-8"),
        ("bad \udfff", "UTF-8"),
        ({"role": "user"}, "list of chat messages"),
    ],
)
def test_bad_states_raise_input_error(states: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        S.summarize(states, budget_tokens=100)  # type: ignore[arg-type]


def test_bad_budget_and_oversized_states() -> None:
    with pytest.raises(InputError, match="budget_tokens"):
        S.summarize("x", budget_tokens=3)
    small = ExtractiveSummarizer(max_chars=1_000)
    with pytest.raises(InputError, match="characters"):
        small.summarize([{"role": "user", "content": "x" * 2_000}], budget_tokens=100)


def test_deterministic() -> None:
    assert S.summarize(CONVERSATION, budget_tokens=70) == S.summarize(
        CONVERSATION, budget_tokens=70
    )


def test_make_summarizer_is_offline_without_a_model() -> None:
    assert isinstance(make_summarizer(Settings()), ExtractiveSummarizer)


def test_80k_token_conversation_is_fast() -> None:
    rng = random.Random(1)
    vocab = [f"term{i}" for i in range(3_000)] + ["the", "a", "we", "deploy", "cache"]
    messages: list[dict[str, str]] = []
    while sum(len(m["content"]) for m in messages) < 330_000:  # ~80k tokens
        sent = " ".join(rng.choice(vocab) for _ in range(18)) + f" {rng.randint(0, 99999)}."
        messages.append({"role": rng.choice(["user", "assistant"]), "content": sent * 1})
    start = time.perf_counter()
    out = S.summarize(messages, budget_tokens=600)
    elapsed = time.perf_counter() - start
    assert count_tokens(out) <= 600
    assert elapsed < 20, elapsed
