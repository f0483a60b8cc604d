"""Where a request's time goes: named spans, summed per request, when someone is counting.

The server (``server.timing``) opens a tally for each request (:func:`tally`) and answers
it as a ``Server-Timing`` header; the load benchmark reads that header. Code on the query
path marks its steps with :func:`span` (``embed``, ``keyword``, ``vector``, ``fuse``...);
outside a tally a span costs one context-variable lookup. The tally lives in a context
variable, which anyio copies into the worker thread that runs the call, so spans timed
there land in the request's own tally.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["add", "span", "tally"]

_current: ContextVar[dict[str, float] | None] = ContextVar("recall_spans", default=None)


@contextmanager
def span(name: str) -> Iterator[None]:
    """Add the time spent inside to ``name`` in the current tally, if there is one."""
    counts = _current.get()
    if counts is None:
        yield
        return
    start = time.perf_counter()
    try:
        yield
    finally:
        counts[name] = counts.get(name, 0.0) + time.perf_counter() - start


def add(name: str, seconds: float) -> None:
    """Add ``seconds`` to ``name`` in the current tally, if there is one."""
    counts = _current.get()
    if counts is not None:
        counts[name] = counts.get(name, 0.0) + seconds


@contextmanager
def tally() -> Iterator[dict[str, float]]:
    """Count the spans of everything run inside (seconds by name), this thread's and the
    worker threads' it starts through anyio."""
    counts: dict[str, float] = {}
    token = _current.set(counts)
    try:
        yield counts
    finally:
        _current.reset(token)
