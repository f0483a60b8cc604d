"""The Bedrock is never cut: a memory block gives way by chapter, the Bedrock last.

The exact counts are tiktoken's; the end-to-end case uses the real Memory (SQLite, embedded
Chroma, MiniLM, offline summarizer and reconstructor) and the real builder.
"""

from __future__ import annotations

import itertools
import re
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

import recall
from recall.context.builder import ContextBuilder
from recall.context.memory_block import SHORT_TERM_HEADING
from recall.context.session import Session
from recall.context.system_sections import fit_memory
from recall.settings import Settings
from recall.text import count_tokens

SOUL = "You are Lark, a careful assistant."
PEANUTS = "I am allergic to peanuts; never suggest a dish with them."
NOTES = [
    f"Note {i}: the user mentioned errand number {i} today, near the station." for i in range(400)
]
BLOCK = f"## Bedrock\n\n{PEANUTS}\n\n## Dynamic\n\n" + "\n\n".join(NOTES)


def memory_message(built: recall.BuiltContext) -> str:
    """The memory's own system message, right after the main one."""
    main, memory = built.messages[:2]
    assert main["role"] == memory["role"] == "system" and "<memory>" not in main["content"]
    assert memory["content"].startswith("<memory>\n") and memory["content"].endswith("</memory>")
    return str(memory["content"])


def test_the_peanut_allergy_survives_a_block_far_over_budget() -> None:
    assert count_tokens(BLOCK) > 6_000  # the memory budget is 4,000
    b = ContextBuilder()
    built = b.build(session=Session(), soul=SOUL, user_input="What's for dinner?", memory=BLOCK)
    text = memory_message(built)
    assert f"## Bedrock\n\n{PEANUTS}\n\n## Dynamic\n\n" in text
    # Dynamic gives way from its end: the article writes a chapter newest first.
    kept = [i for i, note in enumerate(NOTES) if f"\n{note}\n" in text]
    assert kept == list(range(len(kept))) and 100 < len(kept) < 400
    r = built.report
    assert r.sections["memory"] <= b.settings.context.memory_budget_tokens
    (cut,) = r.cuts
    dropped = 400 - len(kept)
    assert cut.section == "memory" and cut.reason == (
        f"over its budget: dropped {dropped} paragraphs ({dropped} Dynamic; the Bedrock kept whole)"
    )


def test_chapters_give_way_short_term_then_dynamic_then_evolutionary() -> None:
    chapters = {
        "Bedrock": ["B0: my name is Ottoline.", "B1: allergic to penicillin."],
        "Evolutionary": [f"E{i}: I prefer terse answers, variant {i}." for i in range(4)],
        "Dynamic": [f"D{i}: the kiln in bay {i} was repaired." for i in range(4)],
        "Short-term": [f"S{i}: we talked about order {i}." for i in range(4)],
    }
    block = "\n\n".join(f"## {name}\n\n" + "\n\n".join(p) for name, p in chapters.items())
    bedrock = "## Bedrock\n\n" + "\n\n".join(chapters["Bedrock"])
    order = ["Short-term", "Dynamic", "Evolutionary"]
    for budget in range(0, count_tokens(block) + 2):
        out, dropped, note = fit_memory(block, budget, count_tokens)
        assert count_tokens(out) <= budget
        lost = {n: [p for p in ps if p not in out] for n, ps in chapters.items()}
        for earlier, later in itertools.pairwise(order):
            if lost[later]:  # a chapter loses nothing while an earlier one still has some
                assert len(lost[earlier]) == len(chapters[earlier]), (budget, out)
        for name in order:  # within a chapter, the last paragraphs go first
            kept = [p for p in chapters[name] if p in out]
            assert kept == chapters[name][: len(kept)]
        if count_tokens(bedrock) <= budget:
            assert out.startswith(bedrock) and not lost["Bedrock"]
            assert out == block or "the Bedrock kept whole" in note
        elif budget:
            assert "the Bedrock alone is over the room: cut" in note
            assert out == "" or (out.startswith("## Bedrock\n\nB") and "…[truncated" in out)
        assert dropped == sum(map(len, lost.values())) or out == block


def test_a_bedrock_alone_over_the_room_is_cut_visibly_and_reported() -> None:
    bedrock = "\n\n".join(
        f"Core fact {i}: something the user never wants forgotten." for i in range(20)
    )
    block = f"## Bedrock\n\n{bedrock}\n\n## Dynamic\n\nThe kiln was fixed."
    st_ = Settings(memory_budget_tokens=80)
    built = ContextBuilder(st_).build(session=Session(), soul=SOUL, user_input="hi", memory=block)
    text = memory_message(built)
    assert text.startswith("<memory>\n## Bedrock\n\nCore fact 0") and "…[truncated" in text
    assert "kiln" not in text and built.report.sections["memory"] <= 80
    (cut,) = built.report.cuts
    assert cut.reason.endswith("(1 Dynamic; the Bedrock alone is over the room: cut)")


