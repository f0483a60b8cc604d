"""One process, two faces: the REST API and MCP over streamable HTTP on one port, or MCP
over stdio for a host that starts the server itself.

HTTP: ``/v1/...`` (REST), ``/mcp`` (MCP, stateless, JSON answers: any replica can take
any request), ``/openapi.json``, ``/healthz`` and the read-only inspector's pages under
``/ui`` (:mod:`.ui`); every request passes the
:class:`~recall.server.gate.Gate` first. The models load in the lifespan, before uvicorn
opens the port, so the first call is as fast as the next. Every connection is bounded:
its headers by ``header_timeout_s`` (:mod:`.conn`), its body by ``body_timeout_s`` (the
Gate), its idle time between requests by ``keep_alive_s``, and the server's connections
and requests in flight by ``max_connections`` (HTTP 503 past it).
"""

from __future__ import annotations

import copy
import logging
import math
import socket
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import anyio
from mcp.server import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from .activity import ActivityLog, recorded_routes
from .aio import AsyncMemory
from .auth import ApiKeys
from .conn import protocol_for
from .corrections import CorrectionsApi
from .gate import Gate
from .handshake import Early
from .listen import listen_socket
from .mcp import build_mcp
from .openapi import openapi_document
from .rest import ENDPOINTS, EXCEPTION_HANDLERS, RestApi
from .rpc_ids import checked_routes
from .settings import ServerSettings
from .stdio import run_stdio
from .timing import ServerTiming
from .ui import PUBLIC_PATHS, InspectorUi, ui_http_error
from .ui_login import Logins

if TYPE_CHECKING:
    from ..memory import Memory

__all__ = [
    "build_app",
    "listen_socket",
    "log_warnings_only",
    "ready_line",
    "serve_http",
    "serve_loading",
    "serve_stdio",
    "uvicorn_logging",
    "uvicorn_options",
]

_PUBLIC = {"/openapi.json", *(e.path for e in ENDPOINTS if e.public), *PUBLIC_PATHS}


def build_app(
    memory: Memory,
    *,
    keys: ApiKeys | None = None,
    default_user: str | None = None,
    settings: ServerSettings | None = None,
    ready: bool = False,
) -> Starlette:
    """The ASGI app serving ``memory``: REST, MCP at ``/mcp``, the OpenAPI document, the
    inspector at ``/ui``; ``settings``: the server's (None: :meth:`ServerSettings.load`,
    the environment and the settings file); ``ready``: print :func:`ready_line` when started."""
    conf = settings or ServerSettings.load()
    if keys is not None:  # inspector logins that expire, revoked at logout in the folder
        keys = keys.with_logins(Logins(memory.path, conf.inspector_login_s))
    amem = AsyncMemory(
        memory,
        timeout_s=conf.request_timeout_s,
        tenant_slots=conf.tenant_concurrency,
        threads=conf.threads,
    )
    log = ActivityLog(memory.path)  # the users' activity, shown on the inspector's pages
    mcp = build_mcp(
        amem, default_user=default_user, keys=keys, tools=conf.tools, lang=conf.lang, activity=log
    )
    mcp_app = mcp.streamable_http_app(
        streamable_http_path="/mcp",
        stateless_http=True,
        json_response=True,
        max_request_body_size=conf.max_body_bytes,
        # The Gate checks Host and Origin for every route, /mcp included, by the rules the
        # operator configured; the SDK's own guard would refuse the hosts they allowed.
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        host=conf.host,
    )

    # Built once: the document is the same for every request (44 ms to build).
    document = JSONResponse(openapi_document()).body

    async def openapi(_request: Request) -> Response:
        return Response(document, media_type="application/json")

    rest = RestApi(amem, keys, pinned=default_user)
    routes: list[BaseRoute] = [
        *recorded_routes(log, keys, [*rest.routes(), *CorrectionsApi(rest).routes()]),
        Route("/openapi.json", openapi, methods=["GET"]),
        *InspectorUi(amem, keys, pinned=default_user, activity=log).routes(),
        *checked_routes(mcp_app.routes),  # request ids the SDK would drop: answered
    ]

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await amem.warm_up()
        async with mcp.session_manager.run():
            if ready:  # the socket listens; uvicorn accepts right after the startup
                line = ready_line(memory, conf, keys, default_user)
                print(line, file=sys.stderr, flush=True)
            yield

    gate = Middleware(Gate, keys=keys, settings=conf, public=_PUBLIC, routes=routes)
    # Outermost, so that a request's tally covers the Gate and the route.
    timing = [Middleware(ServerTiming)] if conf.timing else []
    return Starlette(
        routes=routes,
        middleware=[*timing, gate],
        lifespan=lifespan,
        # 404 and 405 as JSON too (as a page under /ui)
        exception_handlers={**EXCEPTION_HANDLERS, HTTPException: ui_http_error},
    )


def log_warnings_only(level: str = "warning") -> None:
    """Log warnings and worse to stderr, nothing below (the SDK and bm25s are chatty), or
    everything from ``level`` ("debug"; uvicorn's access log is uvicorn's own at "info")."""
    # The MCP SDK configures the root logger when nothing has; a handler of our own first
    # keeps chatty libraries' debug records (bm25s logs every index build) off stderr.
    at = logging.DEBUG if level == "debug" else logging.WARNING
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(at)
    logging.basicConfig(level=at, handlers=[handler])


