"""recall: long-term memory for LLM agents, with explicit hybrid deep recall.

import recall
mem = recall.open("./memory")
mem.add("We chose Redis for the session cache.", user_id="u1")
hits = mem.deep_recall("what did we decide about the cache?", user_id="u1")
"""

from .context.builder import ContextBuilder
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
from .context.report import BuiltContext, ContextReport
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
from .memory.state import FailedJob, IndexState, KeyClaim, UserIndexState
from .memory.users import ImportResult, UserDeletion
from .models import Fact, Hit, Profile, Record
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
    "Record",
    "RecordPage",
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
