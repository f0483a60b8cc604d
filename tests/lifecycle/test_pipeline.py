"""The memory lifecycle end to end: update_memory, promotion, Dynamic passages, journal.

Offline implementations throughout (extractive summarizer, deterministic reconstructor with
the real MiniLM model), real SQLite and embedded Chroma in temp folders.
"""

from __future__ import annotations

import faulthandler
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

import recall
from recall.errors import InputError
from recall.lifecycle.article import Article
from recall.lifecycle.pipeline import Lifecycle, parse_answer_with_summary
from recall.settings import Settings
from recall.store import SQLiteStore

NAMES = ["Ottoline", "Bartholomew", "Wilhelmina", "Evander", "Rosalind"]


def fact(i: int) -> str:
    return f"{NAMES[i % 5]} reported that shipment {48_100 + i} reached depot {i + 7} intact."


def _lifecycle(tmp_path: Path, embedder: recall.Embedder) -> tuple[SQLiteStore, Lifecycle]:
    store = SQLiteStore(tmp_path / "recall.sqlite3")
    return store, Lifecycle(store, Settings(path=tmp_path), lambda: embedder)


# --- short-term -------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.real_model
def test_summaries_are_stored_and_searchable(mem: recall.Memory) -> None:
    res = mem.update_memory("We picked Redis 7.2 for the session cache on port 6380.", user_id="u1")
    assert not res.queued and not res.promoted and res.short_term_count == 1
    messages = [
        {"role": "user", "content": "Where are the nightly backups kept?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "ls", "arguments": '{"dir": "/srv/backup"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "nightly-2024-05-01.tar.zst 14 GB"},
        {"role": "assistant", "content": "They are in /srv/backup, the latest is 14 GB."},
    ]
    res2 = mem.update_memory(messages, user_id="u1")
    short = mem.short_term("u1")
    assert [r.id for r in short] == [res.summary_id, res2.summary_id]
    assert short[0].text == "We picked Redis 7.2 for the session cache on port 6380."
    assert "/srv/backup" in short[1].text and short[1].metadata["source"] == "messages"
    hits = mem.deep_recall("which cache did we choose?", user_id="u1", top_k=1)
    assert hits[0].id == res.summary_id and hits[0].kind == "short_term"
    recent = mem.deep_recall("nightly backup size", user_id="u1", top_k=1, depth="recent")
    assert recent[0].id == res2.summary_id
    # The messages' user and assistant turns are kept verbatim too (the archive tier), one
    # thread per call; the tool result is not a turn.
    turns = mem.records("u1", kinds=["turn"])
    assert [t.metadata["role"] for t in turns] == ["user", "assistant", "assistant"]
    assert {t.metadata["thread"] for t in turns} == {res2.job_id}
    hits = mem.deep_recall("nightly backup size", user_id="u1", top_k=3)
    assert "They are in /srv/backup, the latest is 14 GB." in [h.text for h in hits]


# --- promotion --------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.real_model
def test_25_updates_promote_the_oldest_5_and_keep_their_facts(mem: recall.Memory) -> None:
    texts = [fact(i) for i in range(25)]
    texts[3] = "My name is Evander and I work as a courier; shipment 48103 reached depot 10."
    results = [mem.update_memory(t, user_id="u1") for t in texts]
    assert [r.promoted for r in results].count(True) == 1 and results[20].promoted
    assert results[20].versions == [1] and results[-1].version == 1
    promoted = results[20].promoted_ids
    assert promoted == [r.summary_id for r in results[:5]]

    short = mem.short_term("u1")
    assert len(short) == 20 and short[0].id == results[5].summary_id
    archives = mem.records("u1", kinds=["archive"])
    assert len(archives) == 5
    assert sorted(a.metadata["summary_id"] for a in archives) == sorted(promoted)
    assert {a.metadata["chapter_version"] for a in archives} == {1}
    assert sorted(a.text for a in archives) == sorted(texts[:5])  # nothing lost

    lt = mem.long_term("u1")
    assert lt.version == 1 and lt.promoted_ids == promoted
    assert lt.render().startswith("<Bedrock>") and "<Dynamic>" in lt.render()
    assert mem.long_term("u1", version=0).is_empty()
    with pytest.raises(InputError, match="no long-term version 2"):
        mem.long_term("u1", version=2)

    # Every promoted summary's key facts (number and depot), looked up with deep_recall in
    # Dynamic. A fact the reconstructor routed elsewhere is flagged as lost from the index
    # and must then be in another chapter; the archive keeps every original either way.
    kept, lost = 0, []
    for i in range(5):
        hits = mem.deep_recall(f"shipment {48_100 + i}", user_id="u1", kinds=["dynamic"])
        if any(str(48_100 + i) in h.text and f"depot {i + 7}" in h.text for h in hits):
            kept += 1
        else:
            lost.append(i)
            assert str(48_100 + i) in lt.bedrock + lt.evolutionary
    print(
        f"\nkey facts of promoted summaries found in Dynamic: {kept}/5 = {kept / 5:.0%}; "
        f"routed to other chapters (not indexed): {lost}"
    )
    assert kept >= 4
    # And the archived originals stay searchable when asked for.
    hits = mem.deep_recall("shipment 48100", user_id="u1", kinds=["archive"], top_k=1)
    assert hits[0].kind == "archive" and "48100" in hits[0].text


@pytest.mark.slow
def test_dynamic_passages_swap_versions_atomically(mem: recall.Memory) -> None:
    seen_versions = []
    for i in range(40):
        res = mem.update_memory(fact(i), user_id="u1")
        if res.promoted:
            hits = mem.deep_recall("shipment depot", user_id="u1", kinds=["dynamic"], top_k=50)
            versions = {h.metadata["chapter_version"] for h in hits}
            assert versions == {res.version}, versions  # never two versions at once
            stored = {r.metadata["chapter_version"] for r in mem.records("u1", ["dynamic"])}
            assert stored == {res.version}
            seen_versions.append(res.version)
    assert seen_versions == [1, 2, 3, 4]
    assert len(mem.short_term("u1")) == 20
    assert len(mem.records("u1", ["archive"])) == 20
    # Every past version stays readable.
    assert [mem.long_term("u1", v).version for v in range(5)] == [0, 1, 2, 3, 4]


# --- concurrency ------------------------------------------------------------------------
def _hammer(life: Lifecycle, users: list[str], per_thread: int) -> list[list[int]]:
    versions: list[list[int]] = [[] for _ in range(8)]
    errors: list[BaseException] = []

    def work(t: int) -> None:
        try:
            for i in range(per_thread):
                user = users[t % len(users)]
                res = life.update_memory(
                    f"{user} thread {t} item {i} code {t * 1000 + i}.", user_id=user
                )
                versions[t].extend(res.versions)
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors
    return versions


def _check_user(store: SQLiteStore, life: Lifecycle, user: str, expected: int) -> None:
    records = store.records(user, kinds=["short_term", "archive"])
    texts = [r.text for r in records]
    assert len(texts) == expected and len(set(texts)) == expected  # none lost, none twice
    assert all(t.startswith(f"{user} ") for t in texts)  # no cross-user leak
    archives = [r for r in records if r.kind == "archive"]
    assert len(archives) == expected - 20
    assert len({r.metadata["summary_id"] for r in archives}) == len(archives)
    last = life.long_term(user).version
    assert last == len(archives) // 5
    promoted = [i for v in range(1, last + 1) for i in life.long_term(user, v).promoted_ids]
    assert len(promoted) == len(set(promoted)) == len(archives)  # never promoted twice
    assert {a.metadata["chapter_version"] for a in archives} == set(range(1, last + 1))
    dyn = {r.metadata["chapter_version"] for r in store.records(user, kinds=["dynamic"])}
    assert dyn <= {last}


@pytest.mark.slow
def test_8_threads_one_user(tmp_path: Path, embedder: recall.Embedder) -> None:
    store, life = _lifecycle(tmp_path, embedder)
    versions = _hammer(life, ["solo"], 50)
    flat = [v for vs in versions for v in vs]
    assert sorted(flat) == list(range(1, 77))  # 400 summaries -> 76 promotions, each once
    for vs in versions:
        assert vs == sorted(vs)  # versions strictly increasing as each thread sees them
    _check_user(store, life, "solo", 400)
    life.close()
    store.close()


@pytest.mark.slow
def test_8_threads_8_users(tmp_path: Path, embedder: recall.Embedder) -> None:
    store, life = _lifecycle(tmp_path, embedder)
    users = [f"user{k}" for k in range(8)]
    _hammer(life, users, 50)
    for user in users:
        _check_user(store, life, user, 50)
        assert life.long_term(user).version == 6
    life.close()
    store.close()


def test_a_writer_on_an_older_version_retries(tmp_path: Path, embedder: recall.Embedder) -> None:
    # Two lifecycles on one file (as two processes would be): B promotes while A reconstructs.
    store_a, life_a = _lifecycle(tmp_path, embedder)
    store_b, life_b = _lifecycle(tmp_path, embedder)
    inner = life_a.reconstructor

    class Interleaved:
        fired = False

        def reconstruct(self, article: Article, stimuli: Sequence[str]) -> Article:
            if not Interleaved.fired:
                Interleaved.fired = True
                assert life_b._promote_all("u1")[0]  # B wins the race to version 1
            return inner.reconstruct(article, stimuli)

    life_a.reconstructor = Interleaved()
    results = [life_a.update_memory(fact(i), user_id="u1") for i in range(21)]
    assert life_a.conflicts == 1
    assert not results[-1].promoted  # A re-read, found the work done, and stopped
    assert life_a.long_term("u1").version == 1
    assert len(store_a.records("u1", ["archive"])) == 5
    assert len(life_a.short_term("u1")) == 16
    for life, store in ((life_a, store_a), (life_b, store_b)):
        life.close()
        store.close()


@pytest.mark.slow
def test_readers_never_see_two_dynamic_versions(mem: recall.Memory) -> None:
    for i in range(20):
        mem.update_memory(fact(i), user_id="u1")
    mixed: list[set[int]] = []
    stop = threading.Event()

    def read() -> None:
        while not stop.is_set():
            hits = mem.deep_recall("shipment depot", user_id="u1", kinds=["dynamic"], top_k=50)
            versions = {h.metadata["chapter_version"] for h in hits}
            if len(versions) > 1:
                mixed.append(versions)

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for i in range(20, 40):
            mem.update_memory(fact(i), user_id="u1")
    finally:
        stop.set()
        reader.join()
    assert mem.long_term("u1").version == 4
    assert mixed == []


# --- background mode and crash safety -----------------------------------------------------
@pytest.mark.slow
@pytest.mark.real_model
def test_background_returns_at_once_and_flush_waits(mem: recall.Memory) -> None:
    results = [
        mem.update_memory([{"role": "user", "content": fact(i)}], user_id="bg", background=True)
        for i in range(22)
    ]
    assert all(r.queued for r in results)
    assert mem.flush(timeout=60)
    assert len(mem.short_term("bg")) == 17
    assert mem.long_term("bg").version == 1
    ids = {r.id for r in mem.short_term("bg")} | {
        a.metadata["summary_id"] for a in mem.records("bg", ["archive"])
    }
    assert ids == {r.summary_id for r in results}
    # The last update answers: its summary, or its user turn (the same words; a user's own
    # statement may lead as what holds now, recall.user.now).
    top = mem.deep_recall("shipment 48121", user_id="bg", top_k=1)[0].id
    job = str(results[21].summary_id).removeprefix("st-")
    assert top == results[21].summary_id or top.startswith(f"turn-{job}-")


def test_close_drains_the_queue(settings: Settings, embedder: recall.Embedder) -> None:
    mem = recall.open(settings=settings)
    res = mem.update_memory("Queued just before close: ticket 5150.", user_id="u1", background=True)
    mem.close()
    with recall.open(settings=settings) as again:
        assert [r.id for r in again.short_term("u1")] == [res.summary_id]
        assert again._store.unfinished_jobs() == []


_CHILD = textwrap.dedent(
    """
    import os, sys, time
    from pathlib import Path
    from recall.lifecycle.pipeline import Lifecycle
    from recall.lifecycle.reconstruct import OfflineReconstructor
    from recall.settings import Settings
    from recall.store import SQLiteStore
    from recall.lifecycle.summarize import ExtractiveSummarizer

    mode, folder = sys.argv[1], Path(sys.argv[2])
    marker = folder / "marker"

    def hang():
        if mode == "background":
            # Kill only once all 30 writes were acknowledged (update_memory returned): one
            # that never returned may be lost, and the test would count it.
            while not (folder / "all_queued").exists():
                time.sleep(0.01)
        marker.write_text("in the middle")
        time.sleep(600)

    class HangingReconstructor:
        def reconstruct(self, article, stimuli):
            hang()

    class HangOnThird(ExtractiveSummarizer):
        calls = 0
        def summarize(self, states, **kw):
            HangOnThird.calls += 1
            if HangOnThird.calls == 3:
                hang()
            return super().summarize(states, **kw)

    store = SQLiteStore(folder / "recall.sqlite3")
    settings = Settings(path=folder)
    if mode == "promotion":
        life = Lifecycle(store, settings, None, reconstructor=HangingReconstructor())
        for i in range(25):
            life.update_memory(f"Ottoline reported shipment {48100 + i} at depot {i + 7}.",
                               user_id="u1")
    else:
        life = Lifecycle(store, settings, None, summarizer=HangOnThird(),
                         reconstructor=HangingReconstructor())
        for i in range(30):
            msg = [{"role": "user", "content": f"Shipment {48100 + i} reached depot {i + 7}."}]
            life.update_memory(msg, user_id="u1", background=True)
        (folder / "all_queued").write_text("30")
        life.flush()
    """
)


def _run_and_kill(tmp_path: Path, mode: str) -> Path:
    folder = tmp_path / "memory"
    folder.mkdir()
    script = tmp_path / "child.py"
    script.write_text(_CHILD)
    env = {**os.environ, "PYTHONPATH": str(Path(recall.__file__).parent.parent)}
    proc = subprocess.Popen([sys.executable, str(script), mode, str(folder)], env=env)
    deadline = time.monotonic() + 60
    while not (folder / "marker").exists():
        assert proc.poll() is None, "the child exited before reaching the crash point"
        assert time.monotonic() < deadline
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return folder


@pytest.mark.real_model
@pytest.mark.slow
def test_sigkill_in_the_middle_of_a_promotion(tmp_path: Path, embedder: recall.Embedder) -> None:
    folder = _run_and_kill(tmp_path, "promotion")
    store = SQLiteStore(folder / "recall.sqlite3")
    assert len(store.records("u1", kinds=["short_term"])) == 21  # the 21st is in, not promoted
    assert store.records("u1", kinds=["archive", "dynamic"]) == []
    store.close()
    with recall.open(settings=Settings(path=folder, vector_partitions=4)) as mem:
        assert mem.flush(timeout=60)  # resumes the journaled job: the promotion is redone
        assert len(mem.short_term("u1")) == 16
        assert len(mem.records("u1", ["archive"])) == 5
        assert mem.long_term("u1").version == 1
        hits = mem.deep_recall("shipment 48102", user_id="u1", kinds=["dynamic"], top_k=1)
        assert "48102" in hits[0].text  # the index caught up with the store
        assert mem._store.version("u1") == mem._store.index_version(mem._sync.key, "u1")
        assert mem._store.unfinished_jobs() == []


@pytest.mark.real_model
@pytest.mark.slow
def test_sigkill_in_the_middle_of_a_background_job(
    tmp_path: Path, embedder: recall.Embedder
) -> None:
    folder = _run_and_kill(tmp_path, "background")
    with recall.open(settings=Settings(path=folder, vector_partitions=4)) as mem:
        assert mem.flush(timeout=120)
        records = mem.records("u1", ["short_term", "archive"])
        texts = Counter(r.text for r in records)
        assert len(texts) == 30 and set(texts.values()) == {1}  # each job done exactly once
        assert len(mem.short_term("u1")) == 20 and mem.long_term("u1").version == 2
        assert mem._store.unfinished_jobs() == []
        hits = mem.deep_recall("shipment 48102", user_id="u1", kinds=["dynamic"], top_k=1)
        assert "48102" in hits[0].text


@pytest.mark.slow
def test_reopened_folder_resumes_jobs_without_a_lifecycle_call(
    tmp_path: Path, embedder: recall.Embedder
) -> None:
    # An app that reopens the folder and only searches must still see the journaled work.
    folder = _run_and_kill(tmp_path, "background")
    with recall.open(settings=Settings(path=folder, vector_partitions=4)) as mem:
        deadline = time.monotonic() + 120
        while len(mem.records("u1", ["short_term", "archive"])) < 30:
            if time.monotonic() > deadline:
                # Say why (a job failed, or a thread is stuck): CI saw this once, unexplained.
                faulthandler.dump_traceback(all_threads=True)
                jobs = [mem._store.job(j) for j in mem._store.unfinished_jobs()]
                failed = mem._store.failed_jobs()
                pytest.fail(f"journaled jobs were not resumed on open: {jobs} failed: {failed}")
            time.sleep(0.1)
        hits = mem.deep_recall("Shipment 48129 depot 36", user_id="u1", top_k=3)
        assert any("48129" in h.text for h in hits)


# --- bad input ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "states, message",
    [
        ("", "empty"),
        ("   \n", "empty"),
        ([], "empty"),
        ({"role": "user", "content": "x"}, "list of chat messages"),
        (42, "list of chat messages"),
        ([{"role": "robot", "content": "x"}], "unknown role"),
        ([{"role": "user", "content": {"text": "x"}}], "content"),
        ([{"role": "user"}], "every message is empty"),
        ([["user", "hello"]], "must be an object"),
        ("bad \ud83d surrogate", "UTF-8"),
        ([{"role": "user", "content": "bad \udc00"}], "UTF-8"),
        ("x" * 5_000_000, "characters"),
        ([{"role": "user", "content": "x" * 5_000_000}], "characters"),
        ("nul \x00 byte", "NUL"),
    ],
)
def test_bad_input_leaves_the_store_unchanged(
    mem: recall.Memory, states: object, message: str
) -> None:
    mem.update_memory("A first valid summary.", user_id="u1")
    before = (mem._store.version("u1"), mem._store.counts())
    for background in (False, True):
        with pytest.raises(InputError, match=message):
            mem.update_memory(states, user_id="u1", background=background)  # type: ignore[arg-type]
    assert (mem._store.version("u1"), mem._store.counts()) == before
    assert mem._store.unfinished_jobs() == []


