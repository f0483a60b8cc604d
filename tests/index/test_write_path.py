"""Indexed when written: every write path leaves the vectors current before it returns.

A query after writes embeds no record (only its own text); ``recall check`` and the
open-time count check tell indexing that is merely pending from vectors removed outside
recall; the user's partition is rebuilt in the background, and a partition missing a
vector is never cached.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path

import chromadb
import numpy as np
import pytest
from click.testing import CliRunner

import recall
from recall.cli import main
from recall.index.layout import index_key
from recall.inputs import depth_kinds
from recall.models import Record
from recall.store import content_hash

SMALL = {"short_term_capacity": 2, "promote_count": 2, "vector_partitions": 2}


class Counting:
    """The real embedder, counting the documents it embeds."""

    def __init__(self, inner: recall.Embedder) -> None:
        self.inner = inner
        self.documents = 0
        self.dimension = inner.dimension

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.documents += len(texts)
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> np.ndarray:
        return self.inner.embed_query(text)


@pytest.fixture
def small(tmp_path: Path, embedder: recall.Embedder) -> Iterator[recall.Memory]:
    m = recall.open(settings=recall.Settings(path=tmp_path / "memory", **SMALL))
    m._embedder = Counting(embedder)  # type: ignore[assignment]
    yield m
    m.close()


def chat(i: int) -> list[dict[str, str]]:
    return [
        {"role": "user", "content": f"Day {i}: my sister Ana moved to Lisbon for a design job."},
        {"role": "assistant", "content": "How does she like it?"},
        {"role": "user", "content": f"She loves the river walks, day {i} she sent photos."},
    ]


def in_step(m: recall.Memory, user: str) -> bool:
    want = m._store.hashes(user)
    return not m._sync.lag(user) and m._vectors.hashes(user) == want


def test_update_memory_promotion_and_corrections_are_indexed_before_returning(
    small: recall.Memory,
) -> None:
    for i in range(5):  # capacity 2: promotions run, Dynamic passages are written
        small.update_memory(chat(i), user_id="u")
        assert in_step(small, "u"), f"lagging after update {i}"
    assert small.long_term("u").version >= 1
    assert small.records("u", kinds=["dynamic"])
    small.edit_fact("u", "Lisbon", "Porto")
    assert in_step(small, "u")
    # The background rebuild after the write labels the user's statements (recall.user.now).
    small._retriever.partitions.wait()
    embedded = small.embedder().documents  # type: ignore[attr-defined]
    hits = small.deep_recall("where did Ana move", user_id="u")
    assert hits
    assert small.embedder().documents == embedded  # type: ignore[attr-defined]


def test_background_jobs_are_indexed_when_they_finish(small: recall.Memory) -> None:
    for i in range(3):
        small.update_memory(chat(i), user_id="bg", background=True)
    assert small.flush(timeout=120)
    assert in_step(small, "bg")
    assert len(small._store.hashes("bg")) > 3


def test_an_outage_leaves_the_write_stored_and_pending(
    small: recall.Memory, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def down(*_a: object, **_k: object) -> None:
        raise recall.StoreError("the vector store is unreachable")

    monkeypatch.setattr(small._vectors, "upsert", down)
    with caplog.at_level(logging.WARNING, logger="recall"):
        result = small.update_memory("Ana got a dog named Miso", user_id="u")
    assert small._store.records("u", ids=[result.summary_id])  # the write stands
    assert small._sync.lag("u")
    assert "indexing of u pending" in caplog.text
    monkeypatch.undo()
    assert small.deep_recall("what is the dog called", user_id="u")[0].id == result.summary_id


def _note(user: str, text: str, rid: str = "crash-1") -> Record:
    now = datetime.now(UTC)
    return Record(id=rid, user_id=user, kind="note", text=text, created_at=now, tokens=3)


def _store_only(path: Path, user: str, text: str) -> None:
    """A record committed to the store whose indexing never ran (a crash between them)."""
    with recall.open(settings=recall.Settings(path=path, **SMALL)) as m:
        m._store.put([_note(user, text)])


@pytest.mark.real_model
def test_pending_is_reported_as_pending_not_as_removed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "memory"
    with recall.open(settings=recall.Settings(path=path, **SMALL)) as m:
        m.add_many([{"text": f"heron number {i} by the lake"} for i in range(4)], user_id="u")
        m.add("the otter ate a trout", user_id="v")
    _store_only(path, "u", "a kingfisher on the fence")
    with caplog.at_level(logging.INFO, logger="recall"):
        recall.open(settings=recall.Settings(path=path, **SMALL)).close()
    assert "removed outside recall" not in caplog.text
    assert "indexing pending for 1 users" in caplog.text

    env = {"RECALL_VECTOR_PARTITIONS": "2", "ANONYMIZED_TELEMETRY": "False"}
    res = CliRunner().invoke(main, ["check", "--path", str(path), "--json"], env=env)
    assert res.exit_code == 0, res.output
    status = {u["user_id"]: u["status"] for u in json.loads(res.stdout)["users"]}
    assert status == {"u": "pending", "v": "ok"}
    text = CliRunner().invoke(main, ["check", "--path", str(path)], env=env)
    assert text.exit_code == 0 and "1 users pending indexing" in text.output


def test_vectors_removed_beside_a_pending_user_are_still_found(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # One bucket: a pending user must not hide that another user's vectors were deleted.
    path = tmp_path / "memory"
    one = {**SMALL, "vector_partitions": 1}
    with recall.open(settings=recall.Settings(path=path, **one)) as m:
        m.add_many([{"text": f"heron number {i}"} for i in range(3)], user_id="u")
        ids = m.add_many([{"text": f"otter number {i}"} for i in range(3)], user_id="v")
        key = index_key(m.spec)
        name = m._vectors.collection_name(m._vectors.bucket("v"))
    with recall.open(settings=recall.Settings(path=path, **one)) as m:
        m._store.put([_note("u", "a kingfisher")])
    client = chromadb.PersistentClient(path=str(path / "chroma"))
    try:
        client.get_collection(name).delete(where={"rid": ids[0]})
    finally:
        client.close()  # type: ignore[attr-defined]
    with caplog.at_level(logging.INFO, logger="recall"):
        m = recall.open(settings=recall.Settings(path=path, **one))
    try:
        assert "disagrees with the store for 1 users" in caplog.text
        assert m._store.index_version(key, "v") == -1  # marked: its next query repairs it
        hits = m.deep_recall("otter number 0", user_id="v", top_k=3)
        assert ids[0] in [h.id for h in hits]
    finally:
        m.close()


def test_the_partition_is_rebuilt_after_a_write(small: recall.Memory) -> None:
    small.add_many([{"text": f"note {i} about the garden"} for i in range(5)], user_id="p")
    small._retriever.partitions.wait()
    kinds = tuple(sorted(set(depth_kinds(None, small.settings))))
    built = small._retriever.partitions._fresh(("p", kinds))
    assert built is not None and len(built.records) == 5
    assert built.version == small._store.version("p")
    small.update_memory("the tomatoes need water", user_id="p")
    small._retriever.partitions.wait()
    again = small._retriever.partitions._fresh(("p", kinds))
    assert again is not None and again.version == small._store.version("p")


def test_a_partition_missing_a_vector_is_not_cached(small: recall.Memory) -> None:
    small.add_many([{"text": "the heron"}, {"text": "the otter"}], user_id="m")
    small._retriever.partitions.wait()
    small._retriever.forget("m")
    # A record committed whose upsert has not run yet: the partition built now lacks it.
    small._store.put([_note("m", "the kingfisher", rid="late")])
    kinds = tuple(sorted(set(depth_kinds(None, small.settings))))
    part = small._retriever.partitions.get("m", kinds, small.embedder())
    assert not part.complete and len(part.records) == 3
    assert small._retriever.partitions._fresh(("m", kinds)) is None


@pytest.mark.slow
@pytest.mark.real_model
def test_recall_ingest_leaves_every_user_in_step(tmp_path: Path) -> None:
    chat_file, path = tmp_path / "chat.json", tmp_path / "memory"
    talk = [m for i in range(6) for m in chat(i)]
    chat_file.write_text(json.dumps({"messages": talk}), encoding="utf-8")
    env = {
        "RECALL_SHORT_TERM_CAPACITY": "2",
        "RECALL_PROMOTE_COUNT": "2",
        "RECALL_VECTOR_PARTITIONS": "2",
        "RECALL_INGEST_CHUNK_TOKENS": "60",
        "ANONYMIZED_TELEMETRY": "False",
    }
    run = CliRunner().invoke
    res = run(
        main, ["ingest", str(chat_file), "--user", "u", "--path", str(path), "--quiet"], env=env
    )
    assert res.exit_code == 0, res.output
    check = run(main, ["check", "--path", str(path)], env=env)
    assert check.exit_code == 0 and "all users in step" in check.output, check.output
    assert "removed outside recall" not in check.output


@pytest.mark.slow
def test_a_lagging_index_keeps_the_partition_uncached(small: recall.Memory) -> None:
    small.add_many([{"text": "the heron"}, {"text": "the otter"}], user_id="lag")
    small._retriever.partitions.wait()
    small._retriever.forget("lag")
    assert not any(k[0] == "lag" for k in small._retriever.partitions._building)
    # Every id has a vector, but the index is behind the store: a vector may be stale.
    small._store.set_index_version(index_key(small.spec), "lag", -1)
    kinds = tuple(sorted(set(depth_kinds(None, small.settings))))
    part = small._retriever.partitions.get("lag", kinds, small.embedder())
    assert not part.complete and small._retriever.partitions._fresh(("lag", kinds)) is None


def _from_chroma(m: recall.Memory, user: str, kinds: tuple[str, ...]) -> np.ndarray:
    """The user's partition matrix built the old way: every vector read from Chroma."""
    m._retriever.forget(user)  # no partition to carry rows over from, no recent rows
    part = m._retriever.partitions.get(user, kinds, m.embedder())
    assert part.matrix is not None and part.complete
    return part.matrix


