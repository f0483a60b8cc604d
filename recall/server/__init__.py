"""recall as a memory server: MCP (stdio, streamable HTTP) and a REST API in one process.

``recall serve`` runs it; :func:`build_app` gives the ASGI app to mount elsewhere;
:class:`AsyncMemory` is the awaitable face of :class:`recall.Memory` for async hosts.
Modules: :mod:`.aio` (off-loop calls), :mod:`.auth` (API keys and tenants), :mod:`.gate`
(the HTTP front door), :mod:`.rest` and :mod:`.openapi` (the REST API), with :mod:`.bodies`
(strict JSON bodies), :mod:`.idempotent` (the ``Idempotency-Key``), :mod:`.errors` (the
server's own errors and every error's HTTP status) and :mod:`.error_answers` (failures as
JSON), :mod:`.mcp` (the MCP tools), :mod:`.app` (wiring
and the two transports).

The names below are imported when first used (PEP 562): ``recall serve`` over stdio
answers the host's handshake (:mod:`.handshake`) before the SDK and the ASGI stack load.
"""

import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

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
    "TooLargeError": ".errors",
    "build_app": ".app",
    "build_mcp": ".mcp",
    "serve_http": ".app",
    "serve_stdio": ".app",
}


def __getattr__(name: str) -> _Any:
    """A public name, imported from its module on first use and kept here after; a
    module of this package as ``import recall.server.<name>`` would give it."""
    home = _HOME.get(name)
    if home is None:
        try:
            return _importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(_importlib.import_module(home, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
