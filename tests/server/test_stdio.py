"""MCP over stdio answers every line: `recall serve` as a real subprocess, spoken to with
raw lines on its stdin. A line that is not JSON gets a JSON-RPC parse error, a JSON value
that is not a JSON-RPC message an invalid-request error, and the session goes on. The
handshake is answered while the models load (in process, the load held by hand)."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import anyio
import pytest
from pydantic import ValidationError
from subproc import recall_env

import recall
from recall.server.stdio import error_for


class _Lines:
    """The server's stdout, a line at a time, with a timeout."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self._lines: queue.Queue[bytes] = queue.Queue()
        assert proc.stdout is not None
        stdout = proc.stdout

        def pump() -> None:
            for line in stdout:
                self._lines.put(line)

        self._stdout = stdout
        self._pump = threading.Thread(target=pump, daemon=True)
        self._pump.start()

    def close(self) -> None:
        """After the process ended: the pump has read EOF."""
        self._pump.join(timeout=30)
        self._stdout.close()

    def next(self, timeout: float = 120) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(self._lines.get(timeout=timeout))
        return answer


@pytest.mark.slow
def test_a_garbage_line_gets_a_parse_error_and_the_session_goes_on(tmp_path: Path) -> None:
    args = ["-m", "recall.cli", "serve", "--path", str(tmp_path / "memory"), "--user", "u1"]
    log = tmp_path / "serve.log"
    with log.open("wb") as err:
        proc = subprocess.Popen(
            [sys.executable, *args],
            env=recall_env(tmp_path),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
        )
    assert proc.stdin is not None
    lines = _Lines(proc)

    def send(raw: bytes) -> None:
        assert proc.stdin is not None
        proc.stdin.write(raw)
        proc.stdin.flush()

    try:
        send(b"this is not json {\n")
        parse = lines.next()
        assert parse["jsonrpc"] == "2.0" and parse["id"] is None, parse
        assert parse["error"]["code"] == -32700
        send(b"\n")  # a blank line is skipped, not answered
        send(b'{"jsonrpc": "2.0", "id": 7, "method": 3}\n')
        invalid = lines.next()
        assert invalid["id"] == 7 and invalid["error"]["code"] == -32600, invalid
        send(b"\xff\xfe\n")  # not UTF-8 either
        assert lines.next()["error"]["code"] == -32700
        initialize = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "test", "version": "0"},
            },
        }
        send(json.dumps(initialize).encode() + b"\n")
        ready = lines.next()
        assert ready["id"] == 1 and ready["result"]["serverInfo"]["name"] == "recall", ready
        send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
        send(b'{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}\n')
        tools = lines.next()
        assert tools["id"] == 2 and "deep_recall" in {t["name"] for t in tools["result"]["tools"]}
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        lines.close()
    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text


def test_error_for_reads_the_failure() -> None:
    import mcp_types

    def failure(line: str) -> Exception:
        try:
            mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        except ValidationError as exc:
            return exc
        raise AssertionError("a valid message")

    assert error_for(failure("   \n")) is None
    parse = error_for(failure("nope"))
    assert parse is not None and parse.error.code == -32700 and parse.id is None
    batch = error_for(failure("[1, 2]"))
    assert batch is not None and batch.error.code == -32600 and batch.id is None
    named = error_for(failure('{"jsonrpc": "2.0", "id": "a", "method": []}'))
    assert named is not None and named.id == "a"
    other = error_for(UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"))
    assert other is not None and other.error.code == -32700


def test_the_handshake_is_answered_before_the_models_load(mem: recall.Memory) -> None:
    # The models of a real folder load for seconds; a host gives up on a server slow to say
    # hello. Here the warm-up is held until the host has its answers.
    from mcp import Client

    from recall.server import AsyncMemory
    from recall.server.app import serve_loading

    mem.add("I drink oolong every afternoon.", user_id="u1")
    seen: list[str] = []

    class Held(AsyncMemory):
        released = anyio.Event()

        async def warm_up(self) -> None:
            await self.released.wait()
            seen.append("loaded")

    async def host(server: Any) -> None:
        async with Client(server) as client:  # initialize
            tools = await client.list_tools()
            seen.append("initialized")
            Held.released.set()
            hits = await client.call_tool("deep_recall", {"query": "oolong", "user_id": "u1"})
            assert not hits.is_error and "oolong" in json.dumps(hits.structured_content)
        assert {t.name for t in tools.tools} >= {"deep_recall", "remember"}

    anyio.run(serve_loading, Held(mem), host)
    assert seen == ["initialized", "loaded"]


def test_a_host_that_leaves_during_the_load_is_not_kept_waiting(mem: recall.Memory) -> None:
    from recall.server import AsyncMemory
    from recall.server.app import serve_loading

    class Endless(AsyncMemory):
        async def warm_up(self) -> None:
            await anyio.sleep_forever()

    async def host(server: Any) -> None:
        return None  # the host closed stdin at once

    async def main() -> None:
        with anyio.fail_after(10):  # not a timing: a hang fails here rather than never ends
            await serve_loading(Endless(mem), host)

    anyio.run(main)