def test_bad_user_id(mem: recall.Memory) -> None:
    with pytest.raises(InputError, match="user_id"):
        mem.update_memory("fine text", user_id="")
    with pytest.raises(InputError, match="user_id"):
        mem.short_term(None)  # type: ignore[arg-type]


# --- helpers ------------------------------------------------------------------------------
def test_should_summarize_at_the_threshold(mem: recall.Memory) -> None:
    small = [{"role": "user", "content": "hello"}]
    assert mem.should_summarize(small) is False
    word = "memory "  # one token each
    big = [
        {"role": "user", "content": word * 40_000},
        {"role": "assistant", "content": word * 40_000},
    ]
    assert mem.should_summarize(big) is True
    with pytest.raises(InputError, match="unknown role"):
        mem.should_summarize([{"role": "x", "content": "y"}])


@pytest.mark.parametrize(
    "text, answer, summary, parsed",
    [
        (
            '{"answer": "Paris.", "summary": "User asked the capital."}',
            "Paris.",
            "User asked the capital.",
            True,
        ),
        ('```json\n{"answer": "A", "summary": "S"}\n```', "A", "S", True),
        ('{"answer": "' + "long " * 40 + '"}', "long " * 40, ("long " * 40)[:100], False),
        (
            "plain text, not JSON " * 10,
            "plain text, not JSON " * 10,
            ("plain text, not JSON " * 10)[:100],
            False,
        ),
        (
            '{"answer": 5, "summary": "s"}',
            '{"answer": 5, "summary": "s"}',
            '{"answer": 5, "summary": "s"}',
            False,
        ),
        ("", "", "", False),
    ],
)
def test_parse_answer_with_summary(text: str, answer: str, summary: str, parsed: bool) -> None:
    out = parse_answer_with_summary(text)
    assert (out.answer, out.summary, out.parsed) == (answer, summary, parsed)


@pytest.mark.slow
def test_benchmark_line(tmp_path: Path, embedder: recall.Embedder) -> None:
    store, life = _lifecycle(tmp_path, embedder)
    embedder.embed_documents(["warm up"])
    promo: list[float] = []
    start = time.perf_counter()
    n = 200
    for i in range(n):
        t0 = time.perf_counter()
        res = life.update_memory(fact(i), user_id="bench")
        if res.promoted:
            promo.append(time.perf_counter() - t0)
    elapsed = time.perf_counter() - start
    promo.sort()
    p50 = promo[len(promo) // 2] * 1000
    line = (
        f"BENCH lifecycle offline: update_memory {n / elapsed:.0f} summaries/s over {n} calls; "
        f"promotion p50 {p50:.0f} ms over {len(promo)} promotions"
    )
    print("\n" + line)
    (tmp_path / "bench.json").write_text(json.dumps({"line": line}))
    assert len(promo) == (n - 20) // 5
    life.close()
    store.close()
