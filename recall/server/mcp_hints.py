"""What tells an MCP host and its model how to use recall's tools: each tool's annotations,
the ``use_memory`` prompt, and compact results.

Annotations (``readOnlyHint``, ``destructiveHint``, ``idempotentHint``, ``openWorldHint``)
let a host run the reads without asking and ask before the writes that delete or rewrite;
every tool touches this memory only, so none is open-world. :func:`compact` answers a tool
call with one line of JSON, in the text a model reads and in the structured content alike:
the SDK's own text is the model indented, about twice the tokens.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.server import MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel

__all__ = ["ADDS", "ERASES", "READS", "REWRITES", "USE_MEMORY", "add_use_memory_prompt", "compact"]

#: Reads the memory, changes nothing: safe to call again and without asking.
READS = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
#: Adds to the memory and deletes nothing (remember).
ADDS = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
)
#: Deletes what it names; a second call finds nothing more to delete (forget, forget_fact).
ERASES = ToolAnnotations(
    read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False
)
#: Rewrites the article as a new version each call (edit_fact, rollback).
REWRITES = ToolAnnotations(
    read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=False
)

#: The ``use_memory`` prompt: when to call which tool.
USE_MEMORY = """\
You have a long-term memory of this user, through the recall tools. Use it like this:

1. At the start of each turn, call get_relevant_memories with the user's message. It returns \
the user's profile and the recent conversation summaries that matter now, within a token \
budget. It is cheap; it does not search the older archive.
2. Call deep_recall only when the user asks you to remember or think back ("do you \
remember", "try to remember", "what did we decide about ..."), or when you have offered to \
dig into your shared history and the user agreed. Pass a short query in the user's \
language; pass since/until when the user names a time. If it finds nothing, say you do not \
remember; do not guess.
3. Call remember when the conversation settles something worth keeping: a decision, a \
preference, a fact about the user, or at the end of a session. Pass a short summary in your \
own words, or the messages.
4. To look around without a query: browse_records lists the stored records page by page \
(newest first, by kind and date; pass next_offset as offset for the next page), long_term \
reads the profile article, article_versions lists its versions and article_diff shows what \
changed between two of them. profile lists what is true of the user now (home, employer, \
gym...) and what each value replaced. explain_recall shows why deep_recall ranks what it \
does and which memories the relevance floor removed.
5. Corrections change or delete what the user told you, and cannot be undone by you: \
forget_fact removes a fact (its words) from every record and every version of the article, \
forget deletes records by id, edit_fact replaces text of the article, rollback restores an \
older version of it. Use them only when the user asks for the change. Before you forget \
anything, say exactly what will be removed and ask the user to confirm; afterwards, tell \
them what changed (the tool's answer says).
"""


def add_use_memory_prompt(server: MCPServer[Any]) -> None:
    """Add the ``use_memory`` prompt (:data:`USE_MEMORY`) to ``server``."""

    def use_memory() -> str:
        return USE_MEMORY

    server.prompt(
        name="use_memory",
        title="How to use your memory",
        description="Instructions for a model: when to read, search, store and correct the "
        "user's memory with recall's tools (and to ask before forgetting).",
    )(use_memory)


def compact(content: dict[str, Any] | BaseModel) -> CallToolResult:
    """A tool result holding ``content`` as one line of JSON text and as structured content
    (a model's fields in JSON mode)."""
    data = content.model_dump(mode="json") if isinstance(content, BaseModel) else content
    text = json.dumps(data, ensure_ascii=False)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)