def test_a_rebuild_after_writes_reads_no_vector_from_chroma(
    small: recall.Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    kinds = tuple(sorted(set(depth_kinds(None, small.settings))))
    ids = small.add_many([{"text": f"note {i} about the pond"} for i in range(6)], user_id="r")
    small._retriever.partitions.wait()
    reads: list[str] = []

    def counted(name: str) -> Callable[..., object]:
        real = getattr(small._vectors, name)

        def read(*args: object) -> object:
            reads.append(name)
            return real(*args)

        return read

    for name in ("load", "vectors"):
        monkeypatch.setattr(small._vectors, name, counted(name))
    writes: list[Callable[[], object]] = [
        lambda: small.add("the heron fishes at dawn", user_id="r"),  # a new record
        lambda: small.add("note 0 is now about the otter", user_id="r", id=ids[0]),  # new text
        lambda: small.delete(ids[1], user_id="r"),
        lambda: small.update_memory("we planted tomatoes by the pond", user_id="r"),
    ]
    for write in writes:  # each rebuild after its write (one started before a write's
        write()  # upsert would fetch that row by id, and is not cached)
        small._retriever.partitions.wait()
    part = small._retriever.partitions._fresh(("r", kinds))
    assert part is not None and part.complete and part.matrix is not None
    assert reads == []  # every row came from the old partition or from what was written
    order = [r.id for r in part.records]
    monkeypatch.undo()
    fresh = _from_chroma(small, "r", kinds)
    rebuilt = small._retriever.partitions._fresh(("r", kinds))
    assert rebuilt is not None and [r.id for r in rebuilt.records] == order
    # Chroma hands back its own float32 copy (within an ulp of what was written).
    np.testing.assert_allclose(part.matrix, fresh, rtol=0, atol=1e-6)


def test_a_record_rewritten_elsewhere_is_read_from_chroma(small: recall.Memory) -> None:
    kinds = tuple(sorted(set(depth_kinds(None, small.settings))))
    small.add_many(
        [{"text": "the heron"}, {"text": "the otter"}],
        user_id="w",
    )
    small._retriever.partitions.wait()
    # Another process rewrites a record: the store and Chroma change, our recent rows not.
    other = _note("w", "the kingfisher dives", rid=small._store.records("w")[0].id)
    version = small._store.put([other])["w"]
    vec = small.embedder().embed_documents([other.text])
    small._vectors.upsert("w", [other.id], vec, [other.kind], [content_hash(other.text)])
    small._vectors.recent.drop("w")
    small._store.set_index_version(index_key(small.spec), "w", version)
    part = small._retriever.partitions.get("w", kinds, small.embedder())
    row = [r.id for r in part.records].index(other.id)
    assert part.matrix is not None
    np.testing.assert_allclose(part.matrix[row], vec[0], rtol=0, atol=1e-6)
    np.testing.assert_allclose(part.matrix, _from_chroma(small, "w", kinds), rtol=0, atol=1e-6)


def test_a_summary_written_alone_is_indexed_without_the_content_diff(
    small: recall.Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    diffs: list[str] = []
    real = small._vectors.hashes

    def hashes(user_id: str) -> dict[str, str]:
        diffs.append(user_id)
        return real(user_id)

    monkeypatch.setattr(small._vectors, "hashes", hashes)
    small.update_memory("the tomatoes need water", user_id="s")
    small.update_memory(chat(1), user_id="s")  # a summary and its turns
    assert diffs == [] and not small._sync.lag("s")
    small.update_memory("the basil needs sun", user_id="s")  # over capacity: a promotion
    assert diffs == ["s"] and not small._sync.lag("s")
    hits = small.deep_recall("who moved to Lisbon?", user_id="s", top_k=5)
    assert any("Lisbon" in h.text for h in hits)
