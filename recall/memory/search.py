"""The facade's searches: a request built once, then run, as httpx's
``Client.build_request()``/``send()`` do.

:meth:`SearchMethods.build_request` checks a query and its options once (the one place for
``top_k``, the time window and the query bound: :func:`recall.inputs.recall_request`) and
returns a :class:`~recall.models.RecallRequest`; :meth:`~SearchMethods.deep_recall` and
:meth:`~SearchMethods.explain` run one, built here or from the keywords they take as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, TypedDict, Unpack, cast

from .. import inputs
from ..errors import InputError
from ..models import Hit, RecallRequest, require_user_id
from ..tool import handle_tool_call
from .core import MemoryCore
from .inspect import Explained

__all__ = ["RequestOptions", "SearchMethods", "SearchOptions"]


class SearchOptions(TypedDict, total=False):
    """The keywords of :meth:`SearchMethods.build_request` (all but the user)."""

    top_k: int | None
    depth: inputs.Depth | None
    kinds: Sequence[str] | None
    since: datetime | str | None
    until: datetime | str | None
    now: datetime | str | None


class RequestOptions(SearchOptions, total=False):
    """The keywords of a search given as text (``deep_recall``, ``explain``): ``user_id``
    (required) and those of :meth:`SearchMethods.build_request`, written once here."""

    user_id: str


def _known(options: Mapping[str, object], allowed: Mapping[str, object]) -> None:
    """A keyword ``allowed`` does not name is a TypeError, as Python says of any other."""
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise TypeError(f"unexpected keyword argument {unknown[0]!r}")


class SearchMethods(MemoryCore):
    """The searches of :class:`recall.Memory`: build_request, deep_recall, explain, the tool."""

    def build_request(
        self, query: str, user_id: str, **options: Unpack[SearchOptions]
    ) -> RecallRequest:
        """One checked search, to hand to :meth:`deep_recall` or :meth:`explain`.

        ``query`` within ``settings.retrieval.max_query_chars``; ``top_k`` (default
        ``default_top_k``) from 1 to ``max_top_k``; ``kinds`` when given, else the tiers of
        ``depth`` (default ``recall_depth``); ``since``/``until`` a hard window on when it was
        said and the query's own time words ("last week") read against ``now`` (default: the
        current time) as a soft one (the keywords: :class:`SearchOptions`, each None by
        default). Raises ``InputError`` saying what to pass instead.
        """
        _known(options, SearchOptions.__annotations__)
        o = options
        window = {"since": o.get("since"), "until": o.get("until"), "now": o.get("now")}
        return inputs.recall_request(
            query, user_id, o.get("top_k"), o.get("kinds"), self.settings, o.get("depth"), **window
        )

    def _request(self, query: str | RecallRequest, options: RequestOptions) -> RecallRequest:
        """The request ``query`` is, or the one built from it and ``options``."""
        _known(options, RequestOptions.__annotations__)
        if not isinstance(query, RecallRequest):
            user_id: Any = options.pop("user_id", None)  # None: InputError naming user_id
            return self.build_request(query, user_id, **cast(SearchOptions, options))
        given = [k for k, v in options.items() if v is not None]
        if given:
            raise InputError(
                f"a built request carries its own {', '.join(sorted(given))}: pass them to "
                "build_request, or the query text instead of the request"
            )
        # Built elsewhere (another memory's settings, or by hand): this memory's bounds.
        inputs.request_bounds(query.query, query.top_k, self.settings)
        return query

    def deep_recall(
        self,
        query: str | RecallRequest,
        *,
        alpha: float | None = None,
        fusion: inputs.Fusion | None = None,
        allow_degraded: bool = False,
        **options: Unpack[RequestOptions],
    ) -> list[Hit]:
        """Hybrid search of the user's memory: ``alpha``·keyword + (1−alpha)·vector.

        ``query`` is the query text with the keywords of :class:`RequestOptions`
        (``user_id`` required; those of :meth:`build_request`), or a request
        :meth:`build_request` made (``mem.deep_recall(req)``; then only ``alpha``,
        ``fusion`` and ``allow_degraded`` may be given).

        What is searched: ``kinds`` when given, else the tiers of ``depth`` ("recent": notes,
        short-term summaries, Dynamic passages; "archive": also the promoted summaries and
        the raw turns; default ``settings.retrieval.recall_depth``). ``alpha``/``fusion``
        override the settings for this call (benchmarks compare modes on one index). With
        ``allow_degraded`` a vector store outage returns keyword-only hits flagged
        ``degraded`` instead of raising ``StoreError``.

        ``since``/``until`` (datetimes, dates or ISO strings; a bare ``until`` date keeps its
        whole day) keep only what was said in that window. Time words in the query ("last
        week", "上个月") are read against ``now`` (default: the current time; pass the
        replay's date) as a soft window: hits inside it rank first (recall.index.window).
        """
        req = self._request(query, options)
        weight, method = inputs.fusion_params(alpha, fusion, self.settings)
        return self._retriever.search(
            req, self.embedder(), alpha=weight, fusion=method, allow_degraded=allow_degraded
        )

    def explain(self, query: str | RecallRequest, **options: Unpack[RequestOptions]) -> Explained:
        """:meth:`deep_recall`'s hits for ``query`` (same arguments, or the same built
        request) and the hits the relevance floor removed from the same ranking, each with
        both legs' raw and normalized scores and ranks."""
        asked = self._request(query, options)
        weight, method = inputs.fusion_params(None, None, self.settings)
        ranked, scored = self._retriever.ranked(asked, self.embedder(), alpha=weight, fusion=method)
        hits = self._retriever.floored(ranked, scored)
        kept = {h.id for h in hits}
        return Explained(
            query=asked.query, hits=hits, floored=[h for h in ranked if h.id not in kept]
        )

    def handle_tool_call(self, tool_call: Any, *, user_id: str) -> dict[str, Any]:
        """Answer a ``deep_recall`` tool call with the message to append, in the call's own
        shape: a Chat Completions tool call, a Responses ``function_call`` item or an
        Anthropic ``tool_use`` block (:mod:`recall.tool_shapes`).

        A bad ``user_id`` is the host's bug and raises ``InputError``; anything wrong with
        the call itself comes back as a tool message the model can read; ``top_k`` is
        bounded by ``settings.retrieval.tool_max_top_k``, the query by ``max_query_chars``
        (the schema of ``recall.tool.deep_recall_tool(mem.settings)``).
        """
        uid = require_user_id(user_id)
        return handle_tool_call(
            lambda query, *, top_k, depth=None, since=None, until=None: self.deep_recall(
                self.build_request(query, uid, top_k=top_k, depth=depth, since=since, until=until)
            ),
            tool_call,
            settings=self.settings,
        )
