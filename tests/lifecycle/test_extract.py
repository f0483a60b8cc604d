"""The model's reading of the user (recall.lifecycle.extract): with a model configured,
each update_memory asks it what the user's messages change; the answers are 'fact'
records, dated, and the profile and deep_recall read an attribute from them alone.

The model is the real ``openai`` client talking to a chat-completions server on 127.0.0.1
(tests/chat_server.py) that answers from a script: each update_memory asks for the summary
first, then for the facts. The memory is real (SQLite, embedded Chroma)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from chat_server import ChatServer, running

import recall


@pytest.fixture
def endpoint(monkeypatch: pytest.MonkeyPatch) -> Iterator[ChatServer]:
    with running() as srv:
        monkeypatch.setenv("OPENAI_BASE_URL", srv.url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        yield srv


def _open(tmp_path: Path, **more: object) -> recall.Memory:
    settings = recall.Settings(
        path=tmp_path / "memory", vector_partitions=2, llm_model="test-model", **more
    )
    return recall.open(settings=settings)


def summary(text: str) -> str:
    return json.dumps({"summary": text})


def facts(*changes: tuple[str, str, str, str]) -> str:
    keys = ("op", "attribute", "value", "statement")
    return json.dumps({"facts": [dict(zip(keys, c, strict=True)) for c in changes]})


def chat(user: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": user}, {"role": "assistant", "content": "Nice."}]


JUNE, OCT = datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 10, 1, tzinfo=UTC)


def test_the_model_adds_then_updates_and_the_profile_reads_its_answers(
    endpoint: ChatServer, tmp_path: Path
) -> None:
    endpoint.script = [
        summary("User lives in Glasgow, works at Kelpie Health."),
        facts(
            ("add", "home", "Glasgow", "The user lives in Glasgow."),
            ("add", "Employer", "Kelpie Health", "The user works at Kelpie Health."),
        ),
        summary("User's first week in the Leith flat; still misses Glasgow."),
        facts(("update", "home", "Edinburgh", "The user now lives in Edinburgh (Leith).")),
    ]
    with _open(tmp_path) as mem:
        mem.update_memory(
            chat("Glasgow rain again, and Kelpie's standup ran long."), user_id="u1", at=JUNE
        )
        mem.update_memory(
            chat("First week in the Leith flat, still miss Glasgow."), user_id="u1", at=OCT
        )
        stored = mem.records("u1", kinds=["fact"])
        assert sorted(r.metadata["value"] for r in stored) == [
            "Edinburgh",
            "Glasgow",
            "Kelpie Health",
        ]
        assert {r.created_at for r in stored} == {JUNE, OCT}  # dated when said
        profile = mem.profile("u1")
        home = profile.history("home")
        assert [f.value for f in home] == ["Glasgow", "Edinburgh"]
        assert home[0].superseded_by == "Edinburgh" and home[1].superseded_by is None
        assert home[1].since == OCT
        assert {f.read_by for f in profile.history("home")} == {"model"}
        assert profile.now()["employer"].value == "Kelpie Health"  # the name normalized
        # The second call showed the model the profile its first answer left.
        prompt = endpoint.requests[3]["messages"][0]["content"]
        assert "home: Glasgow" in prompt and "employer: Kelpie Health" in prompt
        assert "First week in the Leith flat" in endpoint.requests[3]["messages"][1]["content"]


def test_a_value_said_again_is_kept_not_changed(endpoint: ChatServer, tmp_path: Path) -> None:
    endpoint.script = [
        summary("User lives in Glasgow."),
        facts(("add", "home", "Glasgow", "The user lives in Glasgow.")),
        summary("Glasgow again."),
        facts(("update", "home", "glasgow", "The user lives in Glasgow.")),
    ]
    with _open(tmp_path) as mem:
        mem.update_memory(chat("I live in Glasgow."), user_id="u1", at=JUNE)
        mem.update_memory(chat("Glasgow is grey today."), user_id="u1", at=OCT)
        assert len(mem.records("u1", kinds=["fact"])) == 1
        assert mem.profile("u1").now()["home"].since == JUNE


def test_a_model_that_fails_changes_nothing_and_loses_nothing(
    endpoint: ChatServer, tmp_path: Path
) -> None:
    endpoint.script = [summary("User moved to Leeds."), 500, 500, 500]
    with _open(tmp_path) as mem:
        done = mem.update_memory(chat("Moved to Leeds last week."), user_id="u1", at=JUNE)
        assert done.summary_id and mem.records("u1", kinds=["fact"]) == []
        assert [r.text for r in mem.short_term("u1")] == ["User moved to Leeds."]


def test_off_by_setting_and_offline_by_default(endpoint: ChatServer, tmp_path: Path) -> None:
    endpoint.script = [summary("User lives in Glasgow.")]
    with _open(tmp_path, llm_extract_facts=False) as mem:
        mem.update_memory(chat("I live in Glasgow."), user_id="u1", at=JUNE)
        assert mem.records("u1", kinds=["fact"]) == [] and len(endpoint.requests) == 1


@pytest.mark.real_model
def test_a_question_about_the_present_gets_the_models_fact_first(
    endpoint: ChatServer, tmp_path: Path, real_embedder: recall.Embedder
) -> None:
    endpoint.script = [
        summary("User lives in Glasgow."),
        facts(("add", "home", "Glasgow", "The user lives in Glasgow.")),
        summary("User got the keys to a flat in Leith."),
        facts(("update", "home", "Edinburgh", "The user lives in Edinburgh now.")),
        summary("User visited Glasgow for a birthday."),
        facts(),
    ]
    settings = recall.Settings(
        path=tmp_path / "memory", vector_partitions=2, llm_model="test-model"
    )
    with recall.open(settings=settings, embedder=real_embedder) as mem:
        mem.update_memory(chat("Rainy Glasgow morning, as ever."), user_id="u1", at=JUNE)
        mem.update_memory(chat("Got the keys to the Leith flat today!"), user_id="u1", at=OCT)
        mem.update_memory(chat("Back in Glasgow for Morven's birthday."), user_id="u1")
        hits = mem.deep_recall("Which city does the user live in?", user_id="u1", top_k=5)
        assert hits[0].current and "Edinburgh" in hits[0].text
        # The block leads with it and leaves out what the model read as replaced.
        block = mem.get_relevant_memories("Which city does the user live in?", user_id="u1")
        assert block.startswith("## Now\n\n- home: Edinburgh (since 2026-10-01)")
        assert "Glasgow" not in block  # neither a sentence nor the offline reading's guess
