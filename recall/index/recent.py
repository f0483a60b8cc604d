"""The vectors this process wrote lately, so that a partition rebuilt after a write need
not reload the whole user from Chroma.

After every write, the user's query partition is rebuilt (:mod:`.partitions`). Its
vectors used to come from one Chroma ``get`` of every row of the user: under 16 clients
that read was as costly as the write's own upsert (a profile of ``recall serve`` under
``benchmarks/server_load.py``). Now the rebuild takes the rows of the records that did
not change from the partition it replaces, and the rows just written from here; Chroma
is read only for what neither holds.

An entry is matched by the record's content hash, never by its id alone: a record
rewritten by another process with other words finds no entry and is read from Chroma.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np
import numpy.typing as npt

__all__ = ["RecentVectors"]

Vectors = npt.NDArray[np.float32]


class RecentVectors:
    """(user, record id) -> (content hash, vector) of the last ``capacity`` rows written."""

    def __init__(self, capacity: int = 2048) -> None:
        # 2,048 rows of the default spec's 896 dimensions hold 7 MB: enough for the writes
        # of the moments between a write and its rebuild, whatever the traffic.
        self.capacity = capacity
        self._rows: OrderedDict[tuple[str, str], tuple[str, Vectors]] = OrderedDict()
        self._lock = threading.Lock()

    def put(self, user_id: str, ids: list[str], vectors: Vectors, hashes: list[str]) -> None:
        """Remember rows just written to Chroma (a copy: the caller's array may change)."""
        with self._lock:
            for rid, vec, h in zip(ids, vectors, hashes, strict=True):
                key = (user_id, rid)
                self._rows[key] = (h, np.array(vec, dtype=np.float32))
                self._rows.move_to_end(key)
            while len(self._rows) > self.capacity:
                self._rows.popitem(last=False)

    def get(self, user_id: str, record_id: str, content_hash: str) -> Vectors | None:
        """The row written for this record with this content, or None."""
        with self._lock:
            got = self._rows.get((user_id, record_id))
        return got[1] if got is not None and got[0] == content_hash else None

    def drop(self, user_id: str, ids: list[str] | None = None) -> None:
        """Forget rows of ``user_id``: those ids, or all of them (an erased user)."""
        with self._lock:
            if ids is None:
                for key in [k for k in self._rows if k[0] == user_id]:
                    del self._rows[key]
            else:
                for rid in ids:
                    self._rows.pop((user_id, rid), None)
