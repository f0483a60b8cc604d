"""What the retriever asks of the model of the user, as a small protocol object: recall.index
does not read the user itself.

The model of the user (which attribute a sentence or a question is about, what each one
holds now, the public profile) lives in :mod:`recall.user`, a layer above this one; the
facade (:class:`recall.memory.Memory`) builds the :class:`~recall.index.retriever.Retriever`
with :data:`recall.user.USER_READER` (a :class:`UserModel`), as it gives it a store and an
embedder. The retriever only calls the functions of :class:`UserModel` and keeps what
they derive in the user's cached :class:`~recall.index.partitions.Partition`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..models import Profile, RecallRequest, Record
from ..settings import Settings
from ..text.analyzer import Analyzer
from .embed import Embedder
from .partitions import Partition

#: Which records of a partition lie in the query's time window.
Mask = npt.NDArray[np.bool_]

__all__ = ["Asked", "Mask", "UserModel", "leading"]


class Asked(NamedTuple):
    """What a question asks of the user now."""

    #: Positions of the records stating what the asked attribute holds now, the newest
    #: first ([] when the user never said it).
    current: list[int]
    #: A model read the attribute (recall.lifecycle.extract): its answer is what holds, and
    #: the hits are not re-ordered by when they were said.
    settled: bool = False


@dataclass(frozen=True)
class UserModel:
    """The reader of the user's own words the retriever is given: six functions (see
    module docs). Each takes the partition, the embedder and the analyzer the retriever
    holds; what they read is kept in ``part.derived``."""

    #: Read the partition's user statements once (the rebuild after a write calls it, so a
    #: query does not): ``(part, embedder, analyzer)``.
    derive: Callable[[Partition, Embedder, Analyzer], object]
    #: What the user's own words say of them, attribute by attribute, and the attribute
    #: ``query`` asks the present value of (None: none, or no query):
    #: ``(user_id, part, embedder, analyzer, query)``.
    profile: Callable[[str, Partition, Embedder, Analyzer, str | None], tuple[Profile, str | None]]
    #: What ``req`` asks of the user now, or None when it asks nothing of the user's present
    #: (``hard``: the query's time window over the partition, None: none):
    #: ``(req, part, embedder, analyzer, settings, hard)``.
    asked: Callable[
        [RecallRequest, Partition, Embedder, Analyzer, Settings, Mask | None], Asked | None
    ]
    #: The positions of ``records`` (in rank order) in the order a question about the
    #: present wants them (the newest statement of what it asks first): ``(query, records)``.
    present_first: Callable[[str, Sequence[Record]], list[int]]
    #: ``query`` with the user named in the third person (their name, "the user") read in
    #: the first, as the memory holds their words: ``(query, part, embedder, analyzer)``.
    first_person: Callable[[str, Partition, Embedder, Analyzer], str] = (
        lambda query, _part, _embedder, _analyzer: query
    )
    #: For each of the records a question about the present re-orders, the day the user
    #: first said the newest thing it names (None: the day it was said):
    #: ``(part, embedder, analyzer, records)``.
    named_since: Callable[
        [Partition, Embedder, Analyzer, Sequence[Record]], list[datetime | None]
    ] = lambda _part, _embedder, _analyzer, records: [None] * len(records)


def leading(cand: npt.NDArray[np.intp], current: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    """Positions in ``cand`` of the ``current`` records, in the order of ``current`` (each
    is among the candidates: the retriever adds them)."""
    at = {int(c): j for j, c in enumerate(cand)}
    return np.array([at[int(i)] for i in current if int(i) in at], dtype=np.intp)
