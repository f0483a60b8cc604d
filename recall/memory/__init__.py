"""The facade: ``recall.open(path)`` returns a :class:`Memory`.

:class:`Memory` is assembled from one part per concern, each a module of its own: the core
(:mod:`.core`: records in, hits out) and the memory tiers (:mod:`.tiers`: update_memory,
short-term, the long-term article), whole users (:mod:`.users`) and forgetting a fact
everywhere (:mod:`.forget`). None holds retrieval or lifecycle logic of its own.
"""

from __future__ import annotations

from pathlib import Path

from ..inputs import open_settings
from ..settings import Settings
from .forget import ForgetMethods
from .tiers import TierMethods
from .users import UserMethods

__all__ = ["Memory", "open"]


class Memory(ForgetMethods, TierMethods, UserMethods):
    """One memory folder: a SQLite store, a Chroma vector index and BM25 partitions."""


def open(
    path: str | Path | None = None,
    *,
    chroma_url: str | None = None,
    store_url: str | None = None,
    settings: Settings | None = None,
) -> Memory:
    """Open (or create) the memory folder ``path``: SQLite + Chroma + BM25.

    ``path`` defaults to ``settings.storage.path`` (``RECALL_PATH``, else ``./memory``); with
    ``chroma_url`` the vectors live on a Chroma server instead of the embedded store, with
    ``store_url`` (``postgresql://...``) the records on a PostgreSQL server instead of the
    folder's SQLite file: processes sharing both share one memory.
    """
    return Memory(open_settings(path, settings, chroma_url=chroma_url, store_url=store_url))
