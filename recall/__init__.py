"""recall: long-term memory for LLM agents, with explicit hybrid deep recall.

import recall
mem = recall.open("./memory")
mem.add("We chose Redis for the session cache.", user_id="u1")
hits = mem.deep_recall("what did we decide about the cache?", user_id="u1")

The names below are imported when first used (PEP 562): ``import recall`` itself costs
little, and a command or a host pays only for the parts it touches.
"""

from typing import TYPE_CHECKING as _TYPE_CHECKING

from .lazy import lazy_names as _lazy_names

if _TYPE_CHECKING:
    from .context.builder import ContextBuilder
    from .context.built import BuiltContext, ContextReport
    from .context.facts import format_memory_for_injection
    from .context.language import deep_recall_prompt, proposal_text
    from .context.proposal import (
        DEEP_RECALL_PROMPT_EN,
        DEEP_RECALL_PROMPT_ZH,
        Proposal,
        ProposalDecision,
        ProposalState,
        classify_consent,
        is_recall_proposal,
    )
    from .context.session import Session
    from .errors import (
        ConfigError,
        DatasetError,
        EmbedderError,
        IndexStaleError,
        InputError,
        LLMError,
        MessageError,
        ModelFileError,
        RecallError,
        StoreError,
        UnknownUserError,
        UserExistsError,
    )
    from .index.embed import Embedder, MiniLMEmbedder, USEEmbedder, load_embedder
    from .index.fuse import fuse_linear, fuse_rrf, minmax
    from .index.own import Embeds
    from .index.spec import IndexSpec, load_spec
    from .inputs import Depth, Fusion
    from .lifecycle.answer import AnswerWithSummary, parse_answer_with_summary
    from .lifecycle.article import LongTerm
    from .lifecycle.pipeline import UpdateResult
    from .memory import Memory, open
    from .memory.forget import Forgotten
    from .memory.inspect import ArticleDiff, ArticleVersion, Explained, RecordPage
    from .memory.search import RequestOptions, SearchOptions
    from .memory.state import FailedJob, IndexState, KeyClaim, UserIndexState
    from .memory.users import ImportResult, UserDeletion
    from .models import Fact, Hit, Profile, RecallRequest, Record
    from .settings import Settings
    from .text import count_tokens, estimate_tokens, tokenize
    from .tool import (
        DEEP_RECALL_TOOL,
        DEEP_RECALL_TOOL_ANTHROPIC,
        DEEP_RECALL_TOOL_RESPONSES,
        DeepRecallArgs,
        wants_deep_recall,
    )

__all__ = [
    "AnswerWithSummary",
    "ArticleDiff",
    "ArticleVersion",
    "BuiltContext",
    "ConfigError",
    "ContextBuilder",
    "ContextReport",
    "DEEP_RECALL_PROMPT_EN",
    "DEEP_RECALL_PROMPT_ZH",
    "DEEP_RECALL_TOOL",
    "DEEP_RECALL_TOOL_ANTHROPIC",
    "DEEP_RECALL_TOOL_RESPONSES",
    "DatasetError",
    "DeepRecallArgs",
    "Depth",
    "Embedder",
    "EmbedderError",
    "Embeds",
    "Explained",
    "Fact",
    "FailedJob",
    "Forgotten",
    "Fusion",
    "Hit",
    "ImportResult",
    "IndexSpec",
    "IndexStaleError",
    "IndexState",
    "InputError",
    "KeyClaim",
    "LLMError",
    "LongTerm",
    "Memory",
    "MessageError",
    "MiniLMEmbedder",
    "ModelFileError",
    "Profile",
    "Proposal",
    "ProposalDecision",
    "ProposalState",
    "RecallError",
    "RecallRequest",
    "Record",
    "RecordPage",
    "RequestOptions",
    "SearchOptions",
    "Session",
    "Settings",
    "StoreError",
    "USEEmbedder",
    "UnknownUserError",
    "UpdateResult",
    "UserDeletion",
    "UserExistsError",
    "UserIndexState",
    "classify_consent",
    "count_tokens",
    "deep_recall_prompt",
    "estimate_tokens",
    "format_memory_for_injection",
    "fuse_linear",
    "fuse_rrf",
    "is_recall_proposal",
    "load_embedder",
    "load_spec",
    "minmax",
    "open",
    "parse_answer_with_summary",
    "proposal_text",
    "tokenize",
    "wants_deep_recall",
]

__version__ = "0.2.0"

#: Where each public name lives (its module, relative to this package).
_HOME: dict[str, str] = {
    "AnswerWithSummary": ".lifecycle.answer",
    "ArticleDiff": ".memory.inspect",
    "ArticleVersion": ".memory.inspect",
    "BuiltContext": ".context.built",
    "ConfigError": ".errors",
    "ContextBuilder": ".context.builder",
    "ContextReport": ".context.built",
    "DEEP_RECALL_PROMPT_EN": ".context.proposal",
    "DEEP_RECALL_PROMPT_ZH": ".context.proposal",
    "DEEP_RECALL_TOOL": ".tool",
    "DEEP_RECALL_TOOL_ANTHROPIC": ".tool",
    "DEEP_RECALL_TOOL_RESPONSES": ".tool",
    "DatasetError": ".errors",
    "DeepRecallArgs": ".tool",
    "Depth": ".inputs",
    "Embedder": ".index.embed",
    "EmbedderError": ".errors",
    "Embeds": ".index.own",
    "Explained": ".memory.inspect",
    "Fact": ".models",
    "FailedJob": ".memory.state",
    "Forgotten": ".memory.forget",
    "Fusion": ".inputs",
    "Hit": ".models",
    "ImportResult": ".memory.users",
    "IndexSpec": ".index.spec",
    "IndexStaleError": ".errors",
    "IndexState": ".memory.state",
    "InputError": ".errors",
    "KeyClaim": ".memory.state",
    "LLMError": ".errors",
    "LongTerm": ".lifecycle.article",
    "Memory": ".memory",
    "MessageError": ".errors",
    "MiniLMEmbedder": ".index.embed",
    "ModelFileError": ".errors",
    "Profile": ".models",
    "Proposal": ".context.proposal",
    "ProposalDecision": ".context.proposal",
    "ProposalState": ".context.proposal",
    "RecallError": ".errors",
    "RecallRequest": ".models",
    "Record": ".models",
    "RecordPage": ".memory.inspect",
    "RequestOptions": ".memory.search",
    "SearchOptions": ".memory.search",
    "Session": ".context.session",
    "Settings": ".settings",
    "StoreError": ".errors",
    "USEEmbedder": ".index.embed",
    "UnknownUserError": ".errors",
    "UpdateResult": ".lifecycle.pipeline",
    "UserDeletion": ".memory.users",
    "UserExistsError": ".errors",
    "UserIndexState": ".memory.state",
    "classify_consent": ".context.proposal",
    "count_tokens": ".text",
    "deep_recall_prompt": ".context.language",
    "estimate_tokens": ".text",
    "format_memory_for_injection": ".context.facts",
    "fuse_linear": ".index.fuse",
    "fuse_rrf": ".index.fuse",
    "is_recall_proposal": ".context.proposal",
    "load_embedder": ".index.embed",
    "load_spec": ".index.spec",
    "minmax": ".index.fuse",
    "open": ".memory",
    "parse_answer_with_summary": ".lifecycle.answer",
    "proposal_text": ".context.language",
    "tokenize": ".text",
    "wants_deep_recall": ".tool",
}


__getattr__, __dir__ = _lazy_names(__name__, _HOME, globals(), __all__)
