"""The one LoCoMo parser, and its two readers: ``recall ingest`` and the benchmark loader.

The parity test reads the real LoCoMo file at ``../shared/datasets`` (beside the checkout,
see ``recall bench``'s defaults) and is skipped where that folder is absent.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from recall.bench.data import DatasetError
from recall.bench.locomo import load_locomo
from recall.errors import InputError
from recall.lifecycle.ingest import Update, plan_file
from recall.lifecycle.locomo import parse_locomo_date, parse_sample, read_samples
from recall.settings import Settings

LOCOMO = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "locomo" / "locomo_dev7.json"
_SAMPLE = re.compile(r"\((conv-[^)]+)\) session_\d+$")
_DIA = re.compile(r"\((D\d+:\d+)\)$")


def _sample(**conversation: Any) -> dict[str, Any]:
    conv: dict[str, Any] = {
        "speaker_a": "Ann",
        "speaker_b": "Bo",
        "session_2_date_time": "9:00 am on 9 May, 2023",
        "session_2": [{"speaker": "Ann", "dia_id": "D2:1", "text": "The cat is Tom."}],
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ann", "dia_id": "D1:1", "text": " I adopted a cat. "},
            {"speaker": "Bo", "dia_id": "D1:2", "text": "Look!", "blip_caption": "a dog"},
        ],
    }
    conv.update(conversation)
    return {"sample_id": "conv-x", "conversation": conv, "qa": []}


def test_parse_sample_orders_sessions_and_keeps_turns_as_written() -> None:
    sample = parse_sample(_sample(), "f.json[0]")
    assert sample.sample_id == "conv-x" and sample.where == "f.json[0] (conv-x)"
    assert sample.speakers == ("Ann", "Bo")
    assert [s.key for s in sample.sessions] == ["session_1", "session_2"]
    first = sample.sessions[0]
    assert first.number == 1 and first.date == "1:56 pm on 8 May, 2023"
    assert first.start is not None and (first.start.hour, first.start.day) == (13, 8)
    assert first.turns[0].text == " I adopted a cat. "  # each reader renders it its own way
    assert first.turns[1].caption == "a dog" and first.turns[1].dia_id == "D1:2"
    assert [t.dia_id for _, t in sample.turns()] == ["D1:1", "D1:2", "D2:1"]
    assert parse_locomo_date("sometime in May") is None and parse_locomo_date(None) is None


@pytest.mark.parametrize(
    ("sample", "expected"),
    [
        ({"sample_id": "conv-x", "conversation": []}, "f.json[0] (conv-x): 'conversation' must"),
        ({"conversation": {"speaker_a": "Ann"}}, "f.json[0]: the conversation has no session_1"),
        (_sample(session_2="hello"), "f.json[0] (conv-x) session_2: must be a list of turns"),
        (
            _sample(session_2=[{"speaker": "", "text": "hi"}]),
            "f.json[0] (conv-x) session_2[0]: not a LoCoMo turn: speaker",
        ),
        ("not a sample", "f.json[0]: a LoCoMo sample must be an object"),
    ],
)
def test_parse_errors_name_the_sample_and_session(sample: object, expected: str) -> None:
    with pytest.raises(InputError) as info:
        parse_sample(sample, "f.json[0]")
    assert str(info.value).startswith(expected), str(info.value)


def test_the_benchmark_loader_reports_parser_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([_sample(session_1=[{"speaker": "Ann"}])]), encoding="utf-8")
    with pytest.raises(DatasetError, match=r"\[0\] \(conv-x\) session_1\[0\]: not a LoCoMo turn"):
        load_locomo(bad)
    no_dia = tmp_path / "no_dia.json"
    no_dia.write_text(json.dumps([_sample(session_2=[{"speaker": "A", "text": "x"}])]))
    with pytest.raises(DatasetError, match=r"session_2\[0\]: a turn needs a dia_id"):
        load_locomo(no_dia)
    with pytest.raises(InputError, match="cannot read LoCoMo file"):
        read_samples(tmp_path / "missing.json")


def _ingested_turns(updates: list[Update]) -> dict[str, list[tuple[str, str, str]]]:
    """sample id -> (dia_id, session header, message) per turn, in the order ingested."""
    out: dict[str, list[tuple[str, str, str]]] = {}
    for u in updates:
        found = _SAMPLE.search(u.where)
        assert found is not None, u.where
        header = u.messages[0]["content"]
        for loc, message in zip(u.locations[1:], u.messages[1:], strict=True):
            dia = _DIA.search(loc)
            assert dia is not None, loc
            out.setdefault(found.group(1), []).append((dia.group(1), header, message["content"]))
    return out


def _same_words(ingested: str, indexed: str) -> bool:
    # The two readers render a turn differently on purpose: ingest strips the text and says
    # "[shares a photo: ...]", the index keeps the text and says "[shares ...]".
    def words(s: str) -> list[str]:
        return s.replace("[shares a photo: ", "[shares ").split()

    return words(ingested) == words(indexed)


@pytest.mark.skipif(not LOCOMO.exists(), reason="../shared/datasets/locomo is not here")
def test_ingest_and_the_benchmark_read_the_same_turns() -> None:
    samples = read_samples(LOCOMO)
    ingested = _ingested_turns(plan_file(LOCOMO, Settings()))
    indexed = load_locomo(LOCOMO, "turns")
    by_user = indexed.docs_by_user()
    assert len(samples) == 7 and set(ingested) == set(by_user) == {s.sample_id for s in samples}
    for sample in samples:
        assert sample.sample_id is not None
        turns = sample.turns()
        docs = by_user[sample.sample_id]
        mine = ingested[sample.sample_id]
        # Same turns, same order, in all three.
        assert [t.dia_id for _, t in turns] == [d.split("/", 1)[1] for d in docs]
        assert [t.dia_id for _, t in turns] == [dia for dia, _, _ in mine]
        for (session, turn), doc, (_, header, message) in zip(turns, docs, mine, strict=True):
            text = indexed.corpus[doc]["text"]
            prefix = f"({session.date}) "
            assert text.startswith(prefix) and f"({session.date})." in header
            assert message.startswith(f"{turn.speaker}: ")
            assert _same_words(message, text[len(prefix) :]), (message, text)
            assert indexed.corpus[doc]["thread"] == session.key
            assert session.start is not None
            assert indexed.corpus[doc]["created_at"].date() == session.start.date()
