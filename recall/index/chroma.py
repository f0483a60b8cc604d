"""Chroma clients: made with a bounded wait, released without leaking handles or sockets.

The embedded ``PersistentClient`` lives in the memory folder; an ``HttpClient`` talks to a
``chroma run`` server. Telemetry is off, ``allow_reset`` too, and no client here is ever
given an embedding function (Chroma's default one downloads a model).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from ..errors import ConfigError, StoreError, chroma_errors
from ..settings.redact import redact, scrub

__all__ = ["chroma_client", "release_client"]


def chroma_client(path: Path | None, url: str | None, timeout_s: float) -> Any:
    """An embedded ``PersistentClient`` in ``path``, or an ``HttpClient`` for ``url``."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    settings = ChromaSettings(anonymized_telemetry=False, allow_reset=False)
    if url is None:
        if path is None:
            raise ConfigError("the embedded vector store needs a memory folder")
        with chroma_errors(f"opening the embedded Chroma store in {path}"):
            return chromadb.PersistentClient(path=str(path), settings=settings)
    parsed = urlparse(url)
    shown = redact(url)  # a token or password in the URL is never printed
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise ConfigError(f"chroma_url {shown!r} must look like http://127.0.0.1:8000")
    hint = (
        f"Is the Chroma server at {shown} running? Start one with `chroma run --path DIR "
        "--port 8000`, or unset RECALL_CHROMA_URL to use the embedded store."
    )
    import httpx

    # chromadb's HttpClient asks the server who we are in its constructor with no timeout:
    # a server that accepts and never answers would hang open() forever. A bounded
    # heartbeat first turns that into a StoreError within timeout_s.
    try:
        httpx.get(f"{url.rstrip('/')}/api/v2/heartbeat", timeout=timeout_s).raise_for_status()
    except httpx.HTTPError as exc:
        raise StoreError(
            f"cannot reach the Chroma server at {shown}: {scrub(repr(exc), url)}. {hint}"
        ) from exc
    try:
        client = chromadb.HttpClient(
            host=parsed.hostname,
            port=parsed.port or (443 if parsed.scheme == "https" else 80),
            ssl=parsed.scheme == "https",
            settings=settings,
        )
    except Exception as exc:
        raise StoreError(
            f"cannot reach the Chroma server at {shown}: {scrub(str(exc), url)}. {hint}"
        ) from exc
    # chromadb's HTTP client waits forever by default; a memory layer must fail fast.
    session = getattr(getattr(client, "_server", None), "_session", None)
    if session is not None:
        session.timeout = httpx.Timeout(timeout_s)
    return client


def release_client(client: Any, system: Any) -> None:
    """Release what chromadb's HttpClient keeps after ``close()`` (nothing for embedded).

    Its HTTP API object never closes its httpx session, leaving the sockets to the garbage
    collector (a ResourceWarning each), and the admin client it makes files one system of
    its own plus the client's system under a second id, which ``close()`` never drops. HTTP
    clients share nothing (each gets a fresh id), so all of it is released here.
    """
    from chromadb.api.shared_system_client import SharedSystemClient

    if getattr(getattr(client, "_server", None), "_session", None) is None:
        return  # the embedded client: close() released everything
    admin = getattr(client, "_admin_client", None)
    registry = SharedSystemClient._identifier_to_system
    for c in (client, admin):
        session = getattr(getattr(c, "_server", None), "_session", None)
        if session is not None:
            session.close()
        registry.pop(getattr(c, "_identifier", ""), None)
    for identifier in [i for i, s in registry.items() if s is system]:
        registry.pop(identifier, None)
