"""A real ``recall serve`` HTTP server on loopback, in a thread: uvicorn with the options
``recall serve`` uses, over a memory the test opened (its HashEmbedder, no model load)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from starlette.applications import Starlette

import recall
from recall.server import ApiKeys, build_app
from recall.server.app import uvicorn_options
from recall.server.settings import ServerSettings

__all__ = ["free_port", "live_server", "running"]


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running(app: Starlette, conf: ServerSettings, **options: Any) -> Iterator[uvicorn.Server]:
    """uvicorn serving ``app`` on 127.0.0.1 in a thread while the block runs, with the
    options ``recall serve`` uses for ``conf`` (``options``: any of them replaced, such as
    ``http``, the connection protocol)."""
    config = uvicorn.Config(app, **{**uvicorn_options(conf), **options}, log_config=None)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield server
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@contextmanager
def live_server(
    mem: recall.Memory,
    *,
    keys: ApiKeys | None = None,
    default_user: str | None = None,
    **settings: Any,
) -> Iterator[tuple[str, Starlette]]:
    """``(base URL, app)`` of the server of ``mem`` on 127.0.0.1 while the block runs;
    ``settings``: server settings to change (``request_timeout_s=...``)."""
    conf = ServerSettings().model_copy(update={**settings, "port": free_port()})
    app = build_app(mem, keys=keys, default_user=default_user, settings=conf)
    with running(app, conf):
        yield f"http://127.0.0.1:{conf.port}", app
