"""Where a spec's index lives: its Chroma collections, bucket count and state keys.

The facade and ``recall reindex`` both build a spec's vector index from a memory folder;
they share these helpers so that a rebuilt index is found where queries look for it.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from ..errors import StoreError
from ..settings import Settings
from ..store import Store
from .spec import IndexSpec
from .vector import VectorIndex, chroma_client

__all__ = ["FINGERPRINT_KEY", "PARTITIONS_KEY", "index_key", "vector_index", "vector_partitions"]

#: Store meta key holding the fingerprint of the spec the index was built with.
FINGERPRINT_KEY = "index_fingerprint"
PARTITIONS_KEY = "vector_partitions"

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
    where = f"the Chroma server at {url}" if url else f"the embedded store in {path / 'chroma'}"

    def connect() -> Any:
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
