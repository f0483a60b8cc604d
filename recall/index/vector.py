"""The vector leg: our embeddings in Chroma, users hashed into a fixed set of collections.

Users are hashed into ``partitions`` bucket collections per index spec (64 by default):
measured with chromadb 1.5.9 at 5,000 users x 25 records, one collection per user ran out
of memory and file handles, one shared collection cost 84 ms a query, 64 buckets 2 ms.
Every read also carries a ``where`` filter on the user id, and every returned row's
metadata is checked again, so isolation never rests on one mechanism alone.

Chroma never embeds anything here: collections are created with ``embedding_function=None``
and every call passes our vectors, so Chroma's downloading default model is never touched.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import StoreError, chroma_errors
from .chroma import chroma_client, release_client
from .recent import RecentVectors

__all__ = ["UserVectors", "VectorIndex", "chroma_client", "user_key"]

log = logging.getLogger(__name__)

# Rows per Chroma ``get`` when reading a whole user (see VectorIndex._get_all).
_PAGE = 5_000

Vectors = npt.NDArray[np.float32]


def user_key(user_id: str) -> str:
    """A short stable hash of a user id (bucket choice and Chroma id prefix)."""
    return hashlib.blake2b(user_id.encode("utf-8"), digest_size=8).hexdigest()


@dataclass(frozen=True)
class UserVectors:
    """Every vector of one user, as loaded from Chroma (the exact-scoring cache entry)."""

    ids: list[str]
    kinds: npt.NDArray[np.str_]
    matrix: Vectors

    @property
    def nbytes(self) -> int:
        return int(self.matrix.nbytes) + 64 * len(self.ids)


class VectorIndex:
    """The vector leg of one index spec over a Chroma client."""

    def __init__(
        self,
        client: Any,
        *,
        prefix: str,
        partitions: int,
        dimension: int,
        where: str,
        connect: Callable[[], Any] | None = None,
    ) -> None:
        # ``client`` None with ``connect``: the server was down at open (a degraded start).
        # Every call then tries ``connect`` again and fails as an outage would, until the
        # server answers; from then on the client is kept.
        self._client = client
        self._connect = connect
        self._prefix = prefix
        self._partitions = partitions
        self._dimension = dimension
        self._where = where  # "the embedded store in ..." / "the Chroma server at ..."
        self._collections: dict[int, Any] = {}
        #: The rows this process wrote lately (a partition rebuild reads them, not Chroma).
        self.recent = RecentVectors()

    # --- plumbing -----------------------------------------------------------------------
    @property
    def client(self) -> Any:
        """The Chroma client (connecting now if the server was down at open)."""
        if self._client is None:
            if self._connect is None:
                raise StoreError(f"the vector store is closed ({self._where})")
            self._client = self._connect()
            log.warning("recall: reached %s; the index catches up as users are read", self._where)
        return self._client

    def _hint(self) -> str:
        return (
            f"(vector store: {self._where}). Check that it is running and reachable; "
            "`recall check` compares it with the store and `recall reindex` rebuilds it."
        )

    def bucket(self, user_id: str) -> int:
        """The bucket collection a user lives in."""
        return int(user_key(user_id), 16) % self._partitions

    def collection_name(self, bucket: int) -> str:
        return f"{self._prefix}-b{bucket:04d}"

    def _collection(self, user_id: str) -> Any:
        b = self.bucket(user_id)
        if b not in self._collections:
            with chroma_errors("opening a vector collection", hint=self._hint()):
                self._collections[b] = self.client.get_or_create_collection(
                    self.collection_name(b),
                    configuration={"hnsw": {"space": "cosine"}},
                    embedding_function=None,
                )
        return self._collections[b]

    @staticmethod
    def _cid(user_id: str, record_id: str) -> str:
        return f"{user_key(user_id)}:{record_id}"

    # --- writes -------------------------------------------------------------------------
    def upsert(
        self,
        user_id: str,
        ids: Sequence[str],
        vectors: Vectors,
        kinds: Sequence[str],
        hashes: Sequence[str],
    ) -> None:
        """Write the user's vectors (insert or replace by record id)."""
        if not ids:
            return
        if vectors.shape != (len(ids), self._dimension):
            raise ValueError(f"expected {len(ids)} vectors of {self._dimension} dims")
        col = self._collection(user_id)
        with chroma_errors("writing vectors", hint=self._hint()):
            col.upsert(
                ids=[self._cid(user_id, i) for i in ids],
                embeddings=vectors,
                metadatas=[
                    {"user_id": user_id, "rid": i, "kind": k, "hash": h}
                    for i, k, h in zip(ids, kinds, hashes, strict=True)
                ],
            )
        self.recent.put(user_id, list(ids), vectors, list(hashes))

    def delete(self, user_id: str, ids: Sequence[str]) -> None:
        """Remove the user's vectors with these record ids (missing ids are ignored)."""
        if not ids:
            return
        self.recent.drop(user_id, list(ids))
        col = self._collection(user_id)
        cids = [self._cid(user_id, i) for i in ids]
        with chroma_errors("deleting vectors", hint=self._hint()):
            for i in range(0, len(cids), _PAGE):  # SQLite caps the variables of one statement
                col.delete(ids=cids[i : i + _PAGE], where={"user_id": user_id})

    # --- reads --------------------------------------------------------------------------
    def _get_all(self, user_id: str, include: list[str], what: str) -> dict[str, list[Any]]:
        """Every row of the user, fetched in pages.

        One unpaged ``get`` of a large user fails inside Chroma ("too many SQL variables":
        measured with chromadb 1.5.9 at 100,000 records of one user), so rows come
        ``_PAGE`` at a time and are concatenated.
        """
        col = self._collection(user_id)
        out: dict[str, list[Any]] = {"metadatas": [], "embeddings": []}
        offset = 0
        with chroma_errors(what, hint=self._hint()):
            while True:
                got = col.get(
                    where={"user_id": user_id}, include=include, limit=_PAGE, offset=offset
                )
                metas = list(got["metadatas"] or [])
                out["metadatas"] += metas
                if "embeddings" in include and metas:
                    out["embeddings"].append(np.asarray(got["embeddings"], dtype=np.float32))
                if len(metas) < _PAGE:
                    return out
                offset += _PAGE

    def hashes(self, user_id: str) -> dict[str, str]:
        """record id -> content hash of every vector the user has in Chroma."""
        got = self._get_all(user_id, ["metadatas"], "listing vectors")
        return {
            m["rid"]: m["hash"]
            for m in got["metadatas"]
            if m is not None and m.get("user_id") == user_id
        }

    def load(self, user_id: str) -> UserVectors:
        """Every vector of the user (for exact in-process scoring)."""
        got = self._get_all(user_id, ["embeddings", "metadatas"], "loading vectors")
        metas = got["metadatas"]
        keep = [j for j, m in enumerate(metas) if m is not None and m.get("user_id") == user_id]
        matrix = (
            np.concatenate(got["embeddings"])[keep]
            if keep
            else np.zeros((0, self._dimension), dtype=np.float32)
        )
        return UserVectors(
            ids=[str(metas[j]["rid"]) for j in keep],
            kinds=np.asarray([str(metas[j]["kind"]) for j in keep], dtype=np.str_),
            matrix=np.ascontiguousarray(matrix),
        )

    def query(self, user_id: str, query: Vectors, kinds: Sequence[str], n: int) -> dict[str, float]:
        """record id -> cosine similarity for the user's ``n`` nearest records of ``kinds``."""
        col = self._collection(user_id)
        where = {"$and": [{"user_id": user_id}, {"kind": {"$in": list(kinds)}}]}
        with chroma_errors("querying vectors", hint=self._hint()):
            got = col.query(
                query_embeddings=[query],
                n_results=n,
                where=where,
                include=["distances", "metadatas"],
            )
        out: dict[str, float] = {}
        for m, d in zip(got["metadatas"][0], got["distances"][0], strict=True):
            if m is not None and m.get("user_id") == user_id:
                out[str(m["rid"])] = 1.0 - float(d)  # cosine distance -> similarity
        return out

    def vectors(self, user_id: str, ids: Sequence[str]) -> dict[str, Vectors]:
        """record id -> vector for these of the user's records."""
        if not ids:
            return {}
        col = self._collection(user_id)
        with chroma_errors("fetching vectors", hint=self._hint()):
            got = col.get(
                ids=[self._cid(user_id, i) for i in ids],
                where={"user_id": user_id},
                include=["embeddings", "metadatas"],
            )
        return {
            str(m["rid"]): np.asarray(e, dtype=np.float32)
            for m, e in zip(got["metadatas"] or [], got["embeddings"], strict=True)
            if m is not None and m.get("user_id") == user_id
        }

    def close(self) -> None:
        """Release the Chroma client: its SQLite handles, HNSW files, threads and sockets.

        chromadb keeps one shared "system" per path until its last client is closed, so a
        process that opens and closes many folders leaks about a dozen descriptors per
        folder unless every client is closed. Idempotent; a failure to close is harmless.
        """
        self._collections.clear()
        self._connect = None
        client, self._client = self._client, None
        if client is None:
            return
        try:
            system = getattr(client, "_system", None)
            client.close()
            release_client(client, system)
        except Exception as exc:  # closing must never mask the caller's own error
            log.debug("recall: closing the Chroma client failed: %s", exc)

    def bucket_counts(self) -> dict[int, int]:
        """bucket -> vectors held, for every bucket collection of this spec that exists."""
        out: dict[int, int] = {}
        head = f"{self._prefix}-b"
        with chroma_errors("counting vectors", hint=self._hint()):
            for c in self.client.list_collections():
                name = c if isinstance(c, str) else c.name
                if name.startswith(head) and name[len(head) :].isdigit():
                    col = self.client.get_collection(name, embedding_function=None)
                    out[int(name[len(head) :])] = col.count()
        return out

    def count_users_vectors(self) -> int:
        """Total vectors over all bucket collections that exist (for stats)."""
        return sum(self.bucket_counts().values())
