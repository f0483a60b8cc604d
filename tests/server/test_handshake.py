"""MCP over stdio answers the host's ``initialize`` (or the newer ``server/discover``)
before the SDK and the folder load (recall.server.handshake): the early answer is the
SDK's own, word for word, for every tool set and language; nothing the host sends after it
is lost; a first line that is neither, well formed, is left to the SDK."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from subproc import recall_env

from recall.server.handshake import answer_first, discover_result, initialize_result
from recall.server.mcp_text import ToolSet
from recall.tool_text import Lang

_INIT = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}

_M = "io.modelcontextprotocol/"
_ENVELOPE = {
    "params": {
        "_meta": {
            _M + "protocolVersion": "2026-07-28",
            _M + "clientInfo": {"name": "test", "version": "1"},
            _M + "clientCapabilities": {},
        }
    }
}
_DISCOVER = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", **_ENVELOPE}


def _line(msg: dict[str, Any]) -> bytes:
    return (json.dumps(msg) + "\n").encode()


def test_the_first_line_is_answered_and_nothing_after_it_is_read() -> None:
    r_in, w_in = os.pipe()
    r_out, w_out = os.pipe()
    after = b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
    os.write(w_in, _line(_INIT) + after)
    early = answer_first("agent", "en", fd_in=r_in, fd_out=w_out)
    assert early.answered == 0 and early.line == _line(_INIT)
    os.close(w_out)
    answer = json.loads(os.read(r_out, 1 << 16))
    assert answer == {"jsonrpc": "2.0", "id": 0, "result": early.result}
    assert answer["result"]["protocolVersion"] == "2025-06-18"
    assert os.read(r_in, 1 << 16) == after  # left for the SDK's transport, byte for byte
    for fd in (r_in, w_in, r_out):
        os.close(fd)


@pytest.mark.parametrize(
    "first",
    [
        b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n',
        b"not json\n",
        _line({**_INIT, "params": {"protocolVersion": "2025-06-18"}}),  # no clientInfo
        _line({**_INIT, "id": True}),
        _line({**_DISCOVER, "params": {"_meta": {_M + "protocolVersion": "2099-01-01"}}}),
        b"",
    ],
    ids=["ping", "garbage", "incomplete", "bool id", "discover at an unknown version", "eof"],
)
def test_anything_else_is_left_to_the_sdk(first: bytes) -> None:
    r_in, w_in = os.pipe()
    r_out, w_out = os.pipe()
    os.write(w_in, first)
    os.close(w_in)
    early = answer_first("all", "zh", fd_in=r_in, fd_out=w_out)
    os.close(w_out)
    assert early.line == first and early.answered is None and early.result is None
    assert os.read(r_out, 1 << 16) == b""  # nothing written for it
    os.close(r_in)
    os.close(r_out)


def test_an_unknown_protocol_version_gets_the_latest_the_sdk_speaks() -> None:
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION

    assert initialize_result("1999-01-01", "agent", "en")["protocolVersion"] == (
        LATEST_HANDSHAKE_VERSION
    )
    for known in HANDSHAKE_PROTOCOL_VERSIONS:
        assert initialize_result(known, "agent", "en")["protocolVersion"] == known


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "version"),
    [
        ([], "2025-06-18"),
        (["--tools", "all", "--lang", "zh", "--user", "u1"], "1999-01-01"),
        (["--lang", "zh"], "discover"),
    ],
    ids=["agent en", "all zh pinned, unknown version", "discover"],
)
def test_recall_serve_answers_at_once_as_the_sdk_does(
    tmp_path: Path, options: list[str], version: str
) -> None:
    """The real process: the answer comes before the SDK is imported, and the SDK's own
    answer to the same line (dropped, compared at run time) is the same: no warning."""
    init = (
        {**_DISCOVER, "id": 0}
        if version == "discover"
        else {**_INIT, "params": {**_INIT["params"], "protocolVersion": version}}  # type: ignore[dict-item]
    )
    args = [sys.executable, "-m", "recall.cli", "serve", "--path", str(tmp_path / "m"), *options]
    start = time.perf_counter()
    proc = subprocess.Popen(
        args,
        env=recall_env(tmp_path),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(_line(init))
    proc.stdin.flush()
    first = json.loads(proc.stdout.readline())
    waited = time.perf_counter() - start
    if version == "discover":  # the per-request protocol: each request carries its envelope
        proc.stdin.write(_line({"jsonrpc": "2.0", "id": 1, "method": "tools/list", **_ENVELOPE}))
    else:
        proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        proc.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n')
    proc.stdin.close()
    rest = [json.loads(x) for x in proc.stdout.read().splitlines()]
    assert proc.stderr is not None
    err = proc.stderr.read().decode()
    proc.stdout.close()
    proc.stderr.close()
    assert proc.wait(timeout=120) == 0, err
    lang: Lang = "zh" if "zh" in options else "en"
    tools: ToolSet = "all" if "all" in options else "agent"
    want = (
        discover_result(tools, lang)
        if version == "discover"
        else initialize_result(version, tools, lang)
    )
    assert first == {"id": 0, "jsonrpc": "2.0", "result": want}
    assert [m["id"] for m in rest] == [1]  # the SDK's own answer to initialize is not repeated
    assert len(rest[0]["result"]["tools"]) == (3 if tools == "agent" else 13)
    assert "otherwise" not in err, err  # the SDK words it as recall did
    # Before the MCP SDK and the models: a few tenths of a second here, against about 4 s
    # when the SDK answered (benchmarks/mcp_startup.py). Bound loosely for a busy machine.
    assert waited < 3.0, waited


def test_the_sdks_own_answer_is_dropped_and_a_difference_said(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from mcp.shared.message import SessionMessage
    from mcp_types import JSONRPCResponse

    from recall.server.handshake import Early
    from recall.server.stdio import _answered_early

    result = initialize_result("2025-06-18", "agent", "en")
    early = Early(_line(_INIT), 0, result)
    same = SessionMessage(JSONRPCResponse(jsonrpc="2.0", id=0, result=result))
    other = SessionMessage(JSONRPCResponse(jsonrpc="2.0", id=0, result={**result, "x": 1}))
    later = SessionMessage(JSONRPCResponse(jsonrpc="2.0", id=1, result={}))
    assert _answered_early(same, early) and capsys.readouterr().err == ""
    assert _answered_early(other, early) and "otherwise" in capsys.readouterr().err
    assert not _answered_early(later, early)
    assert not _answered_early(same, Early(b"", None))
