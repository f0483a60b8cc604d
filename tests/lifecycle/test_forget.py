"""Memory.forget: one call removes a fact from every tier, its indexes and old versions."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import recall
from recall.lifecycle.forget import needle, scrub_text

SMALL = {"short_term_capacity": 2, "promote_count": 2, "vector_partitions": 2}


@pytest.fixture
def mem(tmp_path: Path, embedder: recall.Embedder) -> Iterator[recall.Memory]:
    m = recall.open(settings=recall.Settings(path=tmp_path / "memory", **SMALL))
    m._embedder = embedder
    yield m
    m.close()


def chat(i: int) -> list[dict[str, str]]:
    return [
        {"role": "user", "content": f"I work as a data engineer at Quantix in Toronto. Day {i}."},
        {"role": "assistant", "content": "Noted. How is the team?"},
        {"role": "user", "content": f"My sister Ana moved to Lisbon for a design job on day {i}."},
    ]


def everywhere(mem: recall.Memory, word: str) -> list[str]:
    """Every place ``word`` is still found, as readable names."""
    found = [f"{r.kind}:{r.id}" for r in mem.records("u1") if word.lower() in r.text.lower()]
    for row in mem._store.articles("u1"):
        if word.lower() in f"{row.bedrock}{row.evolutionary}{row.dynamic}".lower():
            found.append(f"article v{row.version}")
    hits = mem.deep_recall(f"where does the user work {word}", user_id="u1", depth="archive")
    found += [f"hit {h.kind}" for h in hits if word.lower() in h.text.lower()]
    block = mem.get_relevant_memories(f"tell me about {word}", user_id="u1")
    if word.lower() in block.lower():
        found.append("memory block")
    return found


def test_forget_removes_a_fact_from_every_tier(mem: recall.Memory) -> None:
    for i in range(5):
        mem.update_memory(chat(i), user_id="u1")
    mem.add("Quantix pays on the 25th. The office has a piano.", user_id="u1")
    kinds = {r.kind for r in mem.records("u1") if "quantix" in r.text.lower()}
    assert {"short_term", "archive", "turn", "note"} <= kinds
    assert "Quantix" in mem.long_term("u1").render()
    before = mem.long_term("u1").version

    done = mem.forget("u1", "quantix")

    assert done.found and done.version == before + 1
    assert done.scrubbed_versions  # the older versions held it too
    assert everywhere(mem, "Quantix") == []
    assert everywhere(mem, "Lisbon")  # the probe does find what was not forgotten
    # The rest of a rewritten record stays: the note keeps its other sentence, the
    # summaries keep the sister.
    notes = [r.text for r in mem.records("u1", kinds=["note"])]
    assert notes == ["The office has a piano."]
    assert any("Lisbon" in r.text for r in mem.records("u1", kinds=["short_term", "archive"]))
    assert mem.deep_recall("where did Ana move", user_id="u1", depth="archive")
    for v in range(1, done.version + 1):
        assert "quantix" not in mem.long_term("u1", version=v).render().lower()
    # Repeating finds nothing, and writes no new version.
    again = mem.forget("u1", "Quantix")
    assert not again.found and again.version is None
    assert mem.long_term("u1").version == done.version


def test_forget_by_ids_and_validation(mem: recall.Memory) -> None:
    a = mem.add("The door code is 4412.", user_id="u1")
    b = mem.add("I like tea.", user_id="u1")
    done = mem.forget("u1", ids=[a, "nope"])
    assert done.deleted == [a] and done.version is None
    assert [r.id for r in mem.records("u1")] == [b]
    with pytest.raises(recall.InputError, match=r"text .* or ids"):
        mem.forget("u1")
    with pytest.raises(recall.InputError, match="at least 2"):
        mem.forget("u1", " a ")
    with pytest.raises(recall.InputError, match="string"):
        mem.forget("u1", 4412)  # type: ignore[arg-type]
    with pytest.raises(recall.InputError):
        mem.forget("u1", ids=[""])
    # Another user's records are not touched.
    mem.add("I like tea too.", user_id="u2")
    mem.forget("u1", "tea")
    assert [r.text for r in mem.records("u2")] == ["I like tea too."]
    assert mem.records("u1") == []


@pytest.mark.parametrize(
    ("text", "fact", "expected"),
    [
        ("I live in Toronto. I like tea.", "toronto", "I like tea."),
        ("I like tea.", "coffee", None),
        ("Toronto is home.", "TORONTO", ""),
        ("A b.\n\nI moved to  Toronto today. Fine.", "moved to toronto", "A b.\n\nFine."),
        # Across a sentence end: the paragraph goes whole.
        ("One. Quantix. Toronto.\n\nKeep me.", "quantix. toronto", "Keep me."),
        ("我住在多伦多。我喜欢茶。", "多伦多", "我喜欢茶。"),
    ],
)
def test_scrub_text(text: str, fact: str, expected: str | None) -> None:
    assert scrub_text(text, needle(fact)) == expected


def test_rewrite_articles_on_both_stores(backend: str | None, tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from recall.lifecycle.forget import scrub_rows
    from recall.store import open_store
    from recall.store.base import ArticleRow

    store = open_store(tmp_path, backend)
    try:
        at = datetime(2026, 1, 1, tzinfo=UTC)
        for v, text in enumerate(["I work at Quantix. I like tea.", "I like tea."], 1):
            row = ArticleRow("u1", v, text, "", "Quantix pays well.", at, ("st-1",))
            with store.transaction() as tx:
                assert tx.insert_article(row)
        rows = scrub_rows(store.articles("u1"), needle("quantix"))
        assert [r.version for r in rows] == [1, 2]
        assert store.rewrite_articles(rows) == 2
        one, two = store.articles("u1")
        assert (one.bedrock, one.dynamic, one.promoted) == ("I like tea.", "", ("st-1",))
        assert (two.bedrock, two.dynamic) == ("I like tea.", "")
    finally:
        store.close()
