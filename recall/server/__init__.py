"""recall as a memory server: MCP (stdio, streamable HTTP) and a REST API in one process.

``recall serve`` runs it; :func:`build_app` gives the ASGI app to mount elsewhere;
:class:`AsyncMemory` is the awaitable face of :class:`recall.Memory` for async hosts.
Modules: :mod:`.aio` (off-loop calls), :mod:`.auth` (API keys and tenants), :mod:`.gate`
(the HTTP front door), :mod:`.rest` and :mod:`.openapi` (the REST API), with :mod:`.bodies`
(strict JSON bodies), :mod:`.idempotent` (the ``Idempotency-Key``), :mod:`.errors` (the
server's own errors and every error's HTTP status) and :mod:`.error_answers` (failures as
JSON), :mod:`.mcp` (the MCP tools), :mod:`.app` (wiring
and the two transports), :mod:`.settings` (:class:`ServerSettings`, the server's own).

The names below are imported when first used (PEP 562): ``recall serve`` over stdio
answers the host's handshake (:mod:`.handshake`) before the SDK and the ASGI stack load.
"""

from typing import TYPE_CHECKING as _TYPE_CHECKING

from ..lazy import lazy_names as _lazy_names

if _TYPE_CHECKING:
    from .aio import AsyncMemory
    from .app import build_app, serve_http, serve_stdio
    from .auth import ApiKeys
    from .errors import (
        AuthError,
        BodyTimeoutError,
        ForbiddenError,
        HostError,
        InProgressError,
        KeyReusedError,
        MediaTypeError,
        NotFoundError,
        OriginError,
        TooLargeError,
    )
    from .mcp import build_mcp
    from .settings import ServerSettings

__all__ = [
    "ApiKeys",
    "AsyncMemory",
    "AuthError",
    "BodyTimeoutError",
    "ForbiddenError",
    "HostError",
    "InProgressError",
    "KeyReusedError",
    "MediaTypeError",
    "NotFoundError",
    "OriginError",
    "ServerSettings",
    "TooLargeError",
    "build_app",
    "build_mcp",
    "serve_http",
    "serve_stdio",
]

#: Where each public name lives (its module, relative to this package).
_HOME: dict[str, str] = {
    "ApiKeys": ".auth",
    "AsyncMemory": ".aio",
    "AuthError": ".errors",
    "BodyTimeoutError": ".errors",
    "ForbiddenError": ".errors",
    "HostError": ".errors",
    "InProgressError": ".errors",
    "KeyReusedError": ".errors",
    "MediaTypeError": ".errors",
    "NotFoundError": ".errors",
    "OriginError": ".errors",
    "ServerSettings": ".settings",
    "TooLargeError": ".errors",
    "build_app": ".app",
    "build_mcp": ".mcp",
    "serve_http": ".app",
    "serve_stdio": ".app",
}


__getattr__, __dir__ = _lazy_names(__name__, _HOME, globals(), __all__)
