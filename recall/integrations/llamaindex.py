"""recall's deep recall as a LlamaIndex retriever (``pip install 'recall-memory[llamaindex]'``).

    from recall.integrations.llamaindex import RecallRetriever

    retriever = RecallRetriever(mem, user_id="u1", top_k=5)
    nodes = retriever.retrieve("what did we decide about the cache?")  # or: await .aretrieve(...)

Each :class:`~llama_index.core.schema.NodeWithScore` holds a ``TextNode`` (the hit's text
and id, with the metadata of :func:`recall.integrations._hits.hit_metadata`) and the hit's
fused score. Only ``kind`` and ``date`` of that metadata are shown to an LLM or an embedder.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..inputs import Depth
from ..models import Hit
from ._hits import Search, hit_metadata, missing_extra

try:
    from llama_index.core.callbacks import CallbackManager
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
except ImportError as exc:  # the extra is not installed
    raise ImportError(missing_extra("llamaindex", "llama-index-core")) from exc

if TYPE_CHECKING:
    from ..memory import Memory

__all__ = ["RecallRetriever", "to_node"]

_SHOWN = frozenset({"kind", "date"})


def to_node(hit: Hit) -> NodeWithScore:
    """A hit as a LlamaIndex node with its fused score."""
    metadata = hit_metadata(hit)
    hidden = sorted(set(metadata) - _SHOWN)
    node = TextNode(
        id_=hit.id,
        text=hit.text,
        metadata=metadata,
        excluded_llm_metadata_keys=hidden,
        excluded_embed_metadata_keys=hidden,
    )
    return NodeWithScore(node=node, score=hit.score)


class RecallRetriever(BaseRetriever):
    """A LlamaIndex retriever over :meth:`recall.Memory.deep_recall` for one user.

    ``top_k``, ``depth`` and ``kinds`` are deep_recall's options (None: the memory's
    settings). Nodes come best first. ``aretrieve`` runs the search on a worker thread, so
    the event loop is never blocked by the models' CPU work.
    """

    def __init__(
        self,
        memory: Memory,
        *,
        user_id: str,
        top_k: int | None = None,
        depth: Depth | None = None,
        kinds: Sequence[str] | None = None,
        callback_manager: CallbackManager | None = None,
    ) -> None:
        self.search = Search(memory, user_id, top_k, depth, kinds)
        super().__init__(callback_manager=callback_manager)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return [to_node(hit) for hit in self.search(query_bundle.query_str)]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return [to_node(hit) for hit in await self.search.off_loop(query_bundle.query_str)]
