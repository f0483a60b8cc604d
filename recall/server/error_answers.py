"""Every failure of the REST API answered as JSON: ``{"error": message, "status": code}``.

The status is :func:`~recall.server.errors.status_for`'s; a timeout on a write says that the
write may still complete and how to retry it safely (:mod:`.idempotent`), an unforeseen
error is logged and answered 500 without its details, and Starlette's own 404 and 405 (an
unknown route or method) are answered the same way (:data:`EXCEPTION_HANDLERS`), a 405's
``Allow`` header naming every method the path takes.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Match, Route

from ..errors import RecallError
from . import schemas as s
from .errors import status_for
from .idempotent import IDEMPOTENCY_HEADER

__all__ = ["EXCEPTION_HANDLERS", "error_response", "http_error"]

# The REST API's logger, as before these answers left recall.server.rest.
log = logging.getLogger("recall.server.rest")
_TIMED_OUT = "the request timed out; try again, or narrow it"
_WRITE_TIMED_OUT = (
    "the request timed out, but the write may still complete: retry it with the same "
    f"{IDEMPOTENCY_HEADER} header to get its answer without writing twice (send a new key "
    "with every write)"
)


def _error(message: str, status: int, headers: Mapping[str, str] | None = None) -> JSONResponse:
    # A message may quote the input, and input may hold lone surrogates, which UTF-8 cannot
    # encode: escape them rather than fail while answering.
    message = message.encode("utf-8", "backslashreplace").decode("utf-8")
    body = s.ErrorBody(error=message, status=status).model_dump()
    return JSONResponse(body, status_code=status, headers=headers)


def error_response(exc: BaseException, *, write: bool = False) -> JSONResponse:
    """The JSON error answer for ``exc``; ``write``: the request was a write (a 504 then
    says that the write may still complete, and how to retry safely)."""
    status = status_for(exc)
    if isinstance(exc, RecallError):
        message = str(exc)
    else:
        message = _WRITE_TIMED_OUT if write else _TIMED_OUT
    if status == 500:
        log.exception("recall server: unexpected error", exc_info=exc)
        message = f"internal error: {type(exc).__name__}"
    headers = {"www-authenticate": "Bearer"} if status == 401 else None
    return _error(message, status, headers)


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own errors as JSON: an unknown path (404), a method the route does not
    take (405, with its ``Allow`` header). Pass it to ``Starlette(exception_handlers=...)``
    for :class:`starlette.exceptions.HTTPException`."""
    if not isinstance(exc, HTTPException):  # pragma: no cover - registered for that class
        return error_response(exc)
    if exc.status_code == 404:
        message = (
            f"no such route: {request.method} {request.url.path}; the routes are listed "
            "at /openapi.json"
        )
    elif exc.status_code == 405:
        allowed = _allowed(request) or (exc.headers or {}).get("Allow", "")
        message = f"{request.method} is not allowed on {request.url.path}; use {allowed}"
        return _error(message, 405, {"allow": allowed})
    else:
        message = str(exc.detail)
    return _error(message, exc.status_code, exc.headers)


def _allowed(request: Request) -> str:
    """Every method some route takes at this path (the router's 405 names only the first
    route's, and a path such as ``/memories`` has a GET route and a POST route)."""
    router = request.scope.get("router")
    methods: set[str] = set()
    for route in getattr(router, "routes", ()):
        if isinstance(route, Route) and route.matches(request.scope)[0] is not Match.NONE:
            methods |= route.methods or set()
    return ", ".join(sorted(methods))


#: ``Starlette(exception_handlers=...)``: the router's 404 and 405 answered as JSON.
EXCEPTION_HANDLERS: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
    HTTPException: http_error
}
