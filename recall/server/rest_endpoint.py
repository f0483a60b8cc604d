"""One REST route as data: what the route table of :mod:`.rest` (and the tables it joins,
:mod:`.rest_browse`, :mod:`.corrections`) holds, and what the OpenAPI document is built from.

Its own module so that a table of routes can live beside its handlers without importing
:mod:`.rest`, which includes those tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

__all__ = ["Endpoint"]


@dataclass(frozen=True)
class Endpoint:
    """One route: method, path, the handler's name (on the table's API class, such as
    :class:`~recall.server.rest.RestApi`), and its models."""

    method: str
    path: str
    name: str
    summary: str
    body: type[BaseModel] | None = None
    response: type[BaseModel] | None = None
    status: int = 200
    #: Answered without an API key (liveness, the OpenAPI document).
    public: bool = False
    media_type: str = "application/json"
