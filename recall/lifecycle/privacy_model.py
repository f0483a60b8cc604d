"""The learned half of the privacy reading: whether a user's message asks not to keep
something, read from the whole message rather than from patterns.

:mod:`.privacy`'s patterns find half of what people who never read them write ("forget it
once you've answered", "wipe this when we're done", "不用留底"): a request not to keep can
be phrased in more ways than any list holds. This is a logistic regression over the
message's vector in the multilingual model recall ships (USE-multilingual, en and zh in
one space), fitted by ``benchmarks/train_privacy.py`` on 1,331 messages written from a brief
by two helpers who read no code (``benchmarks/data/privacy/dev.tsv`` and ``more.tsv``:
requests, and look-alikes that must be kept: reminders, requests to remember, "forget it"
meaning never mind, plain secrets with no request). A third file by the first writer,
``frozen.tsv``, never fitted on, measures it (benchmarks/README.md).

It only adds to the patterns: a message they take stays taken. It flags a message only at
log-odds above :data:`LOGIT`: a look-alike taken is a memory lost. The examples to keep
include everyday messages written for other purposes (the attribute examples, the
deep-recall trigger examples, the value sentences), without which the model learns "a
personal disclosure" rather than "a request not to keep it". The threshold was chosen
across writers (fitted on one helper's messages, scored on the other's) and on LoCoMo's
conversations, which hold no request: none of their 4,124 turns, as the dataset gives them,
goes over it (9 went over log-odds 5). The memory tiers' LoCoMo benchmark still loses 0.3
points with it (0.6 at 5): a look-alike taken is the price of a request found. The
weights hold for the model they were fitted with; with any other embedder (a test's hash
embedder, a custom model) :func:`load_privacy_model` gives None and the patterns alone
decide.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from ..index.embed import Embedder
from ..user.attributes import _columns, _unit
from .privacy import Learned

__all__ = ["LOGIT", "PrivacyModel", "SHIPPED", "learned_reader", "load_privacy_model"]

#: The fitted weights, next to this module.
SHIPPED = "privacy.npz"
#: A message asks not to keep when the model's log-odds exceed this (see the module docs).
LOGIT = 6.5


@dataclass(frozen=True)
class PrivacyModel:
    """The fitted model for one multilingual model: its weights and bias."""

    model: Embedder
    weights: npt.NDArray[np.float64]
    bias: float

    def logits(self, texts: Sequence[str]) -> npt.NDArray[np.float64]:
        """The log-odds that each text asks not to keep something."""
        if not texts:
            return np.zeros(0)
        vectors = _unit(self.model.embed_documents(list(texts))).astype(np.float64)
        return vectors @ self.weights + self.bias

    def asks(self, texts: Sequence[str]) -> list[bool]:
        """Whether each text asks not to keep something (log-odds over :data:`LOGIT`)."""
        return [bool(z > LOGIT) for z in self.logits(texts)]


@cache
def _shipped() -> tuple[str, npt.NDArray[np.float64], float] | None:
    ref = resources.files(__package__).joinpath(SHIPPED)
    if not ref.is_file():
        return None
    with ref.open("rb") as f, np.load(f) as data:
        return str(data["model"]), data["weights"].astype(np.float64), float(data["bias"])


def load_privacy_model(embedder: Embedder) -> PrivacyModel | None:
    """The fitted model when ``embedder`` (or its multilingual part) is the model it was
    fitted with, else None."""
    shipped = _shipped()
    model = _columns(embedder)[0]
    if shipped is None or getattr(model, "id", None) != shipped[0]:
        return None
    return PrivacyModel(model, shipped[1], shipped[2])


def learned_reader(embedder_fn: Callable[[], Embedder]) -> Learned:
    """What :func:`recall.lifecycle.privacy.private_turns` takes as ``learned``: the fitted
    model's :meth:`PrivacyModel.asks` when ``embedder_fn()`` is the model it was fitted
    with, else nothing read (the patterns alone). The embedder is asked for on the first
    call, not before: opening a memory loads no model."""

    def read(texts: Sequence[str]) -> list[bool]:
        model = load_privacy_model(embedder_fn()) if texts else None
        return [False] * len(texts) if model is None else model.asks(texts)

    return read
