"""A chat-completions endpoint on 127.0.0.1 for the context builder's tests.

The real ``openai`` client talks to it over HTTP. Replies come from a script: a string is
an assistant message's content, a dict ``{"tool_calls": [...]}`` an assistant message that
calls tools (OpenAI wire format), an int an HTTP error with that status. The
``response_format`` types in ``rejects`` are refused with a 400, as older compatible servers
refuse types they lack. Every request body is recorded.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class ChatServer(ThreadingHTTPServer):
    """Scripted replies, recorded requests."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.script: list[str | dict[str, Any] | int] = []
        self.rejects: set[str] = set()
        self.requests: list[dict[str, Any]] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class _Handler(BaseHTTPRequestHandler):
    server: ChatServer

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(body)
        kind = (body.get("response_format") or {}).get("type")
        if kind in self.server.rejects:
            self._send(400, {"error": {"message": f"{kind} is not supported", "type": "bad"}})
            return
        reply = self.server.script.pop(0) if self.server.script else "ok"
        if isinstance(reply, int):
            self._send(reply, {"error": {"message": "scripted failure", "type": "server_error"}})
            return
        message: dict[str, Any] = {"role": "assistant", "content": None}
        if isinstance(reply, str):
            message["content"] = reply
        else:
            message["tool_calls"] = reply["tool_calls"]
        payload = {
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "stop" if isinstance(reply, str) else "tool_calls",
                }
            ],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }
        self._send(200, payload)

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@contextmanager
def running() -> Iterator[ChatServer]:
    """A started server, shut down afterwards."""
    srv = ChatServer()
    thread = threading.Thread(target=srv.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()
