"""One REST route as data: what the route table of :mod:`.rest` (and the tables it joins,
:mod:`.rest_browse`, :mod:`.corrections`) holds, and what the OpenAPI document is built from.

Its own module so that a table of routes can live beside its handlers without importing
:mod:`.rest`, which includes those tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import BaseModel

from ..errors import UnknownUserError

if TYPE_CHECKING:
    from .aio import AsyncMemory

__all__ = ["Endpoint", "require_held"]


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


async def require_held(amem: AsyncMemory, uid: str) -> None:
    """``UnknownUserError`` (404) unless ``uid`` holds memory here. A read, a correction or
    a deletion of a user id this folder never held (a typo, most likely) answers 404 on
    every route, never 200-empty on some; the routes check it after the key (another
    tenant learns nothing of who exists) and after the request's own input (a bad body is
    a 400)."""
    if not await amem.holds(uid):
        raise UnknownUserError(f"user {uid!r} holds no memory here")
