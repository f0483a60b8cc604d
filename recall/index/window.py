"""Time windows over a partition's records: when each record's content was said.

Two windows reach the retriever (:class:`~recall.models.RecallRequest`): the hard one a
caller names (``since``/``until``: records outside are never returned) and the soft one the
query names itself ("last week", 上个月: :mod:`recall.text.when`). Inside the soft one every
record is a candidate (a question that names only a time shares no words with what was
said then) and ranks ahead by ``retrieval.time_prior_boost``; records outside still count,
so a time expression read wrongly ("last summer" said of a story) costs order, not recall.
A window is itself a relevance signal for the relevance floor (:func:`keep_in_window`).
A hard window read from a question that names only a time widens to the nearest record
when it holds none (:func:`hard`): "what did we talk about last week?" asked on a Sunday,
when the last talk was on Monday, is answered by Monday's talk rather than by nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

import numpy as np
import numpy.typing as npt

from ..models import Hit, RecallRequest, as_utc
from .partitions import Partition

__all__ = ["Mask", "best_inside", "hard", "inside", "keep_in_window", "mask", "widened"]

#: One bool per partition record: inside the window or not.
Mask = npt.NDArray[np.bool_]
_DAY = 86_400.0


def _said(part: Partition) -> npt.NDArray[np.float64]:
    if part.said is None or part.said.size != len(part.records):
        part.said = np.fromiter(
            (r.created_at.timestamp() for r in part.records),
            dtype=np.float64,
            count=len(part.records),
        )
    return part.said


def mask(part: Partition, start: datetime | None, end: datetime | None) -> Mask | None:
    """Which records were said in ``[start, end)`` (an open side is unbounded); None when
    both sides are open (no window)."""
    if start is None and end is None:
        return None
    times = _said(part)
    keep = np.ones(times.size, dtype=bool)
    if start is not None:
        keep &= times >= as_utc(start).timestamp()
    if end is not None:
        keep &= times < as_utc(end).timestamp()
    return keep


def hard(part: Partition, req: RecallRequest) -> tuple[Mask | None, RecallRequest]:
    """The request's hard window over ``part``, and the request: as given, or (a window
    read from the question, :attr:`~recall.models.RecallRequest.loose`, holding no record)
    :func:`widened`, with the request's bounds widened too, which the floor reads."""
    keep = mask(part, req.since, req.until)
    if keep is None or keep.any() or not req.loose or req.since is None or req.until is None:
        return keep, req
    wider = widened(part, req.since, req.until)
    if wider is None:
        return keep, req
    req = req.model_copy(update={"since": wider[0], "until": wider[1]})
    return mask(part, *wider), req


def widened(part: Partition, start: datetime, end: datetime) -> tuple[datetime, datetime] | None:
    """``[start, end)`` widened on both sides, by whole days, until it holds the record
    said nearest to it; None when that record lies further off than the window's own
    length. People name calendar periods loosely ("last week" for six days ago); the
    window's length bounds how loosely, so "last week" never reaches back months."""
    times = _said(part)
    if times.size == 0:
        return None
    s, e = as_utc(start).timestamp(), as_utc(end).timestamp()
    before = times < s
    # Whole days to reach each record: the start is inclusive, the end exclusive.
    need = np.where(before, np.ceil((s - times) / _DAY), np.floor((times - e) / _DAY) + 1)
    days = int(need.min())
    if days * _DAY > max(e - s, _DAY):
        return None
    return start - timedelta(days=days), end + timedelta(days=days)


def best_inside(
    inside_mask: Mask,
    kw_all: npt.NDArray[np.float64],
    vec_all: npt.NDArray[np.float64] | None,
    pool: int,
) -> npt.NDArray[np.intp]:
    """The window's records to add as candidates: all of them, or the ``pool`` best by
    both legs' raw scores when there are more."""
    idx = np.flatnonzero(inside_mask)
    if idx.size <= pool:
        return idx
    score = kw_all[idx] / max(float(kw_all[idx].max()), 1e-9)
    if vec_all is not None:
        score = score + vec_all[idx]
    return idx[np.argpartition(-score, pool - 1)[:pool]]


def inside(when: datetime, start: datetime | None, end: datetime | None) -> bool:
    """Whether ``when`` lies in ``[start, end)``."""
    t = as_utc(when)
    return (start is None or t >= as_utc(start)) and (end is None or t < as_utc(end))


def keep_in_window(hits: Sequence[Hit], floored: Sequence[Hit], req: RecallRequest) -> list[Hit]:
    """What the relevance floor leaves of ``hits`` (``floored``), with the windows' say.

    Hits inside the query's own window stay: the query asked about that time. Under a hard
    window, when the floor leaves nothing, the window's hits stand: the caller asked what
    was said then ("what did we talk about", since Monday) and the words alone match none.
    """
    kept = {h.id for h in floored}
    if req.prior is not None:
        kept |= {h.id for h in hits if inside(h.created_at, *req.prior)}
    if not kept and (req.since is not None or req.until is not None):
        return list(hits)
    return [h for h in hits if h.id in kept]
