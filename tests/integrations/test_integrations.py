"""recall.integrations: the LangChain and LlamaIndex retrievers over a real memory (SQLite,
Chroma, the packaged embedders) and the real framework packages."""

from __future__ import annotations

import asyncio
import importlib
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from langchain_core.documents import Document
from llama_index.core.schema import MetadataMode, NodeWithScore, QueryBundle

import recall
from recall.integrations import langchain as lc
from recall.integrations import llamaindex as li

CACHE = "We chose Redis for the session cache because it expires keys on its own."
DB = "The analytics database is PostgreSQL 16 on a dedicated host."
OTHER = "We chose Memcached for the session cache."  # another user's: never returned


@pytest.fixture
def filled(mem: recall.Memory) -> recall.Memory:
    mem.add(CACHE, user_id="u1", id="cache", metadata={"source": "standup", "id": "spoofed"})
    mem.add(DB, user_id="u1", id="db", kind="short_term", created_at="2025-03-04T10:00:00Z")
    mem.add("Lunch on Fridays is at the Thai place.", user_id="u1", id="lunch")
    mem.add(OTHER, user_id="u2", id="other")
    return mem


def test_langchain_documents_are_deep_recalls_hits(filled: recall.Memory) -> None:
    hits = filled.deep_recall("session cache", user_id="u1", top_k=2)
    docs = lc.RecallRetriever(memory=filled, user_id="u1", top_k=2).invoke("session cache")
    assert all(isinstance(d, Document) for d in docs)
    assert [d.id for d in docs] == [h.id for h in hits]
    assert docs[0].id == "cache"
    assert docs[0].page_content == CACHE
    top = docs[0].metadata
    assert top["score"] == hits[0].score
    assert (top["id"], top["kind"], top["source"]) == ("cache", "note", "standup")
    assert top["date"] == hits[0].created_at.date().isoformat()
    assert OTHER not in {d.page_content for d in docs}

    only = lc.RecallRetriever(memory=filled, user_id="u1", kinds=["short_term"])
    [doc] = only.invoke("which database for analytics?")
    meta = doc.metadata
    assert (doc.id, meta["kind"], meta["date"]) == ("db", "short_term", "2025-03-04")


def test_langchain_retriever_checks_its_options(filled: recall.Memory) -> None:
    with pytest.raises(ValueError, match="user_id"):
        lc.RecallRetriever(memory=filled, user_id="")
    with pytest.raises(ValueError, match="topk"):  # a misspelt option is not ignored
        lc.RecallRetriever(memory=filled, user_id="u1", topk=3)  # type: ignore[call-arg]
    with pytest.raises(recall.InputError, match="top_k"):
        lc.RecallRetriever(memory=filled, user_id="u1", top_k=0).invoke("cache")


def test_llamaindex_nodes_are_deep_recalls_hits(filled: recall.Memory) -> None:
    hits = filled.deep_recall("session cache", user_id="u1", top_k=2)
    nodes = li.RecallRetriever(filled, user_id="u1", top_k=2).retrieve("session cache")
    assert all(isinstance(n, NodeWithScore) for n in nodes)
    assert [n.node.node_id for n in nodes] == [h.id for h in hits]
    assert [n.score for n in nodes] == [h.score for h in hits]
    top = nodes[0].node
    assert top.get_content() == CACHE
    assert (top.metadata["id"], top.metadata["kind"]) == ("cache", "note")
    # What an LLM sees: the text with kind and date, not ids and raw scores.
    shown = top.get_content(metadata_mode=MetadataMode.LLM)
    assert CACHE in shown and "kind: note" in shown and "score" not in shown
    assert OTHER not in {n.node.get_content() for n in nodes}

    recent = li.RecallRetriever(filled, user_id="u1", kinds=["short_term"])
    [node] = recent.retrieve(QueryBundle("which database for analytics?"))
    assert (node.node.node_id, node.node.metadata["date"]) == ("db", "2025-03-04")


def _spy_off_loop(
    mem: recall.Memory, monkeypatch: pytest.MonkeyPatch
) -> Callable[[Awaitable[list[Any]]], list[Any]]:
    """Hold deep_recall until the event loop itself lets it go: a search run on the loop's
    own thread would wait for the loop it blocks, and fail after 5 s instead of answering."""
    started, release = threading.Event(), threading.Event()
    threads: list[int] = []
    real = mem.deep_recall

    def held(*args: Any, **kwargs: Any) -> list[recall.Hit]:
        threads.append(threading.get_ident())
        started.set()
        assert release.wait(5), "the event loop was blocked while deep_recall ran"
        return real(*args, **kwargs)

    monkeypatch.setattr(mem, "deep_recall", held)

    def run(call: Awaitable[list[Any]]) -> list[Any]:
        async def main() -> list[Any]:
            task = asyncio.ensure_future(call)
            while not started.is_set():
                await asyncio.sleep(0.005)
            release.set()  # the loop runs while the search is under way
            return await task

        out = asyncio.run(main())
        assert threads and threads[0] != threading.get_ident()
        return out

    return run


def test_langchain_async_runs_off_the_loop(
    filled: recall.Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = _spy_off_loop(filled, monkeypatch)
    docs = run(lc.RecallRetriever(memory=filled, user_id="u1", top_k=1).ainvoke("session cache"))
    assert [d.id for d in docs] == ["cache"]


def test_llamaindex_async_runs_off_the_loop(
    filled: recall.Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # LlamaIndex's own default _aretrieve would run the search on the loop.
    run = _spy_off_loop(filled, monkeypatch)
    nodes = run(li.RecallRetriever(filled, user_id="u1", top_k=1).aretrieve("session cache"))
    assert [n.node.node_id for n in nodes] == ["cache"]


@pytest.mark.parametrize(
    ("module", "framework", "extra"),
    [
        ("recall.integrations.langchain", "langchain_core", "langchain"),
        ("recall.integrations.llamaindex", "llama_index", "llamaindex"),
    ],
)
def test_a_missing_framework_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, module: str, framework: str, extra: str
) -> None:
    for name in [m for m in sys.modules if m == framework or m.startswith(framework + ".")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, framework, None)  # as if not installed
    monkeypatch.delitem(sys.modules, module)
    with pytest.raises(ImportError, match=rf"pip install 'recall-memory\[{extra}\]'"):
        importlib.import_module(module)


@pytest.mark.slow
def test_import_recall_never_imports_a_framework() -> None:
    code = (
        "import sys, recall, recall.integrations\n"
        "loaded = [m for m in sys.modules if m.startswith(('langchain', 'llama_index'))]\n"
        "assert not loaded, loaded\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
