"""What a model reads of each MCP tool, in one language (``recall serve --lang en|zh``):
the tool's description, each argument's, and the input schema as advertised.

One language, not both: every word of a tool definition is in the model's prompt on every
turn. deep_recall's words (and explain_recall's, which takes the same arguments) are the
library tool's (:mod:`recall.tool_text`). The advertised schema (:func:`advertised`) is
strict-compatible (every object closed, no ``$ref``, no titles, no ``null`` defaults: what
the OpenAI Agents SDK's strict conversion accepts), and a server pinned to a user
(``--user``) does not advertise ``user_id`` at all: it acts on its user.
"""

from __future__ import annotations

import copy
from typing import Any, Literal

from ..tool_text import TEXT as DEEP_RECALL
from ..tool_text import Lang, deep_recall_text

__all__ = [
    "AGENT_TOOLS",
    "DESCRIPTIONS",
    "PARAMS",
    "ToolSet",
    "advertised",
    "describe",
    "instructions",
]

#: Which tools a server advertises (``recall serve --tools``): an agent's few, or all.
ToolSet = Literal["agent", "all"]
#: The tools of the ``agent`` set: what a model needs turn after turn.
AGENT_TOOLS = ("deep_recall", "remember", "forget")

#: Each tool's description but deep_recall's, per language.
DESCRIPTIONS: dict[Lang, dict[str, str]] = {
    "en": {
        "remember": (
            "Store what the conversation established in the user's memory, as a short-term "
            "summary (older ones are promoted into the long-term profile automatically). Call "
            "it when a decision, a preference or a fact about the user is settled, or at the "
            "end of a session. Pass either summary (stored as written) or messages (chat "
            "messages to summarize)."
        ),
        "forget": (
            "Delete records from the user's memory by id (the ids deep_recall returns). Call "
            "it only when the user asks you to forget something specific."
        ),
        "get_relevant_memories": (
            "The user's memory block for the prompt: the long-term profile (Bedrock, "
            "Evolutionary, Dynamic) and the recent summaries most relevant to the current "
            "turn, within a token budget. Cheap: call it once at the start of a turn. It does "
            "not search the archive; use deep_recall for that, and only when the user asks "
            "you to remember."
        ),
        "long_term": (
            "Read the user's long-term article: Bedrock (stable facts), Evolutionary (how "
            "things changed), Dynamic (the current state). Leave version out for the newest."
        ),
        "forget_fact": (
            "Forget a fact everywhere in the user's memory: every summary, archived record, "
            "raw turn and note holding these words loses the sentences that contain them, and "
            "the long-term article (all its versions) too. Call it only when the user asks you "
            "to forget something; pass the fact's distinctive words (a name, a number, a "
            "phrase)."
        ),
        "edit_fact": (
            "Correct the user's long-term article: replace old (exact text of the article, "
            "read it with long_term) with new, as a new version. Call it when the user "
            "corrects a fact."
        ),
        "rollback": (
            "Restore a past version of the user's long-term article (long_term shows "
            "versions), written as a new version so it can be undone. Call it only when the "
            "user asks."
        ),
        "browse_records": (
            "List the user's stored memory records, newest said first, a page at a time: "
            "conversation summaries, archived conversations, raw turns, notes. Call it when "
            "the user asks what you remember about them or wants to review or clean up their "
            "memory; filter by kinds and by date (since/until, ISO dates). For the next page "
            "pass next_offset as offset. To answer a question from memory, use deep_recall "
            "instead."
        ),
        "article_versions": (
            "List the versions of the user's long-term article (profile), newest first, with "
            "when each was written. Call it before article_diff or rollback, or when the user "
            "asks how their profile changed."
        ),
        "article_diff": (
            "Show what changed in the user's long-term article between two versions, per "
            "chapter (Bedrock, Evolutionary, Dynamic), as unified-diff lines. Leave new out "
            "for the newest. Call it to check a correction (after forget_fact, edit_fact or "
            "rollback) or when the user asks what changed."
        ),
        "explain_recall": (
            "Explain a deep_recall: the same hits with each search leg's scores and ranks, and "
            "the memories the relevance floor removed. Call it only when the user asks why "
            "something was or was not recalled; to answer from memory, use deep_recall."
        ),
        "profile": "What is true of the user now (home, employer, gym...) and what each replaced.",
    },
    "zh": {
        "remember": (
            "把对话中确定下来的内容存入用户的记忆，作为一条短期摘要（较旧的摘要会自动并入长期档案）。"
            "在某个决定、偏好或关于用户的事实确定时，或会话结束时调用。summary（原样保存）与 "
            "messages（先摘要的对话消息）二选一。"
        ),
        "forget": (
            "按 id 删除用户记忆中的记录（deep_recall 返回的 id）。"
            "只在用户要求你忘掉某件具体的事时调用。"
        ),
        "get_relevant_memories": (
            "供提示词使用的用户记忆块：长期档案（Bedrock、Evolutionary、Dynamic）与和当前这一轮"
            "最相关的近期摘要，限定在 token 预算内。开销小：每轮开始时调用一次。它不检索存档；"
            "检索存档用 deep_recall，且只在用户要求你回忆时。"
        ),
        "long_term": (
            "读取用户的长期档案：Bedrock（稳定的事实）、Evolutionary（事情如何变化）、"
            "Dynamic（当前状态）。不填 version 即最新版。"
        ),
        "forget_fact": (
            "在用户的全部记忆中忘掉一条事实：所有摘要、存档记录、原始对话和笔记中含这些词的句子都会被删去，"
            "长期档案（所有版本）也一样。只在用户要求你忘掉某件事时调用；传这条事实中有辨识度的词"
            "（名字、数字、短语）。"
        ),
        "edit_fact": (
            "更正用户的长期档案：把 old（档案中的原文，先用 long_term 读取）替换为 new，"
            "写成新版本。用户更正某个事实时调用。"
        ),
        "rollback": (
            "恢复用户长期档案的某个过去版本（long_term 可查看版本），写成新版本，因此可以撤销。"
            "只在用户要求时调用。"
        ),
        "browse_records": (
            "分页列出用户存储的记忆记录，最新的在前：对话摘要、存档对话、原始对话、笔记。用户问你记得"
            "他们什么，或想查看、清理记忆时调用；可按 kinds 和日期（since/until，ISO 日期）筛选。"
            "下一页把 next_offset 作为 offset 传入。要从记忆中回答问题，请用 deep_recall。"
        ),
        "article_versions": (
            "列出用户长期档案的各个版本，最新的在前，附写入时间。在 article_diff 或 rollback 之前，"
            "或用户问档案如何变化时调用。"
        ),
        "article_diff": (
            "按章节（Bedrock、Evolutionary、Dynamic）以统一差异格式显示用户长期档案两个版本之间的变化。"
            "不填 new 即最新版。用于核对一次更正（forget_fact、edit_fact 或 rollback 之后），"
            "或用户问变化了什么时。"
        ),
        "explain_recall": (
            "解释一次 deep_recall：同样的结果，附每一路检索的分数和排名，以及被相关性下限"
            "去掉的记忆。只在用户问为什么某事被或没被想起时调用；要从记忆中回答，用 deep_recall。"
        ),
        "profile": "用户现在的情况（住处、雇主、健身房……）以及每一项替换了什么。",
    },
}

