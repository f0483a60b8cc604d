"""The facade: ``recall.open(path)`` returns a :class:`Memory`.

It validates at the edge (pydantic models, ``InputError`` on bad input) and delegates:
records go to the :class:`~recall.store.Store` first, then to the index sync; queries go
to the :class:`~recall.search.Retriever`. It holds no retrieval logic of its own.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

from pydantic import ValidationError

from .errors import IndexStaleError, InputError
from .index.embed import Embedder, load_embedder
from .index.layout import FINGERPRINT_KEY, index_key, vector_index, vector_partitions
from .index.retriever import Retriever
from .index.spec import IndexSpec, load_spec
from .index.sync import IndexSync
from .models import Hit, RecallRequest, Record, utcnow, validate_user_id
from .settings import Settings
from .store.journal import has_unfinished
from .store.sqlite import Store
from .text import count_tokens
from .tool import handle_tool_call

if TYPE_CHECKING:  # lifecycle (issue 3): imported lazily at run time
    from .lifecycle.pipeline import Lifecycle, LongTerm, UpdateResult

__all__ = ["Memory", "open"]


def _input_error(exc: ValidationError, what: str) -> InputError:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(x) for x in err["loc"]) or what
        parts.append(f"{loc}: {err['msg']}")
    return InputError(f"invalid {what}: " + "; ".join(parts))


def _user(user_id: object) -> str:
    try:
        return validate_user_id(user_id)
    except ValueError as exc:
        raise InputError(f"{exc}; pass user_id='...' naming whose memory this is") from exc


class Memory:
    """One memory folder: a SQLite store, a Chroma vector index and BM25 partitions."""

    def __init__(self, settings: Settings, *, spec: IndexSpec | None = None) -> None:
        self.settings = settings
        self.path = Path(settings.storage.path)
        self.spec = spec or load_spec(settings.retrieval.index_spec)
        self.store = Store(self.path / "recall.sqlite3")
        self._check_fingerprint()
        self.vectors = vector_index(settings, self.spec, vector_partitions(self.store, settings))
        self._embedder: Embedder | None = None
        self._embedder_lock = threading.Lock()
        self.sync = IndexSync(
            self.store,
            self.vectors,
            self.embedder,
            key=index_key(self.spec),
            batch_size=settings.retrieval.embed_batch_size,
        )
        self.retriever = Retriever(
            self.store, self.vectors, self.sync, settings, self.spec.bm25, self.spec.analyzer
        )
        if has_unfinished(self.store):
            # A previous process died with journaled update_memory jobs: resume them now,
            # not at the first lifecycle call, which an app that only searches never makes.
            self._lifecycle()

    def _check_fingerprint(self) -> None:
        built = self.store.get_meta(FINGERPRINT_KEY)
        if built is None or not self.store.users():
            self.store.set_meta(FINGERPRINT_KEY, self.spec.fingerprint)
        elif built != self.spec.fingerprint:
            raise IndexStaleError(
                f"the index in {self.path} was built with another index spec (fingerprint "
                f"{built}); spec {self.spec.name!r} has {self.spec.fingerprint}. Run "
                f"`recall reindex --path {self.path} --spec {self.settings.retrieval.index_spec}` "
                "or open it with the spec it was built with."
            )

    def embedder(self) -> Embedder:
        """The spec's embedder, loaded on first use (shared per process)."""
        if self._embedder is None:
            with self._embedder_lock:
                if self._embedder is None:
                    self._embedder = load_embedder(
                        self.spec.embedder, device=self.settings.retrieval.embed_device
                    )
        return self._embedder

    # --- writes -------------------------------------------------------------------------
    def _record(self, user_id: str, item: Mapping[str, Any]) -> Record:
        text = item.get("text")
        if not isinstance(text, str):
            raise InputError(f"text must be a string, got {type(text).__name__}")
        if len(text) > self.settings.storage.max_text_chars:
            raise InputError(
                f"text is {len(text)} characters, over max_text_chars="
                f"{self.settings.storage.max_text_chars}; split it or summarize it first"
            )
        unknown = set(item) - {"text", "kind", "id", "metadata", "created_at"}
        if unknown:
            raise InputError(f"unknown record fields {sorted(unknown)}")
        try:
            return Record(
                id=item.get("id") or uuid.uuid4().hex,
                user_id=user_id,
                kind=item.get("kind") or "short_term",
                text=text,
                created_at=item.get("created_at") or utcnow(),
                tokens=count_tokens(text, self.settings.text.encoding),
                metadata=dict(item.get("metadata") or {}),
            )
        except ValidationError as exc:
            raise _input_error(exc, "record") from exc
        except (TypeError, ValueError) as exc:
            raise InputError(f"invalid record: {exc}") from exc

    def add(
        self,
        text: str,
        *,
        user_id: str,
        kind: str = "short_term",
        id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        created_at: datetime | str | float | None = None,
    ) -> str:
        """Store one record for ``user_id`` and index it; returns its id.

        ``kind`` is any short identifier; "short_term", "dynamic" and "archive" are the
        lifecycle's. An existing ``id`` of the same user is replaced.
        """
        item: dict[str, Any] = {"text": text, "kind": kind, "id": id, "metadata": metadata}
        if created_at is not None:
            item["created_at"] = created_at
        return self.add_many([item], user_id=user_id)[0]

    def add_many(self, items: Iterable[Mapping[str, Any]], *, user_id: str) -> list[str]:
        """Store many records of one user in one transaction, then index them."""
        uid = _user(user_id)
        records = [self._record(uid, it) for it in items]
        if not records:
            return []
        for r in records:
            try:
                json.dumps(r.metadata)
            except (TypeError, ValueError) as exc:
                raise InputError(f"metadata of {r.id!r} is not JSON-serializable: {exc}") from exc
        if len({r.id for r in records}) != len(records):
            raise InputError("duplicate ids in one add_many call")
        version = self.store.put(records)[uid]
        self.sync.after_write(uid, version, written=records)
        return [r.id for r in records]

    def delete(self, ids: str | Sequence[str], *, user_id: str) -> int:
        """Delete the user's records with these ids; returns how many existed."""
        uid = _user(user_id)
        wanted = [ids] if isinstance(ids, str) else list(ids)
        if not all(isinstance(i, str) and i for i in wanted):
            raise InputError("ids must be non-empty strings")
        deleted, version = self.store.delete(uid, wanted)
        if deleted:
            self.sync.after_write(uid, version, deleted=deleted)
        return len(deleted)

    # --- reads --------------------------------------------------------------------------
    def deep_recall(
        self,
        query: str,
        *,
        user_id: str,
        top_k: int | None = None,
        kinds: Sequence[str] | None = None,
        alpha: float | None = None,
        fusion: Literal["linear", "rrf"] | None = None,
        allow_degraded: bool = False,
    ) -> list[Hit]:
        """Hybrid search of the user's memory: ``alpha``·keyword + (1−alpha)·vector.

        ``kinds`` defaults to ``Settings.recall_kinds``; ``alpha``/``fusion`` override the
        settings for this call (benchmarks compare modes on one index). With
        ``allow_degraded`` a vector store outage returns keyword-only hits flagged
        ``degraded`` instead of raising ``StoreError``.
        """
        req = self._request(query, user_id, top_k, kinds)
        if alpha is None:
            alpha = self.settings.retrieval.alpha
        if not (isinstance(alpha, int | float) and 0.0 <= alpha <= 1.0):
            raise InputError(f"alpha must be a number in [0, 1], got {alpha!r}")
        fusion = fusion or self.settings.retrieval.fusion
        if fusion not in ("linear", "rrf"):
            raise InputError(f"fusion must be 'linear' or 'rrf', got {fusion!r}")
        return self.retriever.search(
            req,
            self.embedder(),
            alpha=float(alpha),
            fusion=cast(Literal["linear", "rrf"], fusion),
            allow_degraded=allow_degraded,
        )

    def _request(
        self, query: object, user_id: object, top_k: object, kinds: Sequence[str] | None
    ) -> RecallRequest:
        if not isinstance(query, str):
            raise InputError(f"query must be a string, got {type(query).__name__}")
        if len(query) > self.settings.retrieval.max_query_chars:
            raise InputError(
                f"query is {len(query)} characters, over max_query_chars="
                f"{self.settings.retrieval.max_query_chars}; shorten it to the question itself"
            )
        top_k = self.settings.retrieval.default_top_k if top_k is None else top_k
        if isinstance(top_k, bool) or not isinstance(top_k, int):
            raise InputError(f"top_k must be an integer, got {top_k!r}")
        if not 1 <= top_k <= self.settings.retrieval.max_top_k:
            raise InputError(
                f"top_k must be between 1 and {self.settings.retrieval.max_top_k}, got {top_k}"
            )
        if kinds is None:
            kinds = self.settings.retrieval.recall_kinds
        elif isinstance(kinds, str):
            kinds = (kinds,)
        if not kinds or not all(isinstance(k, str) for k in kinds):
            raise InputError("kinds must be a non-empty list of kind names")
        uid = _user(user_id)
        try:
            return RecallRequest(
                query=query, user_id=uid, top_k=top_k, kinds=tuple(sorted(set(kinds)))
            )
        except ValidationError as exc:
            raise _input_error(exc, "deep_recall request") from exc

    def records(self, user_id: str, kinds: Sequence[str] | None = None) -> list[Record]:
        """The user's stored records, oldest first."""
        return self.store.records(_user(user_id), kinds=kinds)

    def handle_tool_call(self, tool_call: Any, *, user_id: str) -> dict[str, Any]:
        """Answer an OpenAI ``deep_recall`` tool call with the tool message to append.

        A bad ``user_id`` is the host's bug and raises ``InputError``; anything wrong with
        the call itself comes back as a tool message the model can read.
        """
        uid = _user(user_id)
        return handle_tool_call(
            lambda query, *, top_k: self.deep_recall(query, user_id=uid, top_k=top_k), tool_call
        )

    def stats(self) -> dict[str, Any]:
        """Users, records per kind, and index state."""
        counts = self.store.counts()
        return {
            "path": str(self.path),
            "spec": self.spec.name,
            "fingerprint": self.spec.fingerprint,
            "users": len(self.store.users()),
            "records": sum(sum(k.values()) for k in counts.values()),
            "kinds": {
                kind: sum(k.get(kind, 0) for k in counts.values())
                for kind in sorted({kind for k in counts.values() for kind in k})
            },
            "lagging_users": sum(1 for u in self.store.users() if self.sync.lag(u)),
        }

    def close(self) -> None:
        """Release the store (the Chroma client holds no handles we own)."""
        self._close_lifecycle()  # lifecycle (issue 3): drain its worker before the store goes
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- lifecycle (issue 3): delegates to recall.lifecycle.Lifecycle, built lazily -------
    def _lifecycle(self) -> Lifecycle:
        with self._embedder_lock:
            life: Lifecycle | None = getattr(self, "_life", None)
            if life is None:
                from .lifecycle.pipeline import Lifecycle

                life = self._life = Lifecycle(
                    self.store,
                    self.settings,
                    self.embedder,
                    passage_tokens=self.spec.passage_tokens,
                )
        return life

    def _close_lifecycle(self) -> None:
        life: Lifecycle | None = getattr(self, "_life", None)
        if life is not None:
            life.close()

    def update_memory(
        self, states: str | Sequence[Any], *, user_id: str, background: bool = False
    ) -> UpdateResult:
        """Store conversation ``states`` (a summary, or chat messages to summarize) as a
        short-term summary; more than ``short_term_capacity`` promote the oldest into the
        long-term article. ``background=True`` journals the states and returns at once."""
        return self._lifecycle().update_memory(states, user_id=user_id, background=background)

    def should_summarize(self, messages: Sequence[Any]) -> bool:
        """True once ``messages`` reach ``Settings.summarize_threshold_tokens``."""
        return self._lifecycle().should_summarize(messages)

    def long_term(self, user_id: str, version: int | None = None) -> LongTerm:
        """The user's long-term article (Bedrock/Evolutionary/Dynamic), newest or ``version``."""
        return self._lifecycle().long_term(user_id, version)

    def short_term(self, user_id: str) -> list[Record]:
        """The user's current short-term summaries, oldest first."""
        return self._lifecycle().short_term(user_id)

    def get_relevant_memories(
        self, user_input: str, *, user_id: str, max_tokens: int | None = None
    ) -> str:
        """The memory block to stitch into a prompt, within ``max_tokens`` (default
        ``Settings.memory_budget_tokens``).

        The Bedrock chapter whole, then Evolutionary and Dynamic, then the short-term
        summaries most relevant to ``user_input`` (0.6·similarity + 0.4·recency, seed 004),
        as ``## `` sections cut by paragraphs (:mod:`recall.relevant`). No deep search:
        that stays explicit (:meth:`deep_recall`).
        """
        from .context.memory_block import relevant_memories

        if not isinstance(user_input, str) or not user_input.strip():
            raise InputError(
                "user_input must be a non-empty string: the user's current turn, which the "
                "short-term summaries are ranked against"
            )
        if max_tokens is not None and (not isinstance(max_tokens, int) or max_tokens < 0):
            raise InputError(f"max_tokens must be a non-negative int, got {max_tokens!r}")
        uid = _user(user_id)
        return relevant_memories(
            user_input,
            self.long_term(uid),
            self.short_term(uid),
            self.embedder,
            settings=self.settings,
            budget=max_tokens,
        )

    def flush(self, timeout: float | None = None) -> bool:
        """Wait for background update_memory jobs (also resumes a crashed run's jobs)."""
        return self._lifecycle().flush(timeout)

    # --- end lifecycle (issue 3) ----------------------------------------------------------


def open(  # noqa: A001 - the public name is recall.open, as in the design
    path: str | Path | None = None,
    *,
    chroma_url: str | None = None,
    settings: Settings | None = None,
) -> Memory:
    """Open (or create) the memory folder ``path``: SQLite + Chroma + BM25.

    ``path`` defaults to ``Settings.path`` (``RECALL_PATH``, else ``./memory``); with
    ``chroma_url`` the vectors live on a Chroma server instead of the embedded store.
    """
    base = settings or Settings()
    updates: dict[str, Any] = {}
    if path is not None:
        updates["path"] = Path(path)
    if chroma_url is not None:
        updates["chroma_url"] = chroma_url
    if updates:
        base = base.replace(**updates)
    return Memory(base)
