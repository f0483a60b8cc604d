"""recall's deep recall as a LangChain retriever (``pip install 'recall-memory[langchain]'``).

    from recall.integrations.langchain import RecallRetriever

    retriever = RecallRetriever(memory=mem, user_id="u1", top_k=5)
    docs = retriever.invoke("what did we decide about the cache?")  # or: await .ainvoke(...)

Each :class:`~langchain_core.documents.Document` holds a hit's text, its id, and the
metadata of :func:`recall.integrations._hits.hit_metadata` (``score``, ``kind``, ``date``...).
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import ConfigDict, field_validator

from ..inputs import Depth
from ..memory import Memory
from ..models import Hit, require_user_id
from ._hits import Search, hit_metadata, missing_extra

try:
    from langchain_core.callbacks import (
        AsyncCallbackManagerForRetrieverRun,
        CallbackManagerForRetrieverRun,
    )
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
except ImportError as exc:  # the extra is not installed
    raise ImportError(missing_extra("langchain", "langchain-core")) from exc

__all__ = ["RecallRetriever", "to_document"]


def to_document(hit: Hit) -> Document:
    """A hit as a LangChain document: its text, its id, its score and provenance."""
    return Document(page_content=hit.text, metadata=hit_metadata(hit), id=hit.id)


class RecallRetriever(BaseRetriever):
    """A LangChain ``BaseRetriever`` over :meth:`recall.Memory.deep_recall` for one user.

    ``top_k``, ``depth`` and ``kinds`` are deep_recall's options (None: the memory's
    settings). Documents come best first. ``ainvoke`` runs the search on a worker thread,
    so the event loop is never blocked by the models' CPU work.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    memory: Memory
    user_id: str
    top_k: int | None = None
    depth: Depth | None = None
    kinds: Sequence[str] | None = None

    @field_validator("user_id")
    @classmethod
    def _known_user(cls, user_id: str) -> str:
        return require_user_id(user_id)

    def _search(self) -> Search:
        return Search(self.memory, self.user_id, self.top_k, self.depth, self.kinds)

    # LangChain passes ``run_manager`` by that name; recall reports nothing to it.
    def _get_relevant_documents(
        self,
        query: str,
        *,
        run_manager: CallbackManagerForRetrieverRun,  # noqa: ARG002
    ) -> list[Document]:
        return [to_document(hit) for hit in self._search()(query)]

    async def _aget_relevant_documents(
        self,
        query: str,
        *,
        run_manager: AsyncCallbackManagerForRetrieverRun,  # noqa: ARG002
    ) -> list[Document]:
        return [to_document(hit) for hit in await self._search().off_loop(query)]
