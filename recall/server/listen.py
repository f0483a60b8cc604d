"""The HTTP server's socket, bound before anything else happens (:func:`listen_socket`)."""

from __future__ import annotations

import errno
import socket

from ..errors import ConfigError
from .auth import ApiKeys, is_loopback
from .settings import ServerSettings

__all__ = ["listen_socket"]


def listen_socket(conf: ServerSettings) -> socket.socket:
    """The server's socket, bound to ``conf.host:conf.port`` and listening.

    Bound before anything else happens: a port in use, or an address this machine does not
    have, is a ``ConfigError`` saying so, before a folder is created or a model loaded.
    Without API keys only a loopback address is bound: an open memory on the network is
    never a default.
    """
    if ApiKeys.from_settings(conf) is None and not is_loopback(conf.host):
        raise ConfigError(
            f"refusing to listen on {conf.host} without API keys: set RECALL_SERVER_API_KEYS "
            "or --keys FILE, or bind 127.0.0.1"
        )
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            conf.host, conf.port, type=socket.SOCK_STREAM
        )[0]
    except socket.gaierror as exc:
        raise ConfigError(f"cannot listen on {conf.host}: {exc.strerror}") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ConfigError(
                f"port {conf.port} on {conf.host} is in use: stop what holds it, or serve on "
                "another (--port N or RECALL_SERVER_PORT)"
            ) from None
        raise ConfigError(f"cannot listen on {conf.host}:{conf.port}: {exc.strerror}") from None
    # Listening from here on: a client that comes while the models load waits in the
    # backlog (uvicorn's default size) instead of being refused.
    sock.listen(2048)
    return sock
