"""AsyncMemory has every public method of Memory, with the same parameters (issue 25), and
the ones added for that work. HashEmbedder: no model is loaded here."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import anyio
import pytest

import recall
import recall.index.embed
from recall.server.aio import AsyncMemory
from recall.testing import HashEmbedder

#: AsyncMemory's own public methods, beyond Memory's.
ASYNC_ONLY = {"aclose", "run", "run_for"}


def _public_methods(cls: type) -> dict[str, Any]:
    return {
        name: value
        for name, value in inspect.getmembers(cls, callable)
        if not name.startswith("_") and not isinstance(value, type)
    }


def _parameters(fn: Any) -> list[tuple[str, Any, Any]]:
    params = list(inspect.signature(fn).parameters.values())[1:]  # self
    return [(p.name, p.kind, p.default) for p in params]


def test_async_memory_has_every_public_method_of_memory() -> None:
    sync, aio = _public_methods(recall.Memory), _public_methods(AsyncMemory)
    assert "deep_recall" in sync and "forget" in sync and "update_memory" in sync
    missing = sorted(set(sync) - set(aio))
    assert not missing, f"AsyncMemory lacks {missing}"
    extra = sorted(set(aio) - set(sync) - ASYNC_ONLY)
    assert not extra, f"AsyncMemory has methods Memory has not: {extra}"


@pytest.mark.parametrize("name", sorted(_public_methods(recall.Memory)))
def test_each_async_method_takes_the_same_parameters(name: str) -> None:
    sync, aio = getattr(recall.Memory, name), getattr(AsyncMemory, name)
    assert inspect.iscoroutinefunction(aio), f"AsyncMemory.{name} is not async"
    assert _parameters(aio) == _parameters(sync), f"AsyncMemory.{name}'s parameters differ"
    assert inspect.getdoc(aio), f"AsyncMemory.{name} has no docstring"


def test_the_added_async_methods_behave_as_the_sync_ones(tmp_path: Path) -> None:
    settings = recall.Settings(path=tmp_path / "memory", vector_partitions=2)
    own = HashEmbedder()
    loaded = dict(recall.index.embed._loaded)

    async def main() -> None:
        async with AsyncMemory(recall.open(settings=settings, embedder=own)) as amem:
            assert (await amem.embedder()).id == own.id
            await amem.add("We chose Redis for the session cache.", user_id="u1", id="r")
            await amem.add("Old note", user_id="u1", id="old", created_at="2020-01-01")
            hits = await amem.deep_recall("session cache", user_id="u1", top_k=1, kinds=["note"])
            assert [h.id for h in hits] == ["r"]
            early = await amem.deep_recall("note", user_id="u1", until="2021-01-01")
            assert [h.id for h in early] == ["old"]
            await amem.update_memory("I am allergic to penicillin.", user_id="u1")
            short = await amem.short_term("u1")
            assert short and short == amem.memory.short_term("u1")
            assert not await amem.should_summarize([{"role": "user", "content": "hi"}])
            gone = await amem.forget("u1", "Redis")
            assert gone.found and "r" in gone.deleted
            assert [r.id for r in await amem.records("u1", ["note"])] == ["old"]
            await amem.close()  # and again on leaving the block: closing is idempotent

    anyio.run(main)
    assert recall.index.embed._loaded == loaded  # no packaged model was loaded
