"""Where a spec's index lives: its Chroma collections, bucket count and state keys.

The facade and ``recall reindex`` both build a spec's vector index from a memory folder;
they share these helpers so that a rebuilt index is found where queries look for it.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from ..errors import IndexStaleError, StoreError, chroma_errors
from ..settings import Settings
from ..settings.redact import redact
from ..store import Store
from .spec import OWN_PREFIX, SPEC_DIR, IndexSpec, load_spec
from .vector import VectorIndex, chroma_client

__all__ = [
    "FINGERPRINT_KEY",
    "PARTITIONS_KEY",
    "SPEC_NAME_KEY",
    "check_fingerprint",
    "folder_spec",
    "index_key",
    "vector_index",
    "vector_partitions",
]

#: Store meta key holding the fingerprint of the spec the index was built with.
FINGERPRINT_KEY = "index_fingerprint"
PARTITIONS_KEY = "vector_partitions"
#: Store meta key holding the name (or path) of the spec the folder was last switched to.
SPEC_NAME_KEY = "index_spec_name"

log = logging.getLogger(__name__)


def vector_partitions(store: Store, settings: Settings) -> int:
    """The bucket count of this memory folder: fixed when the folder is first written.

    Users are hashed into buckets, so a folder must keep the count it was built with; the
    setting only applies to new folders (changing it would make every vector unfindable).
    """
    recorded = store.get_meta(PARTITIONS_KEY)
    if recorded is None:
        store.set_meta(PARTITIONS_KEY, str(settings.storage.vector_partitions))
        return settings.storage.vector_partitions
    return int(recorded)


def vector_index(settings: Settings, spec: IndexSpec, partitions: int) -> VectorIndex:
    """The vector index of ``spec`` in the memory folder (or on the Chroma server)."""
    path = Path(settings.storage.path)
    url = settings.storage.chroma_url
    where = (
        f"the Chroma server at {redact(url)}" if url else f"the embedded store in {path / 'chroma'}"
    )

    def connect() -> Any:
        if url is None and settings.storage.chroma_process == "on":
            from .chroma_host import HostedClient

            with chroma_errors(f"starting the vector store process for {path / 'chroma'}"):
                return HostedClient(path / "chroma")
        return chroma_client(path / "chroma", url, settings.storage.chroma_timeout_s)

    try:
        client = connect()
    except StoreError as exc:
        if url is None or not settings.storage.allow_degraded_open:
            raise
        # The same state as an outage that starts after open: writes are stored and the
        # index lags; reads need allow_degraded (keyword-only) until the server answers.
        log.warning(
            "recall: opened without %s (degraded: writes stored, index lags): %s", where, exc
        )
        client = None
    return VectorIndex(
        client,
        prefix=f"recall-{spec.vector_fingerprint}",
        partitions=partitions,
        dimension=spec.dimension,
        where=where,
        connect=connect,
    )


def index_key(spec: IndexSpec) -> str:
    """The ``index_state`` key under which a spec's vector index records its versions."""
    return f"vec:{spec.vector_fingerprint}"


def folder_spec(store: Store, settings: Settings) -> IndexSpec:
    """The spec to open a folder with: the one asked for, else the folder's own.

    A folder remembers the spec it was created with or last switched to (``recall reindex
    --spec``), so that every later open and CLI command uses it without being told again.
    """
    return load_spec(settings.retrieval.index_spec or store.get_meta(SPEC_NAME_KEY) or "default")


def check_fingerprint(store: Store, spec: IndexSpec, folder: Path) -> None:
    """Record ``spec`` for a new folder; IndexStaleError if the folder was built otherwise."""
    built = store.get_meta(FINGERPRINT_KEY)
    if built is None or not store.users():
        store.set_metas({FINGERPRINT_KEY: spec.fingerprint, SPEC_NAME_KEY: spec.name})
        return
    if built == spec.fingerprint:
        if store.get_meta(SPEC_NAME_KEY) != spec.name:
            store.set_meta(SPEC_NAME_KEY, spec.name)  # opened by name: remember it
        return
    if spec.embedder.startswith(OWN_PREFIX):
        raise IndexStaleError(
            f"the index in {folder} was built with another embedder or index spec "
            f"(fingerprint {built}); embedder {spec.embedder[len(OWN_PREFIX) :]!r} on spec "
            f"{spec.name!r} has {spec.fingerprint}. Open it with the embedder it was built "
            "with, or rebuild it from the store for this one: "
            "recall.index.rebuild.reindex(settings, spec, embedder=...)."
        )
    known = [p.stem for p in SPEC_DIR.glob("*.toml") if load_spec(p.stem).fingerprint == built]
    other = (
        f"or open it with the spec it was built with (--spec {known[0]}, or "
        f"RECALL_INDEX_SPEC={known[0]})"
        if known
        else "or open it with the spec (or the embedder) it was built with"
    )
    raise IndexStaleError(
        f"the index in {folder} was built with another index spec (fingerprint {built}); "
        f"spec {spec.name!r} has {spec.fingerprint}. Run `recall reindex --all --path {folder} "
        f"--spec {spec.name}` to rebuild it from the store, {other}."
    )
