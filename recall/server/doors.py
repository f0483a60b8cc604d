"""The Host and Origin rules of the HTTP front door (steps 1 and 2 of :mod:`recall.server.gate`).

Owns :class:`Doors`: which ``Host`` names this server answers to (421 otherwise, the
DNS-rebinding guard) and which browser ``Origin`` may call it (403 otherwise), built from
the bound address and ``RECALL_SERVER_ALLOWED_HOSTS`` / ``RECALL_SERVER_ALLOWED_ORIGINS``.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.types import Scope

from .auth import is_loopback
from .errors import HostError, OriginError
from .settings import ServerSettings

__all__ = ["Doors"]


def _split_host(netloc: str) -> tuple[str, str | None]:
    """``("example.com", "8080")`` from ``example.com:8080``; IPv6 brackets dropped."""
    netloc = netloc.strip().lower()
    if netloc.startswith("["):
        host, _, rest = netloc[1:].partition("]")
        return host, rest[1:] if rest.startswith(":") else None
    host, sep, port = netloc.rpartition(":")
    if sep and port.isdigit() and ":" not in host:
        return host, port
    return netloc, None


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _items(value: str | None) -> list[str]:
    return [item.strip().lower().rstrip("/") for item in (value or "").split(",") if item.strip()]


@dataclass(frozen=True)
class Doors:
    """The Host and Origin rules of one server (see the module docs)."""

    #: Host names (no port) answered besides loopback and the connection's own address.
    hosts: frozenset[str]
    #: ``host:port`` values answered exactly.
    host_ports: frozenset[str]
    any_host: bool
    #: Origins (``scheme://host[:port]``) answered exactly.
    origins: frozenset[str]
    #: ``scheme://host`` of the ``scheme://host:*`` entries: any port.
    origin_prefixes: frozenset[str]
    any_origin: bool

    @classmethod
    def from_settings(cls, conf: ServerSettings) -> Doors:
        """The rules of ``conf``: its bound address and its allowed hosts and origins."""
        hosts: set[str] = set()
        host_ports: set[str] = set()
        bound, _ = _split_host(conf.host)
        if bound not in ("0.0.0.0", "::", ""):  # a wildcard bind names no host
            hosts.add(bound)
        extra_hosts = _items(conf.allowed_hosts)
        for item in extra_hosts:
            host, port = _split_host(item)
            (host_ports if port else hosts).add(f"{host}:{port}" if port else host)
        origins: set[str] = set()
        prefixes: set[str] = set()
        extra_origins = _items(conf.allowed_origins)
        for item in extra_origins:
            if item.endswith(":*"):
                prefixes.add(item[:-2])
            else:
                origins.add(item)
        return cls(
            hosts=frozenset(hosts),
            host_ports=frozenset(host_ports),
            any_host="*" in extra_hosts,
            origins=frozenset(origins),
            origin_prefixes=frozenset(prefixes),
            any_origin="*" in extra_origins,
        )

    def check_host(self, host_header: str | None, scope: Scope) -> None:
        """Pass when ``Host`` names this server; ``HostError`` (421) when it does not."""
        if self.any_host:
            return
        if not host_header:
            raise HostError("send a Host header naming this server")
        host, port = _split_host(host_header)
        if is_loopback(host) or host in self.hosts or f"{host}:{port}" in self.host_ports:
            return
        # The address the client connected to is this server by definition; a rebinding
        # page cannot make a browser send an IP literal other than its own name.
        server = scope.get("server")
        if server and _is_ip(host) and host == _split_host(str(server[0]))[0]:
            return
        raise HostError(
            f"this server does not answer to Host {host_header!r}: call it as localhost or "
            "by its address, or add the name to RECALL_SERVER_ALLOWED_HOSTS "
            "(comma-separated, '*': any)"
        )

    def check_origin(self, origin: str | None, host_header: str | None) -> None:
        """Pass a request with no ``Origin``, a loopback page's, the server's own or an
        allowed one; ``OriginError`` (403) for any other web page."""
        if origin is None or self.any_origin:
            return
        value = origin.strip().lower().rstrip("/")
        parts = urlsplit(value)
        if parts.scheme in ("http", "https") and parts.hostname is not None:
            if is_loopback(parts.hostname):  # a local page: a local process can call anyway
                return
            if host_header and parts.netloc == host_header.strip().lower():
                return  # the server's own origin
            if value in self.origins:
                return
            if f"{parts.scheme}://{parts.hostname}" in self.origin_prefixes:
                return
        raise OriginError(
            f"requests from web pages of origin {origin!r} are refused: a browser page "
            "must not reach this memory; add the origin to RECALL_SERVER_ALLOWED_ORIGINS "
            "(comma-separated, 'http://host:*' for any port, '*': any) to allow it"
        )
