"""Erasing a user from the vector store: every recall collection, not only today's spec.

A user's vectors live in one bucket collection per index spec; a folder can also keep the
collections of an older spec (``recall reindex --keep-old``) or of a different bucket count.
Erasure therefore walks every collection whose name starts with ``recall-`` and deletes
the rows whose metadata names the user, page by page. BM25 partitions are never written to
disk (they are rebuilt from the store), so dropping the retriever's cache is all they need.
"""

from __future__ import annotations

from typing import Any

from ..errors import chroma_errors

__all__ = ["COLLECTION_PREFIX", "purge_user_vectors", "user_vector_counts"]

#: Every collection recall creates starts with this (``recall-<fingerprint>-b0000``).
COLLECTION_PREFIX = "recall-"
# Ids per get/delete call: Chroma's SQLite caps the variables of one statement.
_PAGE = 5_000


def _collections(client: Any) -> list[Any]:
    out = []
    for c in client.list_collections():
        name = c if isinstance(c, str) else c.name
        if name.startswith(COLLECTION_PREFIX):
            out.append(client.get_collection(name, embedding_function=None))
    return out


def purge_user_vectors(client: Any, user_id: str) -> int:
    """Delete every vector of ``user_id`` from every recall collection; returns how many."""
    removed = 0
    with chroma_errors(f"erasing the vectors of user {user_id!r}"):
        for col in _collections(client):
            while True:
                got = col.get(where={"user_id": user_id}, include=[], limit=_PAGE)
                ids = list(got["ids"])
                if not ids:
                    break
                col.delete(ids=ids)
                removed += len(ids)
    return removed


def user_vector_counts(client: Any, user_id: str) -> dict[str, int]:
    """collection name -> vectors of ``user_id`` in it (only collections holding some)."""
    out: dict[str, int] = {}
    with chroma_errors(f"counting the vectors of user {user_id!r}"):
        for col in _collections(client):
            n = len(col.get(where={"user_id": user_id}, include=[])["ids"])
            if n:
                out[col.name] = n
    return out
