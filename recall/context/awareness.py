"""The awareness section's source: what the agent can do right now (see docs/design.md).

An :class:`AwarenessProvider` returns the current list (OpenAI tool dicts, ``{"name",
"description"}`` dicts or plain strings, or a ready text). :class:`CachedAwareness` wraps one
so that it is asked at most once every ``awareness_cache_s`` (5 minutes by default): the
list may come from a plugin host or a server, and it rarely changes within a conversation.
Either goes to ``ContextBuilder.build(awareness=...)``, which renders the list as
``- name: description`` lines within the awareness budget. The clock is injectable, so a
test moves time instead of sleeping.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ..settings import Settings
from .built import AwarenessItem, render_awareness
from .inputs import as_settings

__all__ = ["AwarenessList", "AwarenessProvider", "CachedAwareness"]

#: What a provider returns: items (tool dicts, strings) or a ready text.
AwarenessList = str | Sequence[AwarenessItem]


@runtime_checkable
class AwarenessProvider(Protocol):
    """Anything that can list the agent's current tools and abilities."""

    def awareness(self) -> AwarenessList:
        """The current list; called at most once per cache period when wrapped."""
        ...


class CachedAwareness:
    """A provider (or a plain callable) asked at most once every ``ttl_s`` seconds.

    Calling it returns the list; :meth:`text` the rendered section text, cached with it.
    ``ttl_s`` defaults to ``settings.context.awareness_cache_s``; 0 asks every time.
    """

    def __init__(
        self,
        provider: AwarenessProvider | Callable[[], AwarenessList],
        *,
        settings: Settings | Mapping[str, Any] | None = None,
        ttl_s: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.provider = provider
        self.ttl_s = as_settings(settings).context.awareness_cache_s if ttl_s is None else ttl_s
        self._clock = clock
        self._fetched: tuple[float, AwarenessList, str] | None = None

    def __call__(self) -> AwarenessList:
        return self._current()[1]

    def awareness(self) -> AwarenessList:
        """The list (the :class:`AwarenessProvider` protocol, so wrappers nest)."""
        return self._current()[1]

    def text(self) -> str:
        """The list as the awareness section's text (``- name: description`` lines)."""
        return self._current()[2]

    def refresh(self) -> None:
        """Forget the cached list: the next read asks the provider (the tools changed)."""
        self._fetched = None

    def _current(self) -> tuple[float, AwarenessList, str]:
        now = self._clock()
        fetched = self._fetched
        if fetched is None or now - fetched[0] >= self.ttl_s:
            source = self.provider
            items = source.awareness() if isinstance(source, AwarenessProvider) else source()
            fetched = self._fetched = (now, items, render_awareness(items))
        return fetched
