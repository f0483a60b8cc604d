"""Thread priorities of the server process: the vector store's child writes first.

A server whose vector store runs in a child process (:mod:`recall.index.chroma_host`)
lowers its own threads once the child runs, so that every write, which waits for the
child, does not also wait for a core behind the server's request threads.
"""

from __future__ import annotations

import logging
import os

__all__ = ["yield_threads"]

log = logging.getLogger(__name__)


def yield_threads(steps: int) -> int:
    """Lower every thread of this process by ``steps`` nice steps; returns how many.

    A server calls it once its child runs: the child is the one writer of the vector store
    and every write waits for it, so it should not wait for a core behind the server's own
    threads (``benchmarks/server_load.py``, runs paired in turn: 1.32x and 1.29x one
    thread at 0 steps, 1.58x and 1.68x at 10). Raising one's own nice value needs no
    privilege; Linux keeps it per thread, and a thread started later inherits its
    starter's.
    """
    if steps <= 0 or not hasattr(os, "setpriority"):
        return 0
    done = 0
    try:
        tids = [int(t) for t in os.listdir("/proc/self/task")]
    except OSError:  # not Linux: the process's priority
        tids = [0]
    for tid in tids:
        try:
            now = os.getpriority(os.PRIO_PROCESS, tid)
            os.setpriority(os.PRIO_PROCESS, tid, min(19, now + steps))
            done += 1
        except OSError as exc:  # a thread that ended meanwhile; a system that refuses
            log.debug("recall: could not lower thread %s: %s", tid, exc)
    return done
