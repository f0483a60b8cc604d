"""The MCP server: in process with the SDK's client, then `recall serve` as a subprocess
spoken to with the real `mcp` client over stdio and over streamable HTTP."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.types import TextResourceContents
from subproc import recall_env

import recall
from recall.server import AsyncMemory, build_mcp

TOOLS = {
    "deep_recall",
    "remember",
    "get_relevant_memories",
    "forget",
    "long_term",
    # corrections: recall.server.mcp_corrections (tests/server/test_corrections_api.py)
    "forget_fact",
    "edit_fact",
    "rollback",
    # read-only views: recall.server.mcp_browse (tests/server/test_mcp_browse.py)
    "browse_records",
    "article_versions",
    "article_diff",
    "explain_recall",
    "profile",
}


def _structured(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    out: dict[str, Any] = result.structured_content
    return out


def _error(result: Any) -> str:
    assert result.is_error
    return str(result.content[0].text)


async def _exercise(client: Client, user: dict[str, str]) -> None:
    """List the tools and call each one, as an agent host would."""
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == TOOLS
    assert "explicitly asks you to remember" in (tools["deep_recall"].description or "")
    assert tools["deep_recall"].input_schema["required"] == ["query"]
    said = "We chose Redis for the session cache."
    done = _structured(await client.call_tool("remember", {**user, "summary": said}))
    assert done["short_term_count"] == 1
    hits = _structured(await client.call_tool("deep_recall", {**user, "query": "which cache?"}))
    assert [h["text"] for h in hits["hits"]] == [said]
    block = _structured(
        await client.call_tool("get_relevant_memories", {**user, "user_input": "cache"})
    )
    assert "Redis" in block["text"]
    article = _structured(await client.call_tool("long_term", user))
    assert article["version"] == 0
    gone = _structured(await client.call_tool("forget", {**user, "ids": [done["summary_id"]]}))
    assert gone == {"deleted": 1}
    after = _structured(await client.call_tool("deep_recall", {**user, "query": "cache"}))
    assert after["hits"] == [] and "nothing relevant" in after["note"]
    bad = _error(await client.call_tool("deep_recall", {**user, "query": "x", "top_k": 0}))
    assert "top_k" in bad


async def _resource(client: Client, uri: str) -> str:
    """The text of one MCP resource (recall's resources are JSON text, never blobs)."""
    content = (await client.read_resource(uri)).contents[0]
    assert isinstance(content, TextResourceContents)
    return content.text


def test_in_process_tools_and_resources(mem: recall.Memory) -> None:
    async def main() -> None:
        async with Client(build_mcp(AsyncMemory(mem), default_user="u1", tools="all")) as client:
            await _exercise(client, {})
            stats = json.loads(await _resource(client, "recall://stats"))
            assert stats["users"] == 1
            check = json.loads(await _resource(client, "recall://check"))
            assert check["users"][0]["user_id"] == "u1" and not check["users"][0]["lagging"]
        async with Client(build_mcp(AsyncMemory(mem), tools="all")) as client:  # no default user
            error = _error(await client.call_tool("long_term", {}))
            assert "user_id is required" in error
            error = _error(await client.call_tool("long_term", {"user_id": " "}))
            assert "non-empty" in error

    anyio.run(main)


def test_deep_recall_top_k_is_bounded_by_the_memorys_settings(
    tmp_path: Path, embedder: recall.Embedder
) -> None:
    settings = recall.Settings(path=tmp_path / "m", vector_partitions=4, tool_max_top_k=3)

    async def main(mem: recall.Memory) -> None:
        async with Client(build_mcp(AsyncMemory(mem), default_user="u1")) as client:
            over = _error(await client.call_tool("deep_recall", {"query": "x", "top_k": 4}))
            assert "top_k must be at most 3" in over
            _structured(await client.call_tool("deep_recall", {"query": "x", "top_k": 3}))

    with recall.open(settings=settings) as mem:
        anyio.run(main, mem)


def _serve(folder: Path, *args: str) -> list[str]:
    return ["-m", "recall.cli", "serve", "--path", str(folder), *args]


@pytest.mark.slow
def test_stdio_server_subprocess(tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=_serve(tmp_path / "memory", "--user", "u1", "--tools", "all"),
        env=recall_env(tmp_path),
    )

    async def main() -> None:
        async with Client(params, read_timeout_seconds=120) as client:
            await _exercise(client, {})
            # Another user by name: the server was started for u1, and serves u1 only.
            other = _error(
                await client.call_tool("remember", {"user_id": "u2", "summary": "Tea, no sugar."})
            )
            assert "serves user 'u1' only" in other

    anyio.run(main)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[str]:
    keys = tmp_path / "keys"
    keys.write_text("acme-key-0123456789 acme\nop-key-0123456789012 *\n")
    port = _free_port()
    args = _serve(tmp_path / "memory", "--transport", "http", "--port", str(port), "--tools", "all")
    log = tmp_path / "serve.log"
    with log.open("wb") as err:
        proc = subprocess.Popen(
            [sys.executable, *args, "--keys", str(keys)],
            env=recall_env(tmp_path),
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, log.read_text(errors="replace")
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "recall serve did not come up"
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.mark.slow
def test_http_server_subprocess_mcp_and_rest(http_server: str) -> None:
    acme = {"authorization": "Bearer acme-key-0123456789"}

    async def main() -> None:
        async with httpx2.AsyncClient(headers=acme, timeout=60) as http:
            transport = streamable_http_client(f"{http_server}/mcp", http_client=http)
            async with Client(transport) as client:
                await _exercise(client, {"user_id": "acme:bob"})
                denied = _error(await client.call_tool("long_term", {"user_id": "beta:eve"}))
                assert "tenant 'acme'" in denied

    anyio.run(main)
    with httpx.Client(base_url=http_server, timeout=60) as rest:
        _rest(rest, acme)


def _rest(rest: httpx.Client, acme: dict[str, str]) -> None:
    noted = rest.post(
        "/v1/users/acme:bob/notes", json={"notes": [{"text": "Deploys on Fridays."}]}, headers=acme
    )
    assert noted.status_code == 201
    found = rest.post("/v1/users/acme:bob/recall", json={"query": "deploy"}, headers=acme)
    assert [h["text"] for h in found.json()["hits"]] == ["Deploys on Fridays."]
    assert rest.post("/v1/users/acme:bob/recall", json={"query": "x"}).status_code == 401
    forbidden = rest.get("/v1/users/beta:eve/memories", headers=acme)
    assert forbidden.status_code == 403 and "tenant" in forbidden.json()["error"]
    unauthenticated = rest.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert unauthenticated.status_code == 401
    stats = rest.get("/v1/stats", headers={"authorization": "Bearer op-key-0123456789012"})
    assert stats.json()["users"] == 1


@pytest.mark.slow
@pytest.mark.parametrize(
    "workers",
    # Several workers bind one socket in the parent (the Chroma server is never reached).
    [[], ["--workers", "2", "--chroma-url", "http://127.0.0.1:9"]],
    ids=["one process", "workers"],
)
def test_a_port_in_use_is_said_before_anything_is_created(
    tmp_path: Path, workers: list[str]
) -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        args = _serve(tmp_path / "memory", "--transport", "http", "--port", str(port), *workers)
        done = subprocess.run(
            [sys.executable, *args],
            env=recall_env(tmp_path),
            capture_output=True,
            text=True,
            check=False,
        )
    assert done.returncode != 0
    assert f"port {port} on 127.0.0.1 is in use" in done.stderr
    assert "Traceback" not in done.stderr and "Errno" not in done.stderr
    assert not (tmp_path / "memory").exists()  # nothing created, no model loaded


@pytest.mark.slow
def test_the_ready_line_comes_when_the_port_answers(tmp_path: Path) -> None:
    port = _free_port()
    keys = tmp_path / "keys"
    keys.write_text("acme-key-0123456789 acme\n")
    args = _serve(tmp_path / "memory", "--transport", "http", "--port", str(port))
    proc = subprocess.Popen(
        [sys.executable, *args, "--user", "acme:bob", "--keys", str(keys), "--log-level", "info"],
        env=recall_env(tmp_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None
        lines = []
        for line in proc.stderr:
            lines.append(line)
            if "ready at" in line:
                break
        ready = lines[-1]
        assert f"ready at http://127.0.0.1:{port}" in ready, lines
        assert str(tmp_path / "memory") in ready and "1 API key," in ready
        assert "serving user 'acme:bob' only" in ready and "holds no memory yet" in ready
        url = f"http://127.0.0.1:{port}"
        assert httpx.get(f"{url}/healthz", timeout=30).status_code == 200
        key = {"authorization": "Bearer acme-key-0123456789"}
        note = {"notes": [{"text": "Bob drinks tea."}]}
        assert httpx.post(f"{url}/v1/users/acme:bob/notes", json=note, headers=key).is_success
        found = httpx.post(f"{url}/v1/users/acme:bob/recall", json={"query": "x"}, headers=key)
        assert found.status_code == 200
    finally:
        proc.terminate()
        _, rest = proc.communicate(timeout=30)  # drains and closes stderr
    # --log-level info: an access line per request, and never a header (so never a key).
    assert '"GET /healthz HTTP/1.1" 200' in rest
    assert '"POST /v1/users/acme%3Abob/recall HTTP/1.1" 200' in rest  # as httpx sent it
    assert "acme-key-0123456789" not in "".join(lines) + rest
