"""The memory lifecycle: update_memory, short-term summaries, promotion, long-term article.

Flow (see ``docs/design.md``)::

    states ─validate─▶ summarize ─▶ short_term record ──(more than 20?)──▶ promote oldest 5
    promote: reconstruct(old chapters, 5 summaries) ─▶ ONE transaction (:mod:`.promote`):
             article version + 1 (optimistic: a writer that lost the race retries),
             the 5 summaries -> kind "archive" (linked to that version; nothing is deleted),
             old Dynamic passages out, new ones in (kind "dynamic"), store version + 1

The lifecycle writes to the store, then hands the user to ``on_written`` (the facade's
``_indexed``), which indexes what was committed before the call returns or the job ends:
a summary alone as written, after a promotion by the content diff. A reader never sees
two chapter versions' passages, nor pays for a write's embedding. Every call is journaled
(:mod:`recall.store.journal`): background mode and crash recovery are one code path.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from ..errors import InputError
from ..index.embed import Embedder
from ..index.spec import IndexSpec
from ..llm import LLMClient
from ..models import Record, require_user_id, shown
from ..settings import Settings
from ..spans import span
from ..store import Job, Store, Transaction, new_job_id
from ..store.keyed import answer_at_commit
from ..text import count_tokens
from .answer import AnswerWithSummary, parse_answer_with_summary
from .article import LongTerm
from .extract import FactChange, FactExtractor, fact_records
from .privacy import Learned, without_private
from .promote import promote_all, read_long_term
from .reconstruct import LLMReconstructor, OfflineReconstructor, Reconstructor
from .result import UpdateResult
from .states import chat_messages, check_text, check_time, journaled, newest_said, to_turns
from .summarize import ExtractiveSummarizer, LLMSummarizer, Summarizer
from .tiers import stored_before, summary_records
from .worker import Worker

__all__ = [
    "AnswerWithSummary",
    "Lifecycle",
    "LongTerm",
    "UpdateResult",
    "Written",
    "parse_answer_with_summary",
]

#: What a summary's transaction wrote: the user's new store version and its records.
Written = tuple[int, list[Record]]

log = logging.getLogger(__name__)


class Lifecycle:
    """Summaries, promotion and long-term articles of one store (see the module docs)."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        embedder_fn: Callable[[], Embedder],
        summarizer: Summarizer | None = None,
        reconstructor: Reconstructor | None = None,
        *,
        passage_tokens: int = IndexSpec.passage_tokens,
        on_written: Callable[[str, Written | None], object] | None = None,
        privacy: Learned | None = None,
    ) -> None:
        self.store = store
        self.privacy = privacy  # requests not to keep the patterns miss (.privacy_model)
        #: Called with a user id after the lifecycle committed writes for that user, and
        #: (version, records) when a summary alone was written (None: diff the user).
        self.on_written: Callable[[str, Written | None], object] = on_written or (
            lambda _uid, _w: None
        )
        self.settings = settings
        # The index spec owns the passage size: its fingerprint covers how Dynamic is cut.
        self.passage_tokens = passage_tokens
        self.count: Callable[[str], int] = lambda t: count_tokens(t, settings.text.encoding)
        client = None
        if summarizer is None or reconstructor is None:
            client = LLMClient.from_settings(settings)
        offline_sum = ExtractiveSummarizer(
            count=self.count, max_chars=settings.lifecycle.max_states_chars
        )
        self.summarizer: Summarizer = summarizer or (
            offline_sum if client is None else LLMSummarizer(client, offline_sum)
        )
        offline_rec = OfflineReconstructor(
            embedder_fn,
            chapter_tokens=settings.lifecycle.chapter_tokens,
            dedup_similarity=settings.lifecycle.dedup_similarity,
            count=self.count,
        )
        self.reconstructor: Reconstructor = reconstructor or (
            offline_rec if client is None else LLMReconstructor(client, offline_rec)
        )
        self.extractor = FactExtractor(client) if client and settings.llm.extract_facts else None
        self._locks: dict[str, threading.Lock] = {}
        self._locks_guard = threading.Lock()
        self._worker = Worker(self._run_job)
        #: Promotions that lost the optimistic race and were redone (for tests and stats).
        self.conflicts = 0
        for job_id in store.unfinished_jobs():  # a previous process died mid-job
            self._worker.submit(job_id)

    # --- public API ---------------------------------------------------------------------
    def update_memory(
        self,
        states: str | Sequence[Any],
        *,
        user_id: str,
        background: bool = False,
        at: datetime | None = None,
    ) -> UpdateResult:
        """Store ``states`` as a short-term summary; promote when over capacity.

        ``states`` is a summary string (stored as is) or OpenAI-format chat messages
        (summarized first). With ``background`` the states are journaled and the call
        returns at once; :meth:`flush` waits for the worker. ``at`` is when the
        conversation happened (default now): an imported history keeps its own dates. The
        user's same messages sent again write nothing (``duplicate`` says so).
        """
        uid = require_user_id(user_id)
        if not isinstance(background, bool):
            raise InputError(f"background must be True or False, got {shown(background)}")
        payload = self._payload(states)
        job_id, now = new_job_id()
        # An undated call takes the newest of its messages' own timestamps, else now.
        at = (newest_said(payload.get("messages", [])) or now) if at is None else check_time(at)
        same = stored_before(self.store, uid, payload)  # "" when every turn was private
        if same is not None:  # nothing new is written
            lt, short = self.long_term(uid).version, len(self.short_term(uid))
            return UpdateResult(user_id=uid, job_id=job_id, summary_id=same, duplicate=bool(same),
                                version=lt, short_term_count=short)  # fmt: skip
        if background:
            queued = self._result(uid, job_id, f"st-{job_id}").model_copy(update={"queued": True})
            with answer_at_commit(lambda _db: queued):  # a keyed write's answer commits too
                self.store.add_job(job_id, uid, at, payload)
            self._worker.submit(job_id)
            return queued
        summary, facts = self._summarize(payload), self._facts(uid, payload)
        # A keyed write's answer commits with the summary (a promotion left is the worker's).
        written: Written
        stored = lambda _db: self._result(uid, job_id, written[1][0].id)  # noqa: E731
        with span("store"), answer_at_commit(stored), self.store.transaction() as tx:
            tx.add_summarized_job(job_id, uid, at)
            written = self._put_summary(tx, uid, job_id, at, summary, payload, facts)
        promotions: list[tuple[int, list[str]]] = []
        try:
            # A bounded number here keeps the call's latency flat under a backlog.
            promotions, more = self._promote_all(uid, self.settings.lifecycle.promotions_per_call)
        except Exception:
            # The summary is safe; the worker retries the promotion (bounded by job_attempts).
            self._worker.submit(job_id)
            raise
        finally:
            # Whatever committed is indexed before the call returns: what this call wrote
            # as it is, a promotion (kinds and chapters rewritten) by the content diff.
            self.on_written(uid, None if promotions else written)
        if more:  # the job stays journaled: the worker (or the next open) finishes it
            self._worker.submit(job_id)
        else:
            self.store.finish_job(job_id)
        return self._result(uid, job_id, written[1][0].id, promotions)

    def _result(
        self, uid: str, job_id: str, summary_id: str, done: Sequence[tuple[int, list[str]]] = ()
    ) -> UpdateResult:
        """What an update_memory call that wrote the summary ``summary_id`` answers."""
        return UpdateResult(
            user_id=uid, job_id=job_id, summary_id=summary_id, promoted=bool(done),
            promoted_ids=[i for p in done for i in p[1]], versions=[p[0] for p in done],
            version=self.long_term(uid).version, short_term_count=len(self.short_term(uid)),
        )  # fmt: skip

    def should_summarize(self, messages: Sequence[Any]) -> bool:
        """True once ``messages`` reach ``settings.lifecycle.summarize_threshold_tokens``."""
        total = 0
        overhead = self.settings.context.message_overhead_tokens  # role and framing
        for turn in to_turns(messages, max_chars=2**62):
            total += self.count(turn.text) + overhead
            if total >= self.settings.lifecycle.summarize_threshold_tokens:
                return True
        return False

    def long_term(self, user_id: str, version: int | None = None) -> LongTerm:
        """The user's long-term article, newest or a past ``version``."""
        return read_long_term(self.store, require_user_id(user_id), version)

    def short_term(self, user_id: str) -> list[Record]:
        """The user's current short-term summaries, oldest first."""
        return self.store.records(require_user_id(user_id), kinds=["short_term"])

    def failed_jobs(self) -> list[Job]:
        """Background jobs that gave up, with their errors."""
        return self.store.failed_jobs()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait for the background queue to drain; False on timeout."""
        return self._worker.flush(timeout)

    def close(self, timeout: float | None = None) -> None:
        """Drain the queue and stop the worker (unfinished jobs resume at next open)."""
        self._worker.close(timeout)

    # --- steps --------------------------------------------------------------------------
    def _payload(self, states: object) -> dict[str, Any]:
        if isinstance(states, str):
            text = check_text(states, what="states", max_chars=self.settings.storage.max_text_chars)
            if not text.strip():
                raise InputError("states is an empty string: there is nothing to remember")
            return {"text": text}
        turns = to_turns(states, max_chars=self.settings.lifecycle.max_states_chars)
        # What the user asked not to keep never reaches the journal, the summary or the turns;
        # the rest is journaled flattened, so a stored job replays without foreign objects.
        return {"messages": journaled(without_private(turns, self.privacy))}

    def _summarize(self, payload: dict[str, Any]) -> str:
        if "text" in payload:
            return str(payload["text"])
        budget = self.settings.lifecycle.summary_tokens
        return self.summarizer.summarize(chat_messages(payload["messages"]), budget_tokens=budget)

    def _facts(self, uid: str, payload: dict[str, Any]) -> list[FactChange]:
        """What the model reads as changed in the user's messages ([] offline)."""
        return [] if self.extractor is None else self.extractor.read(payload, self.store, uid)

    def _put_summary(
        self, tx: Transaction, uid: str, job_id: str, at: datetime, text: str,
        payload: dict[str, Any], facts: Sequence[FactChange] = (),
    ) -> Written:  # fmt: skip
        keep_turns = self.settings.lifecycle.keep_turns
        records = summary_records(uid, job_id, at, text, payload, self.count, keep_turns)
        records += fact_records(uid, job_id, at, facts, self.count)
        tx.put(records)
        return tx.bump_version(uid), records

    def _run_job(self, job_id: str) -> bool:
        """Run one journaled job; True asks the worker to try it again."""
        job = None
        try:
            job = self.store.job(job_id)
            if job is None:
                return False  # done already (another runner, or before a restart)
            if job.status == "pending" and job.payload is not None:
                summary = self._summarize(job.payload)
                facts = self._facts(job.user_id, job.payload)
                with self.store.transaction() as tx:
                    if tx.mark_job_summarized(job_id):
                        self._put_summary(
                            tx, job.user_id, job_id, job.created_at, summary, job.payload, facts
                        )
            elif job.status != "summarized":
                return False  # failed: kept for inspection, never retried here
            self._promote_all(job.user_id)
            self.store.finish_job(job_id)
            return False
        except Exception as exc:  # a bad job must not stop the queue; it is retried
            log.warning("recall: background job %s failed: %s", job_id, exc)
            retry = not isinstance(exc, InputError)
            return self.store.record_job_failure(
                job_id, str(exc), self.settings.lifecycle.job_attempts if retry else 1
            )
        finally:
            if job is not None:
                self.on_written(job.user_id, None)

    def _lock(self, user_id: str) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(user_id, threading.Lock())

    def _promote_all(
        self, uid: str, limit: int | None = None
    ) -> tuple[list[tuple[int, list[str]]], bool]:
        """Promote the oldest summaries until the user is within capacity (at most
        ``limit`` promotions); True when more remain."""
        with self._lock(uid):  # one promoter per user in this process; others race safely
            return promote_all(
                self.store,
                uid,
                self.reconstructor,
                self.settings.lifecycle,
                passage_tokens=self.passage_tokens,
                count=self.count,
                on_conflict=self._lost_race,
                limit=limit,
            )

    def _lost_race(self) -> None:
        self.conflicts += 1
