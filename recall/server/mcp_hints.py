"""What tells an MCP host and its model how to use recall's tools: each tool's annotations,
the server's instructions and the ``use_memory`` prompt (for the tool set served, in its
language: :func:`instructions`, :func:`use_memory`), and compact results.

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

from ..tool import Lang
from .mcp_text import AGENT_TOOLS, ToolSet, instructions

__all__ = [
    "ADDS",
    "AGENT_TOOLS",
    "ERASES",
    "READS",
    "REWRITES",
    "ToolSet",
    "USE_MEMORY",
    "add_use_memory_prompt",
    "compact",
    "instructions",
    "use_memory",
]


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

#: The ``use_memory`` prompt's parts in each language: its opening, then the steps a tool
#: set's prompt numbers in the order of :data:`_STEPS` (each step written once).
_PARTS: dict[Lang, dict[str, str]] = {
    "en": {
        "opening": "You have a long-term memory of this user, through the recall tools. "
        "Use it like this:\n",
        "start": """\
At the start of each turn, call get_relevant_memories with the user's message. It returns \
the user's profile and the recent conversation summaries that matter now, within a token \
budget. It is cheap; it does not search the older archive.
""",
        "recall": """\
Call deep_recall only when the user asks you to remember or think back ("do you \
remember", "try to remember", "what did we decide about ..."), or when you have offered to \
dig into your shared history and the user agreed. Pass a short query in the user's \
language; pass since/until when the user names a time. If it finds nothing, say you do not \
remember; do not guess.
""",
        "remember": """\
Call remember when the conversation settles something worth keeping: a decision, a \
preference, a fact about the user, or at the end of a session. Pass a short summary in your \
own words, or the messages.
""",
        "browse": """\
To look around without a query: browse_records lists the stored records page by page \
(newest first, by kind and date; pass next_offset as offset for the next page), long_term \
reads the profile article, article_versions lists its versions and article_diff shows what \
changed between two of them. profile lists what is true of the user now (home, employer, \
gym...) and what each value replaced. explain_recall shows why deep_recall ranks what it \
does and which memories the relevance floor removed.
""",
        "correct": """\
Corrections change or delete what the user told you, and cannot be undone by you: \
forget_fact removes a fact (its words) from every record and every version of the article, \
forget deletes records by id, edit_fact replaces text of the article, rollback restores an \
older version of it. Use them only when the user asks for the change. Before you forget \
anything, say exactly what will be removed and ask the user to confirm; afterwards, tell \
them what changed (the tool's answer says).
""",
        "forget": """\
Call forget only when the user asks you to forget something specific: it deletes records \
by id (the ids deep_recall returns) and cannot be undone by you. Before you forget \
anything, say exactly what will be removed and ask the user to confirm; afterwards, tell \
them what changed.
""",
    },
    "zh": {
        "opening": "你可以通过 recall 的工具使用这位用户的长期记忆。用法如下：\n",
        "start": """\
每轮开始时，用用户的消息调用 get_relevant_memories。它返回用户的档案和此刻相关的近期对话\
摘要，限定在 token 预算内。开销小；它不检索更早的存档。
""",
        "recall": """\
只在用户要求你回忆或回想时（“你还记得吗”“你仔细想想”“我们上次关于……定了什么”），或你提议\
深入回忆你们的共同历史且用户同意时，才调用 deep_recall。用用户的语言传一个简短的 query；用户说到\
某段时间时传 since/until。什么也没找到时，就说你不记得；不要猜。
""",
        "remember": """\
对话确定了值得记住的内容时调用 remember：一个决定、一个偏好、一个关于用户的事实，或在会话\
结束时。用你自己的话传一段简短的 summary，或传 messages。
""",
        "browse": """\
不带查询地查看：browse_records 分页列出存储的记录（最新的在前，可按类型和日期；下一页把 \
next_offset 作为 offset 传入），long_term 读取档案，article_versions 列出它的版本，article_diff \
显示两个版本之间的变化。profile 列出用户现在的情况（住处、雇主、健身房……）以及每一项替换了什么。\
explain_recall 说明 deep_recall 为什么这样排序，以及相关性下限去掉了哪些记忆。
""",
        "correct": """\
更正会改变或删除用户告诉过你的内容，你无法撤销：forget_fact 从每条记录和档案的每个版本中删去\
一条事实（按它的原话），forget 按 id 删除记录，edit_fact 替换档案中的文字，rollback 恢复档案的\
旧版本。只在用户要求更改时使用。忘掉任何内容之前，准确说明将删去什么并请用户确认；之后告诉他们\
改了什么（工具的回答会说明）。
""",
        "forget": """\
只在用户要求你忘掉某件具体的事时调用 forget：它按 id 删除记录（deep_recall 返回的 id），你无法\
撤销。忘掉任何内容之前，准确说明将删去什么并请用户确认；之后告诉他们改了什么。
""",
    },
}

#: The steps of each tool set's prompt, in order.
_STEPS: dict[ToolSet, tuple[str, ...]] = {
    "all": ("start", "recall", "remember", "browse", "correct"),
    "agent": ("recall", "remember", "forget"),
}


def use_memory(tools: ToolSet = "all", lang: Lang = "en") -> str:
    """The ``use_memory`` prompt for the tool set ``tools``, in ``lang``."""
    parts = _PARTS[lang]
    steps = "".join(f"{n}. {parts[step]}" for n, step in enumerate(_STEPS[tools], 1))
    return f"{parts['opening']}\n{steps}"


#: The ``use_memory`` prompt of the ``all`` set in English: when to call which tool.
USE_MEMORY = use_memory()


def add_use_memory_prompt(
    server: MCPServer[Any], tools: ToolSet = "all", lang: Lang = "en"
) -> None:
    """Add the ``use_memory`` prompt (:func:`use_memory`) to ``server``."""
    text = use_memory(tools, lang)

    def prompt() -> str:
        return text

    server.prompt(
        name="use_memory",
        title="How to use your memory" if lang == "en" else "如何使用你的记忆",
        description=_PROMPT_ABOUT[lang],
    )(prompt)


_PROMPT_ABOUT: dict[Lang, str] = {
    "en": "Instructions for a model: when to read, search, store and correct the user's "
    "memory with recall's tools (and to ask before forgetting).",
    "zh": "给模型的说明：何时用 recall 的工具读取、检索、保存和更正用户的记忆（忘掉之前先询问）。",
}


def compact(content: dict[str, Any] | BaseModel) -> CallToolResult:
    """A tool result holding ``content`` as one line of JSON text and as structured content
    (a model's fields in JSON mode)."""
    data = content.model_dump(mode="json") if isinstance(content, BaseModel) else content
    text = json.dumps(data, ensure_ascii=False)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)
