"""The groups of :class:`recall.Settings`, one per stage, each read from ``RECALL_*``.

Each group lives in the module of its stage (:mod:`.retrieval`, :mod:`.lifecycle`,
:mod:`.context`); a new group is a module of its own, added to :data:`GROUPS`.
"""

from __future__ import annotations

from .base import _Group, env_name
from .context import ContextSettings
from .lifecycle import LifecycleSettings, LLMSettings
from .retrieval import RetrievalSettings, StorageSettings, TextSettings

__all__ = [
    "ContextSettings",
    "GROUPS",
    "LLMSettings",
    "LifecycleSettings",
    "RetrievalSettings",
    "StorageSettings",
    "TextSettings",
    "env_name",
]

#: Every group, in the order ``recall settings`` lists them.
GROUPS: tuple[type[_Group], ...] = (
    StorageSettings,
    RetrievalSettings,
    LifecycleSettings,
    LLMSettings,
    TextSettings,
    ContextSettings,
)
