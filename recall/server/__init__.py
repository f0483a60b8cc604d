"""recall as a memory server: MCP (stdio, streamable HTTP) and a REST API in one process.

``recall serve`` runs it; :func:`build_app` gives the ASGI app to mount elsewhere;
:class:`AsyncMemory` is the awaitable face of :class:`recall.Memory` for async hosts.
Modules: :mod:`.aio` (off-loop calls), :mod:`.auth` (API keys and tenants), :mod:`.gate`
(the HTTP front door), :mod:`.rest` and :mod:`.openapi` (the REST API), with :mod:`.bodies`
(strict JSON bodies), :mod:`.idempotent` (the ``Idempotency-Key``), :mod:`.errors` (the
server's own errors and every error's HTTP status) and :mod:`.error_answers` (failures as
JSON), :mod:`.mcp` (the MCP tools), :mod:`.app` (wiring
and the two transports).
"""

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
    "TooLargeError",
    "build_app",
    "build_mcp",
    "serve_http",
    "serve_stdio",
]