#: Each argument's description, per language: ``tool.argument`` first, else ``argument``
#: (deep_recall's arguments: :mod:`recall.tool_text`).
PARAMS: dict[Lang, dict[str, str]] = {
    "en": {
        "user_id": "Whose memory: the user's id.",
        "remember.summary": "A summary, stored as is.",
        "remember.messages": "Chat messages, summarized first.",
        "get_relevant_memories.user_input": "The user's current turn.",
        "get_relevant_memories.max_tokens": "Token room.",
        "forget.ids": "Record ids to delete.",
        "long_term.version": "A past version.",
        "forget_fact.text": "The fact's words.",
        "edit_fact.old": "Exact text of the article.",
        "edit_fact.new": "The replacement text.",
        "rollback.version": "The version to restore.",
        "browse_records.kinds": "Only these kinds.",
        "browse_records.since": "ISO date.",
        "browse_records.until": "ISO date (its whole day kept) or date-time (exclusive).",
        "browse_records.offset": "Records to skip.",
        "browse_records.limit": "Page size.",
        "article_diff.old": "The version to compare from.",
        "article_diff.new": "The version to compare to (newest).",
    },
    "zh": {
        "user_id": "谁的记忆：用户 id。",
        "remember.summary": "摘要，原样保存。",
        "remember.messages": "对话消息，先摘要再保存。",
        "get_relevant_memories.user_input": "用户当前这一轮说的话。",
        "get_relevant_memories.max_tokens": "可用的 token 数。",
        "forget.ids": "要删除的记录 id。",
        "long_term.version": "过去的某个版本。",
        "forget_fact.text": "这条事实的原话。",
        "edit_fact.old": "档案中的原文（须完全一致）。",
        "edit_fact.new": "替换后的文字。",
        "rollback.version": "要恢复的版本。",
        "browse_records.kinds": "只看这些类型。",
        "browse_records.since": "ISO 日期。",
        "browse_records.until": "ISO 日期（含当天）或日期时间（不含）。",
        "browse_records.offset": "跳过的条数。",
        "browse_records.limit": "每页条数。",
        "article_diff.old": "比较的起始版本。",
        "article_diff.new": "比较的目标版本（默认最新）。",
    },
}

