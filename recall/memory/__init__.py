"""The facade: ``recall.open(path)`` returns a :class:`Memory`.

:class:`Memory` is assembled from one part per concern, each a module of its own: the core
(:mod:`.core`: records in, hits out) and the memory tiers (:mod:`.tiers`: update_memory,
short-term, the long-term article), whole users (:mod:`.users`), forgetting a fact
everywhere (:mod:`.forget`), the searches (:mod:`.search`: a request built once, then
run), the read-only views (:mod:`.inspect`) and its account of itself (:mod:`.state`:
users, index state, warm-up, writes remembered by key). None holds retrieval or lifecycle
logic of its own.
"""

from __future__ import annotations

from pathlib import Path

from ..index.embed import Embedder
from ..index.own import Embeds
from ..inputs import open_settings
from ..settings import Settings
from .forget import ForgetMethods
from .inspect import InspectMethods
from .search import SearchMethods
from .state import StateMethods
from .tiers import TierMethods
from .users import UserMethods

__all__ = ["Memory", "open"]


class Memory(ForgetMethods, TierMethods, UserMethods, SearchMethods, InspectMethods, StateMethods):
    """One memory folder: a SQLite store, a Chroma vector index and BM25 partitions."""


def open(
    path: str | Path | None = None,
    *,
    chroma_url: str | None = None,
    store_url: str | None = None,
    settings: Settings | None = None,
    embedder: Embeds | Embedder | None = None,
) -> Memory:
    """Open (or create) the memory folder ``path``: SQLite + Chroma + BM25.

    ``path`` defaults to ``settings.storage.path`` (``RECALL_PATH``, else ``./memory``); with
    ``chroma_url`` the vectors live on a Chroma server instead of the embedded store, with
    ``store_url`` (``postgresql://...``) the records on a PostgreSQL server instead of the
    folder's SQLite file: processes sharing both share one memory.

    ``embedder`` brings your own model for the vector leg, in place of the spec's packaged
    ones: any object with one method, ``embed(texts: Sequence[str]) -> Sequence[Sequence[
    float]]`` (a 2-D numpy array will do), one vector per text. recall normalizes the vectors
    and checks each answer (one row per text, one dimension, finite values; else
    ``EmbedderError``). The dimension is the object's ``dimension`` attribute, else that of
    the vector it returns for one probe text, here at open. Its identity is its ``id`` or
    ``model_id`` attribute, else its class's qualified name: it enters the index fingerprint,
    so a folder built with another embedder (or spec) raises ``IndexStaleError`` as a spec
    change does (rebuild it with ``recall.index.rebuild.reindex(settings, spec,
    embedder=...)``). BM25, the tokenizer and the passage size still come from the spec; the
    relevance floor's thresholds (``min_similarity``...) were set for the packaged models.
    An object with all of ``recall.Embedder`` (``id``, ``dimension``, ``embed_documents``,
    ``embed_query``, normalized float32 rows) is used as it is. For tests,
    ``recall.testing.HashEmbedder`` needs no model at all.
    """
    conf = open_settings(path, settings, chroma_url=chroma_url, store_url=store_url)
    return Memory(conf, embedder=embedder)
