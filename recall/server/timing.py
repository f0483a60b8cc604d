"""``Server-Timing``: where each HTTP request's time went, for the operator who asks.

With ``server.timing`` on, every answer carries a ``Server-Timing`` header (the W3C
format browsers' developer tools and the load benchmark read): ``read`` (the body off the
socket) and ``auth`` (the key check) in the Gate; ``parse`` (the JSON body validated) and
``serialize`` (the answer encoded) in the REST handlers; ``queue`` (waiting for a tenant
lane and a worker thread); and on a deep_recall the retriever's ``index`` (partition
up to date), ``keyword``, ``embed``, ``vector`` and ``retrieve`` (all of the search,
fusion and the floor included); ``total`` is the whole request in the server. Off by
default: timings tell a client how busy the server is.
"""

from __future__ import annotations

import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..spans import tally

__all__ = ["ServerTiming", "header_value"]


def header_value(counts: dict[str, float]) -> str:
    """``name;dur=milliseconds`` entries, comma-separated, in a stable order."""
    return ", ".join(f"{name};dur={seconds * 1000:.3f}" for name, seconds in sorted(counts.items()))


class ServerTiming:
    """ASGI middleware: a span tally per HTTP request, answered as ``Server-Timing``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        with tally() as counts:

            async def timed_send(message: Message) -> None:
                if message["type"] == "http.response.start":
                    counts["total"] = time.perf_counter() - start
                    headers = list(message.get("headers", []))
                    headers.append((b"server-timing", header_value(counts).encode("latin-1")))
                    message = {**message, "headers": headers}
                await send(message)

            await self.app(scope, receive, timed_send)
