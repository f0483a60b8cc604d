"""The background worker: one daemon thread that runs journaled jobs in order."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

__all__ = ["Worker"]

log = logging.getLogger(__name__)


class Worker:
    """One daemon thread running queued job ids in order; :meth:`flush` waits for it."""

    def __init__(self, run: Callable[[str], bool], *, name: str = "recall-lifecycle") -> None:
        # ``run`` returns True when the job should be queued again (a retryable failure).
        self._run = run
        self._name = name
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._cond = threading.Condition()
        self._outstanding: set[str] = set()
        self._thread: threading.Thread | None = None
        self._closed = False

    def submit(self, job_id: str) -> None:
        """Queue a job (a job already queued is not queued twice)."""
        with self._cond:
            if self._closed:
                raise RuntimeError("the lifecycle is closed")
            if job_id in self._outstanding:
                return
            self._outstanding.add(job_id)
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name=self._name, daemon=True)
                self._thread.start()
        self._queue.put(job_id)

    def _loop(self) -> None:
        while True:
            job_id = self._queue.get()
            if job_id is None:
                return
            again = False
            try:
                again = self._run(job_id)
            except BaseException:  # the worker must survive any one job
                log.exception("recall: background job %s crashed", job_id)
            if again:
                self._queue.put(job_id)
                continue
            with self._cond:
                self._outstanding.discard(job_id)
                self._cond.notify_all()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every queued job has run; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._outstanding, timeout)

    def close(self, timeout: float | None = None) -> None:
        """Finish the queue, then stop the thread (unfinished jobs stay journaled)."""
        self.flush(timeout)
        with self._cond:
            self._closed = True
            thread = self._thread
        if thread is not None:
            self._queue.put(None)
            thread.join(timeout)