def serve_http(
    memory: Memory,
    *,
    default_user: str | None = None,
    sock: socket.socket | None = None,
    settings: ServerSettings | None = None,
) -> None:
    """Serve ``memory`` over HTTP at ``settings.host:port`` until interrupted, on ``sock``
    when given (:func:`listen_socket`: the CLI binds it before opening the folder);
    ``settings``: the server's (None: :meth:`ServerSettings.load`).

    Prints a ready line once the models are loaded and the port is about to accept
    (address, folder, API keys, the pinned user).
    """
    import uvicorn

    conf = settings or ServerSettings.load()
    sock = sock or listen_socket(conf)
    keys = ApiKeys.from_settings(conf)
    log_warnings_only(conf.log_level)
    app = build_app(memory, keys=keys, default_user=default_user, settings=conf, ready=True)
    print(
        f"recall serve: starting http://{conf.host}:{conf.port} (MCP at /mcp, REST at /v1, "
        "OpenAPI at /openapi.json, the inspector at /ui); loading the models",
        file=sys.stderr,
    )
    config = uvicorn.Config(app, **uvicorn_options(conf), log_config=uvicorn_logging())
    uvicorn.Server(config).run(sockets=[sock])


def ready_line(
    memory: Memory, conf: ServerSettings, keys: ApiKeys | None, default_user: str | None
) -> str:
    """What the server prints when it accepts requests: where, which folder, how many API
    ``keys``, the pinned user (and a warning when that user holds no memory yet: a typo?)."""
    n = len(keys) if keys else 0
    line = (
        f"recall serve: ready at http://{conf.host}:{conf.port}, folder {memory.path}, "
        f"{n or 'no'} API key{'' if n == 1 else 's'}"
    )
    if default_user is not None:
        line += f", serving user {default_user!r} only"
        if not memory.holds(default_user):
            line += f" (warning: {default_user!r} holds no memory yet; check the name)"
    return line


def uvicorn_logging() -> dict[str, Any]:
    """uvicorn's logging, its access lines on stderr beside everything else the server says
    (uvicorn writes them to stdout)."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["handlers"]["access"]["stream"] = "ext://sys.stderr"
    return config


def uvicorn_options(conf: ServerSettings) -> dict[str, Any]:
    """The ``uvicorn.run`` / ``uvicorn.Config`` options that bound every connection."""
    return {
        "host": conf.host,
        "port": conf.port,
        "log_level": conf.log_level,
        "access_log": conf.log_level != "warning",
        # The connection cap is the protocol's: a JSON 503 and the socket closed at once
        # (uvicorn's limit_concurrency keeps the socket until it sends a request).
        # So are one address's share and what one connection may make the server hold.
        "http": protocol_for(conf),
        "h11_max_incomplete_event_size": conf.max_header_bytes,
        "timeout_keep_alive": conf.keep_alive_s,
        # Requests in flight finish within their timeout (int() made 0.5 s a 0: none did).
        "timeout_graceful_shutdown": math.ceil(conf.request_timeout_s),
    }


async def serve_loading(
    amem: AsyncMemory,
    run: Callable[[MCPServer[Any]], Awaitable[object]],
    *,
    default_user: str | None = None,
    settings: ServerSettings | None = None,
) -> None:
    """``run`` the MCP server of ``amem`` while the models load beside it (its tools and
    their language: ``settings``', None: :meth:`ServerSettings.load`).

    The host's handshake (``initialize``, ``tools/list``) is answered at once: a host gives
    up on a server slow to say hello (MCP Inspector after 15 s). A tool call that comes
    before the models are loaded waits for them (the loads are locked), not the handshake.
    """

    async def warm() -> None:
        await amem.warm_up()
        print("recall serve: MCP over stdio, models loaded", file=sys.stderr)

    async with anyio.create_task_group() as tg:
        tg.start_soon(warm)
        conf, act = settings or ServerSettings.load(), ActivityLog(amem.memory.path)
        mcp = build_mcp(
            amem, default_user=default_user, tools=conf.tools, lang=conf.lang, activity=act
        )
        await run(mcp)
        tg.cancel_scope.cancel()  # the host left: a load still running is not waited for


def serve_stdio(
    memory: Memory,
    *,
    default_user: str | None = None,
    early: Early | None = None,
    settings: ServerSettings | None = None,
) -> None:
    """Serve ``memory`` as an MCP server over stdin/stdout until the host closes them
    (``settings``: the server's, None: :meth:`ServerSettings.load`).

    The host that starts the process is trusted (no keys); stdout carries the protocol, so
    everything else goes to stderr. ``early``: the host's first line, read (and an
    ``initialize`` answered) before the folder was opened (:mod:`.handshake`).
    """

    conf = settings or ServerSettings.load()
    log_warnings_only(conf.log_level)

    async def run(server: MCPServer[Any]) -> None:
        await run_stdio(server, early)  # answers bad lines

    async def main() -> None:
        amem = AsyncMemory(memory, timeout_s=conf.request_timeout_s)
        await serve_loading(amem, run, default_user=default_user, settings=conf)

    anyio.run(main)