#: The tools that take deep_recall's arguments, described in its words.
_RECALLING = {"deep_recall", "explain_recall"}


def describe(tool: str, lang: Lang) -> str:
    """The description of ``tool`` in ``lang``."""
    if tool == "deep_recall":
        return deep_recall_text("description", lang)
    return DESCRIPTIONS[lang][tool]


def _param(tool: str, name: str, lang: Lang, prop: dict[str, Any]) -> str:
    if tool in _RECALLING and name in DEEP_RECALL[lang]:
        return deep_recall_text(name, lang, most=prop.get("maximum", 0))
    texts = PARAMS[lang]
    return texts.get(f"{tool}.{name}") or texts[name]  # a KeyError: a text is missing


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    """``node`` with every ``$ref`` to ``#/$defs/...`` replaced by the definition (less its
    description: a class's docstring, in no language of the server's)."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            target = defs[ref.removeprefix("#/$defs/")]
            merged = {**{k: v for k, v in target.items() if k != "description"}, **node}
            merged.pop("$ref")
            return _inline(merged, defs)
        return {k: _inline(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


def _tidy(schema: dict[str, Any]) -> None:
    """Drop what a model does not need (titles, ``null`` defaults) and close every object."""
    schema.pop("title", None)
    if "default" in schema and schema["default"] is None:
        del schema["default"]
    if schema.get("type") == "object":
        schema["additionalProperties"] = False
    for prop in schema.get("properties", {}).values():
        _tidy(prop)
    if isinstance(schema.get("items"), dict):
        _tidy(schema["items"])
    for branch in schema.get("anyOf", ()):
        _tidy(branch)


def advertised(schema: dict[str, Any], tool: str, lang: Lang, *, pinned: bool) -> dict[str, Any]:
    """The input schema of ``tool`` as the server lists it: its arguments described in
    ``lang``, inlined, tidied and closed; no ``user_id`` when the server is ``pinned``."""
    out: dict[str, Any] = _inline(copy.deepcopy(schema), schema.get("$defs", {}))
    out.pop("$defs", None)
    props: dict[str, Any] = out.setdefault("properties", {})
    if pinned:
        props.pop("user_id", None)
        out["required"] = [r for r in out.get("required", ()) if r != "user_id"]
    if not out.get("required"):
        out.pop("required", None)
    for name, prop in props.items():
        prop["description"] = _param(tool, name, lang, prop)
    _tidy(out)
    return out


_INSTRUCTIONS: dict[tuple[ToolSet, Lang], str] = {
    ("all", "en"): (
        "recall is this user's long-term memory. Call get_relevant_memories at the start of "
        "a turn for the profile and recent summaries; call deep_recall only when the user "
        "asks you to remember, or agrees to your proposal to dig; call remember when the "
        "conversation settles something worth keeping; forget only when the user asks, after "
        "confirming. The use_memory prompt says more."
    ),
    ("agent", "en"): (
        "recall is this user's long-term memory. Call deep_recall only when the user asks you "
        "to remember, or agrees to your proposal to dig; call remember when the conversation "
        "settles something worth keeping; forget only when the user asks, after confirming. "
        "The use_memory prompt says more."
    ),
    ("all", "zh"): (
        "recall 是这位用户的长期记忆。每轮开始时调用 get_relevant_memories 获取档案和近期摘要；"
        "只在用户要求你回忆，或同意你深入回忆的提议时调用 deep_recall；对话确定了值得记住的内容时"
        "调用 remember；只在用户要求并确认后调用 forget。use_memory 提示词有更多说明。"
    ),
    ("agent", "zh"): (
        "recall 是这位用户的长期记忆。只在用户要求你回忆，或同意你深入回忆的提议时"
        "调用 deep_recall；对话确定了值得记住的内容时调用 remember；只在用户要求并确认后"
        "调用 forget。use_memory 提示词有更多说明。"
    ),
}


def instructions(tools: ToolSet = "all", lang: Lang = "en") -> str:
    """The server's instructions for the tool set ``tools``, in ``lang``."""
    return _INSTRUCTIONS[tools, lang]
