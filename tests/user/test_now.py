"""What is true now (recall.user.now, recall.user.asked): logic, on the stand-in embedder.

The attribute labels here come from a small bank that shares words with the sentences (the
HashEmbedder knows words, not meanings); the packaged bank and the real models are
measured in benchmarks/timeline.py, not here.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

import numpy as np
import pytest

import recall
from recall.context.memory_block import relevant_memories
from recall.index.hits import newest_asserted, reasons
from recall.index.own import adapt_embedder
from recall.lifecycle.article import Article
from recall.models import Fact, Profile, Record
from recall.testing import HashEmbedder
from recall.text.analyzer import Analyzer
from recall.user.asked import asked_attribute
from recall.user.attributes import AttributeSpace, Example
from recall.user.now import UserFacts, facts_of

T0 = datetime(2026, 3, 1, tzinfo=UTC)
BANK = (
    *(
        Example("gym", "en", "statement", t)
        for t in ("my gym membership renewed", "the gym classes are packed", "gym sauna was hot")
    ),
    *(
        Example("bank", "en", "statement", t)
        for t in ("my bank account app", "the bank card expired", "bank transfer fees")
    ),
    *(
        Example("none", "en", "statement", t)
        for t in ("please write an email", "thanks for the recipe", "what is the capital")
    ),
)
SAID = [
    "Renewed my gym membership at Ironworks today.",
    "Please write an email to the plumber.",
    "Cancelled Ironworks, the gym membership at Summit Club is cheaper.",
    "Ran past Ironworks, the gym sauna was broken again.",
    "Thinking of trying the gym classes at Harbor Point.",
    "My bank card expired so I ordered a new one from Fernbank.",
]


def _records() -> list[Record]:
    return [
        Record(
            id=f"t{i}",
            user_id="u",
            kind="turn",
            text=text,
            created_at=T0 + timedelta(days=7 * i),
            tokens=len(text.split()),
            metadata={"role": "user"},
        )
        for i, text in enumerate(SAID)
    ]


def _facts() -> tuple[UserFacts, AttributeSpace]:
    space = AttributeSpace(adapt_embedder(HashEmbedder()), bank=BANK)
    return facts_of({}, _records(), space, Analyzer(stem=True, stopwords=True)), space


def test_the_value_introduced_last_holds_now_not_the_one_mentioned_last() -> None:
    uf, _ = _facts()
    history = uf.history("gym")
    assert [uf.value(f) for f in history] == ["Ironworks", "Summit Club"]
    assert history[0].superseded_by == "Summit Club" and history[-1].superseded_by is None
    # "Ran past Ironworks" is newer, but names the old value: Summit's statement leads.
    assert uf.current("gym") == [2]


def test_a_plan_introduces_no_value() -> None:
    uf, _ = _facts()
    assert all("Harbor" not in f.words for f in uf.history("gym"))


def test_the_asked_attribute_from_any_asker_but_not_the_past_or_someone_else() -> None:
    uf, space = _facts()
    for q in ("Which gym does the user go to?", "user gym membership", "What gym do I use?"):
        assert asked_attribute(q, uf, space) == "gym", q
    assert asked_attribute("Which gym did I go to before?", uf, space) is None
    assert asked_attribute("Which gym did I go to before?", uf, space, past=True) == "gym"
    assert asked_attribute("Which gym does my brother go to?", uf, space) is None
    assert asked_attribute("please write an email", uf, space) is None


def test_memory_answers_the_present_with_the_current_statement_first(tmp_path: Path) -> None:
    with recall.open(tmp_path / "m") as mem:
        for i, text in enumerate(SAID):
            reply = {"role": "assistant", "content": "Noted."}
            mem.update_memory(
                [{"role": "user", "content": text}, reply],
                user_id="u",
                at=T0 + timedelta(days=7 * i),
            )
        mem.flush()
        hits = mem.deep_recall("Which gym does the user go to?", user_id="u", top_k=5)
        assert any(h.current and "Summit" in h.text for h in hits)
        assert not any(h.current for h in hits if "Summit" not in h.text)
        # Of the best hits, the statements newest first, each dated by the newest thing it
        # names as the user first said it (recall.user.novelty): "Ran past Ironworks", said
        # last, speaks of the value Summit replaced and stays under it. The plan changes
        # nothing.
        texts = [h.text for h in hits]
        at = {k: next(i for i, t in enumerate(texts) if k in t) for k in ("Summit", "Ran past")}
        assert at["Summit"] < at["Ran past"], texts
        assert "Thinking of" not in hits[0].text
        assert "Ironworks today" not in hits[0].text
        # A hit above a higher score says why (Hit.reason); one in score order says nothing.
        for p, h in enumerate(hits):
            above_higher = any(h.score < later.score for later in hits[p + 1 :])
            assert (h.reason is not None) == above_higher, (p, h.reason, h.score)
            assert h.reason in (None, "current", "newest")
        # A question about the past gets the value the current one replaced first (its
        # statements marked, as a question about now has its own); nothing of Summit is.
        past = mem.deep_recall("Which gym did I go to before?", user_id="u", top_k=10)
        assert "Ironworks" in past[0].text and past[0].current, [h.text for h in past]
        assert past[0].reason in (None, "current")
        assert not any(h.current for h in past if "Ironworks" not in h.text)
        now = mem.profile("u").now()
        assert "gym" in now and "Summit" in now["gym"].statement
        history = mem.profile("u").history("gym")
        assert history[0].current is False and history[-1].current is True
        block = mem.get_relevant_memories("Which gym does the user go to?", user_id="u")
        assert block.startswith("## Now") and "Summit" in block.split("\n\n")[1]


def test_the_setting_turns_it_off(tmp_path: Path) -> None:
    settings = recall.Settings(path=tmp_path / "m", current_facts=False)
    with recall.open(settings=settings) as mem:
        for i, text in enumerate(SAID):
            mem.update_memory(
                [{"role": "user", "content": text}], user_id="u", at=T0 + timedelta(days=7 * i)
            )
        mem.flush()
        hits = mem.deep_recall("Which gym does the user go to?", user_id="u", top_k=5)
        assert hits and not any(h.current for h in hits)
        assert not mem.get_relevant_memories("user gym", user_id="u").startswith("## Now")


@pytest.mark.parametrize("read_by", ["model", "words"])
def test_the_block_leads_with_now_and_leaves_out_what_a_model_read_as_replaced(
    read_by: Literal["model", "words"],
) -> None:
    def fact(value: str, day: int, by: str | None) -> Fact:
        at = T0 + timedelta(days=day)
        return Fact(
            attribute="gym",
            value=value,
            words=[value.split(maxsplit=1)[0]],
            statement=f"the membership at {value}",
            since=at,
            last_said=at,
            record_ids=[f"r{day}"],
            superseded_by=by,
            read_by=read_by,
        )

    profile = Profile(
        user_id="u",
        facts={"gym": [fact("Ironworks", 0, "Summit Club"), fact("Summit Club", 30, None)]},
    )
    summaries = [
        Record(
            id=f"s{i}",
            user_id="u",
            kind="short_term",
            text=text,
            created_at=T0 + timedelta(days=40 + i),
            tokens=20,
        )
        for i, text in enumerate(
            [
                "User: Ran past Ironworks today. The weather was grim.\nAssistant: Noted.",
                "User: Summit Club added a sauna, unlike Ironworks.\nAssistant: Nice.",
            ]
        )
    ]
    article = Article(dynamic="I know the user trains at Ironworks. They like rye bread.")
    block = relevant_memories(
        "Which gym does the user go to?",
        article,
        summaries,
        lambda: adapt_embedder(HashEmbedder()),
        settings=recall.Settings(),
        profile=profile,
        asked="gym",
    )
    # A model's fact names its value; recall's own reading of the words gives what the user
    # said last of the attribute, dated, and names no value of its own.
    lead = {
        "model": "## Now\n\n- gym: Summit Club (since 2026-03-31) — the membership at Summit Club",
        "words": "## Now\n\n- gym (2026-03-31): the membership at Summit Club",
    }
    assert block.startswith(lead[read_by])
    assert "The weather was grim." in block and "They like rye bread." in block
    assert "unlike Ironworks" in block  # names the current value too
    # What a model read as replaced is left out (it stays in the store and deep_recall);
    # recall's own reading of the words is not sure enough to hide anything.
    hidden = "Ran past Ironworks" not in block and "trains at Ironworks" not in block
    shown = "Ran past Ironworks" in block and "trains at Ironworks" in block
    assert hidden if read_by == "model" else shown


def test_newest_first_moves_statements_only_and_keeps_the_set() -> None:
    records = _records()  # one a week; SAID[4] is a plan
    order = np.array([0, 4, 2, 1, 5, 3], dtype=np.intp)  # fused order, oldest statement first
    out = newest_asserted(order, [records[int(j)] for j in order[:4]])
    # The others among the first four (0, 2, 1) take their places newest first; the
    # plan (4) keeps its place and the hits past the fourth keep theirs.
    assert out.tolist() == [2, 4, 1, 0, 5, 3]
    assert sorted(out.tolist()) == sorted(order.tolist())


def test_a_report_that_ends_in_a_question_is_moved_as_a_statement() -> None:
    # "Joined <new gym>, any tips?" reports before it asks: newest first moves it above the
    # older statement; a question alone, or a plan before the question, keeps its place.
    old = _records()[0]  # "Renewed my gym membership at Ironworks today."
    texts = [
        "Joined the Summit Club gym this week, any tips for a first class?",
        "Is the Summit Club gym any good?",
        "Thinking of the Summit Club gym, is it worth it?",
    ]
    for text, moves in zip(texts, [True, False, False], strict=True):
        new = old.model_copy(update={"id": "n", "text": text, "created_at": T0 + timedelta(60)})
        order = np.array([0, 1], dtype=np.intp)
        out = newest_asserted(order, [old, new])
        assert out.tolist() == ([1, 0] if moves else [0, 1]), text


def test_reasons_say_why_a_hit_stands_above_a_higher_score() -> None:
    fused = np.array([0.9, 0.8, 0.7, 0.6, 0.5])
    rank = fused + np.array([0.0, 0.0, 0.0, 0.0, 0.5])  # the last one inside the time window
    order = np.array([3, 4, 0, 1, 2], dtype=np.intp)
    why = reasons(order, current={3}, moved=set(), fused=fused, rank=rank)
    assert why == ["current", "time_window", None, None, None]
    why = reasons(np.array([2, 0, 1], dtype=np.intp), set(), {2, 0}, fused, fused)
    assert why == ["newest", None, None]
