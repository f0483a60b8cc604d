"""What the framework retrievers share: the search, run here or off the loop, and a hit's
metadata in the flat JSON form that both frameworks keep beside a document's text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import anyio.to_thread

from ..inputs import Depth
from ..models import require_user_id

if TYPE_CHECKING:
    from ..memory import Memory
    from ..models import Hit

__all__ = ["Search", "hit_metadata", "missing_extra"]


def missing_extra(extra: str, package: str) -> str:
    """The message of the ImportError raised when a framework is not installed."""
    return (
        f"recall.integrations.{extra} needs {package}, which is not installed: "
        f"pip install 'recall-memory[{extra}]'"
    )


def hit_metadata(hit: Hit) -> dict[str, Any]:
    """The hit's own metadata, then ``id``, ``kind``, ``date`` (YYYY-MM-DD), ``created_at``
    (ISO 8601), the fused ``score`` and each leg's raw score (these win a name clash)."""
    return {
        **hit.metadata,
        "id": hit.id,
        "kind": hit.kind,
        "date": hit.created_at.date().isoformat(),
        "created_at": hit.created_at.isoformat(),
        "score": hit.score,
        "keyword_score": hit.keyword_score,
        "vector_score": hit.vector_score,
        "degraded": hit.degraded,
    }


@dataclass(frozen=True)
class Search:
    """One user's deep_recall with fixed options (None: the memory's settings decide)."""

    memory: Memory
    user_id: str
    top_k: int | None = None
    depth: Depth | None = None
    kinds: Sequence[str] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "user_id", require_user_id(self.user_id))

    def __call__(self, query: str) -> list[Hit]:
        """The hits for ``query``, best first."""
        return self.memory.deep_recall(
            query, user_id=self.user_id, top_k=self.top_k, depth=self.depth, kinds=self.kinds
        )

    async def off_loop(self, query: str) -> list[Hit]:
        """The same search on a worker thread, so the caller's event loop keeps running (a
        cancelled caller returns at once; the search finishes in the background)."""
        return await anyio.to_thread.run_sync(partial(self, query), abandon_on_cancel=True)