def test_the_system_budget_shrinks_other_chapters_before_the_bedrock() -> None:
    # The memory fits its own budget; the system budget (soul + memory) does not hold it.
    st_ = Settings(system_budget_tokens=3_000, soul_budget_tokens=3_000)
    soul = "You are Lark. " + "Be kind and careful. " * 200
    built = ContextBuilder(st_).build(session=Session(), soul=soul, user_input="hi", memory=BLOCK)
    text = memory_message(built)
    assert PEANUTS in text and built.report.sections["system"] <= 3_000 + 4
    reasons = [c.reason for c in built.report.cuts]
    assert reasons[-1].startswith("over the system budget: dropped")
    assert reasons[-1].endswith("Dynamic; the Bedrock kept whole)")


PARA = st.lists(st.sampled_from(["kiln", "Redis", "记忆", "the", "1Gi", "。", "order"]), min_size=1)


@pytest.mark.slow
@given(
    chapters=st.lists(
        st.tuples(
            st.sampled_from(["Bedrock", "Evolutionary", "Dynamic", "Short-term", "Notes"]),
            st.lists(PARA.map(" ".join), max_size=6),
        ),
        max_size=5,
        # A memory block names each chapter once (get_relevant_memories writes it so).
        unique_by=lambda chapter: chapter[0],
    ),
    budget=st.integers(0, 400),
)
@hsettings(max_examples=150, deadline=None)
def test_fit_memory_never_over_and_bedrock_whole_when_it_fits(chapters, budget) -> None:  # type: ignore[no-untyped-def]
    block = "\n\n".join(f"## {name}\n\n" + "\n\n".join(paras) for name, paras in chapters)
    out, _, _ = fit_memory(block, budget, count_tokens)
    assert count_tokens(out) <= budget
    bedrocks = [
        "## Bedrock\n\n" + "\n\n".join(p) for name, p in chapters if name == "Bedrock" and p
    ]
    if len(bedrocks) == 1 and count_tokens(bedrocks[0]) <= budget:
        assert bedrocks[0] in out


# --- the real memory ----------------------------------------------------------------------
@pytest.mark.slow
def test_a_real_block_at_its_default_budget_keeps_its_bedrock(settings: recall.Settings) -> None:
    s = settings.replace(short_term_capacity=2, promote_count=2)
    with recall.open(settings=s) as mem:
        mem.update_memory(
            "My name is Ottoline Quarrington. I am allergic to penicillin.", user_id="u1"
        )
        mem.update_memory("I prefer terse answers. The annealer in bay 3 was fixed.", user_id="u1")
        mem.update_memory("Order 4471 ships to Vienna next week.", user_id="u1")
        bedrock = mem.long_term("u1").bedrock.strip()
        assert "penicillin" in bedrock
        t0 = datetime(2024, 5, 1, tzinfo=UTC)
        mem.add_many(
            [
                {
                    "text": f"Day {i}: we glazed batch {i} of goblets for client {i} in Murano "
                    f"and logged kiln {i % 4} at {900 + i} degrees for the Vienna order.",
                    "created_at": t0 + timedelta(days=i),
                }
                for i in range(150)
            ]
            # Short ones too: a whole-summary block then fills its budget to the last tokens.
            + [{"text": f"Tea break {i} noted.", "created_at": t0} for i in range(30)],
            user_id="u1",
        )
        block = mem.get_relevant_memories("How hot was the kiln?", user_id="u1")
        # A filler costs 15 tokens, so the block ends within 15 of its budget: a builder 15
        # tokens tighter must cut it, whatever the article above it holds.
        b = ContextBuilder(s.replace(memory_budget_tokens=s.context.memory_budget_tokens - 15))
        room = b.section_room("memory")
        assert room < count_tokens(block) <= s.context.memory_budget_tokens
        assert block.startswith(f"## Bedrock\n\n{bedrock}")
        built = b.build(session=Session(), soul=SOUL, user_input="How hot?", memory=block)
        text = memory_message(built)
        assert text.startswith(f"<memory>\n## Bedrock\n\n{bedrock}")
        # The lowest-ranked summary went, not the Bedrock nor the best summary.
        summaries = block.split(f"{SHORT_TERM_HEADING}\n\n", 1)[1].split("\n\n")
        assert summaries[0] in text and summaries[-1] not in text
        (cut,) = built.report.cuts
        assert re.fullmatch(
            r"over its budget: dropped \d+ paragraphs \(\d+ Short-term; the Bedrock kept whole\)",
            cut.reason,
        )
        # Fitted to the builder's room, the block is not cut again.
        fitted = mem.get_relevant_memories("How hot was the kiln?", user_id="u1", max_tokens=room)
        again = b.build(session=Session(), soul=SOUL, user_input="How hot?", memory=fitted)
        assert again.report.cuts == () and memory_message(again) == f"<memory>\n{fitted}\n</memory>"
