"""MCP over stdio: the host's ``initialize`` answered before the SDK or the folder loads.

A host starts ``recall serve`` and waits for the answer to its ``initialize`` (MCP
Inspector gives up after 15 s). Importing the MCP SDK takes over a second here and opening
the folder another; the answer itself needs neither: it is the server's name and version,
its capabilities, its instructions and the protocol version agreed. :func:`answer_first`
reads the first line from standard input and, when it is an ``initialize`` request,
writes that answer at once, exactly as the SDK would word it (the SDK's own answer is
compared with it at run time, a difference said on stderr, and in the tests). The line is
then handed to the SDK all the same, whose answer to it is dropped (:mod:`.stdio`): the
SDK's session goes through the handshake as it always does.

Nothing is read ahead: standard input is read byte by byte up to the first newline, so
what the host sends next stays on the descriptor the SDK reads. Anything but a well-formed
``initialize`` request is left to the SDK, which answers or refuses it as before.
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

__all__ = ["CAPABILITIES", "Early", "answer_first", "initialize_result"]

#: What every recall server offers (tools, the use_memory prompt, the stats and check
#: resources), as the SDK words it.
CAPABILITIES: dict[str, Any] = {
    "prompts": {"listChanged": False},
    "resources": {"subscribe": False, "listChanged": False},
    "tools": {"listChanged": False},
}
#: The longest first line read (an ``initialize`` is a few hundred bytes).
_LIMIT = 1 << 20


class Early(NamedTuple):
    """The first line read from the host, and what was answered to it early."""

    line: bytes  # b"" when standard input closed before a line
    answered: str | int | None = None  # the request's id; None: the SDK answers the line
    result: dict[str, Any] | None = None  # the result sent


@cache
def _versions() -> tuple[tuple[str, ...], str]:
    """The SDK's handshake protocol versions and its latest one, read from its version
    module by path (importing the ``mcp_types`` package costs half a second)."""
    spec = importlib.util.find_spec("mcp_types")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("mcp_types")
    path = Path(next(iter(spec.submodule_search_locations))) / "version.py"
    module_spec = importlib.util.spec_from_file_location("_recall_mcp_versions", path)
    if module_spec is None or module_spec.loader is None:
        raise ImportError(str(path))
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return tuple(module.HANDSHAKE_PROTOCOL_VERSIONS), str(module.LATEST_HANDSHAKE_VERSION)


def initialize_result(requested: str, tools: ToolSet, lang: Lang) -> dict[str, Any]:
    """The ``initialize`` result of a recall server serving ``tools`` in ``lang`` to a
    client asking for protocol ``requested`` (the SDK's latest when it does not know it)."""
    known, latest = _versions()
    return {
        "protocolVersion": requested if requested in known else latest,
        "capabilities": CAPABILITIES,
        "serverInfo": {"name": "recall", "version": __version__},
        "instructions": instructions(tools, lang),
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


def _initialize(line: bytes) -> dict[str, Any] | None:
    """The request when ``line`` is a well-formed ``initialize``, else None."""
    try:
        msg = json.loads(line)
    except ValueError:
        return None
    if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0":
        return None
    rid, params = msg.get("id"), msg.get("params")
    if msg.get("method") != "initialize" or not isinstance(params, dict):
        return None
    if isinstance(rid, bool) or not isinstance(rid, str | int):
        return None
    info = params.get("clientInfo")
    if not (
        isinstance(params.get("protocolVersion"), str)
        and isinstance(params.get("capabilities"), dict)
        and isinstance(info, dict)
        and isinstance(info.get("name"), str)
        and isinstance(info.get("version"), str)
    ):
        return None  # the SDK says what is wrong with it
    return msg


def answer_first(tools: ToolSet, lang: Lang, *, fd_in: int = 0, fd_out: int = 1) -> Early:
    """Read the host's first line; answer it now when it is an ``initialize`` request."""
    line = _read_line(fd_in)
    msg = _initialize(line)
    if msg is None:
        return Early(line, None)
    result = initialize_result(msg["params"]["protocolVersion"], tools, lang)
    answer = {"jsonrpc": "2.0", "id": msg["id"], "result": result}
    os.write(fd_out, json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode() + b"\n")
    return Early(line, msg["id"], result)
