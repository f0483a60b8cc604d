"""MCP over stdio: the host's handshake answered before the SDK or the folder loads.

A host starts ``recall serve`` and waits for the answer to its ``initialize`` (MCP
Inspector gives up after 15 s), or to ``server/discover``, the newer protocol's probe
(the Python SDK's clients send it first). Importing the MCP SDK takes over a second here
and opening the folder another; the answer itself needs neither: it is the server's name
and version, its capabilities, its instructions and the protocol version agreed.
:func:`answer_first` reads the first line from standard input and, when it is an
``initialize`` or ``server/discover`` request, writes that answer at once, exactly as the
SDK would word it (the SDK's own answer is compared with it at run time, a difference
said on stderr, and in the tests). The line is then handed to the SDK all the same, whose
answer to it is dropped (:mod:`.stdio`): the SDK's session goes through the handshake as
it always does.

Nothing is read ahead: standard input is read byte by byte up to the first newline, so
what the host sends next stays on the descriptor the SDK reads. Anything but a well-formed
``initialize`` or ``server/discover`` request (a version the SDK does not speak
included) is left to the SDK, which answers or refuses it as before.
"""

from __future__ import annotations

import importlib.util
import json
import os
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from .. import __version__
from ..tool_text import Lang
from .mcp_text import ToolSet, instructions

__all__ = ["CAPABILITIES", "Early", "answer_first", "discover_result", "initialize_result"]

#: What every recall server offers (tools, the use_memory prompt, the stats and check
#: resources), as the SDK words it.
CAPABILITIES: dict[str, Any] = {
    "prompts": {"listChanged": False},
    "resources": {"subscribe": False, "listChanged": False},
    "tools": {"listChanged": False},
}
#: The same, as the SDK words it to a client of the per-request protocol (``server/discover``).
MODERN_CAPABILITIES: dict[str, Any] = {
    "prompts": {"listChanged": True},
    "resources": {"subscribe": True, "listChanged": True},
    "tools": {"listChanged": True},
}
_META = "io.modelcontextprotocol/"
#: The longest first line read (an ``initialize`` is a few hundred bytes).
_LIMIT = 1 << 20


class Early(NamedTuple):
    """The first line read from the host, and what was answered to it early."""

    line: bytes  # b"" when standard input closed before a line
    answered: str | int | None = None  # the request's id; None: the SDK answers the line
    result: dict[str, Any] | None = None  # the result sent


@cache
def _versions() -> tuple[tuple[str, ...], str, tuple[str, ...]]:
    """The SDK's handshake protocol versions, the latest of them, and its per-request
    (modern) versions, read from its version module by path (importing the ``mcp_types``
    package costs half a second)."""
    spec = importlib.util.find_spec("mcp_types")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("mcp_types")
    path = Path(next(iter(spec.submodule_search_locations))) / "version.py"
    module_spec = importlib.util.spec_from_file_location("_recall_mcp_versions", path)
    if module_spec is None or module_spec.loader is None:
        raise ImportError(str(path))
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return (
        tuple(module.HANDSHAKE_PROTOCOL_VERSIONS),
        str(module.LATEST_HANDSHAKE_VERSION),
        tuple(module.MODERN_PROTOCOL_VERSIONS),
    )


def initialize_result(requested: str, tools: ToolSet, lang: Lang) -> dict[str, Any]:
    """The ``initialize`` result of a recall server serving ``tools`` in ``lang`` to a
    client asking for protocol ``requested`` (the SDK's latest when it does not know it)."""
    known, latest, _ = _versions()
    return {
        "protocolVersion": requested if requested in known else latest,
        "capabilities": CAPABILITIES,
        "serverInfo": {"name": "recall", "version": __version__},
        "instructions": instructions(tools, lang),
    }


def discover_result(tools: ToolSet, lang: Lang) -> dict[str, Any]:
    """The ``server/discover`` result of a recall server serving ``tools`` in ``lang``."""
    return {
        "cacheScope": "private",
        "capabilities": MODERN_CAPABILITIES,
        "instructions": instructions(tools, lang),
        "resultType": "complete",
        "supportedVersions": list(_versions()[2]),
        "ttlMs": 0,
        "_meta": {_META + "serverInfo": {"name": "recall", "version": __version__}},
    }


def _read_line(fd: int) -> bytes:
    """One line from ``fd``, newline included, reading nothing past it."""
    out = bytearray()
    while len(out) < _LIMIT:
        byte = os.read(fd, 1)
        if not byte:
            break
        out += byte
        if byte == b"\n":
            break
    return bytes(out)


def _client(info: object) -> bool:
    return isinstance(info, dict) and all(isinstance(info.get(k), str) for k in ("name", "version"))


def _request(line: bytes) -> dict[str, Any] | None:
    """The request when ``line`` is a well-formed ``initialize``, or a ``server/discover``
    at a version the SDK speaks; else None (the SDK says what is wrong with it)."""
    try:
        msg = json.loads(line)
    except ValueError:
        return None
    if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0":
        return None
    rid, params = msg.get("id"), msg.get("params")
    if isinstance(rid, bool) or not isinstance(rid, str | int) or not isinstance(params, dict):
        return None
    if msg.get("method") == "initialize":
        ok = (
            isinstance(params.get("protocolVersion"), str)
            and isinstance(params.get("capabilities"), dict)
            and _client(params.get("clientInfo"))
        )
    elif msg.get("method") == "server/discover":
        meta = params.get("_meta")
        ok = (
            isinstance(meta, dict)
            and meta.get(_META + "protocolVersion") in _versions()[2]
            and isinstance(meta.get(_META + "clientCapabilities"), dict)
            and _client(meta.get(_META + "clientInfo"))
        )
    else:
        ok = False
    return msg if ok else None


def answer_first(tools: ToolSet, lang: Lang, *, fd_in: int = 0, fd_out: int = 1) -> Early:
    """Read the host's first line; answer it now when it is an ``initialize`` or a
    ``server/discover`` request."""
    line = _read_line(fd_in)
    msg = _request(line)
    if msg is None:
        return Early(line, None)
    if msg["method"] == "initialize":
        result = initialize_result(msg["params"]["protocolVersion"], tools, lang)
    else:
        result = discover_result(tools, lang)
    answer = {"jsonrpc": "2.0", "id": msg["id"], "result": result}
    os.write(fd_out, json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode() + b"\n")
    return Early(line, msg["id"], result)
