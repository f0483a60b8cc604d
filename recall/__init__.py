"""recall: long-term memory for LLM agents, with explicit hybrid deep recall.

import recall
mem = recall.open("./memory")
mem.add("We chose Redis for the session cache.", user_id="u1")
hits = mem.deep_recall("what did we decide about the cache?", user_id="u1")
"""

from .context import ContextBuilder
from .context_report import BuiltContext, ContextReport
from .embed import Embedder, MiniLMEmbedder, USEEmbedder, load_embedder
from .errors import (
    ConfigError,
    IndexStaleError,
    InputError,
    LLMError,
    RecallError,
    StoreError,
)
from .index.fuse import fuse_linear, fuse_rrf, minmax
from .inject import format_memory_for_injection
from .lifecycle import UpdateResult
from .longterm import LongTerm
from .memory import Memory, open
from .models import Hit, Record
from .session import Session
from .settings import Settings
from .spec import IndexSpec, load_spec
from .text import tokenize
from .tokens import count_tokens, estimate_tokens
from .tool import DEEP_RECALL_TOOL, DeepRecallArgs, wants_deep_recall
from .turns import AnswerWithSummary, parse_answer_with_summary

__all__ = [
    "AnswerWithSummary",
    "BuiltContext",
    "ConfigError",
    "ContextBuilder",
    "ContextReport",
    "DEEP_RECALL_TOOL",
    "DeepRecallArgs",
    "Embedder",
    "Hit",
    "IndexSpec",
    "IndexStaleError",
    "InputError",
    "LLMError",
    "LongTerm",
    "Memory",
    "MiniLMEmbedder",
    "RecallError",
    "Record",
    "Session",
    "Settings",
    "StoreError",
    "USEEmbedder",
    "UpdateResult",
    "count_tokens",
    "estimate_tokens",
    "format_memory_for_injection",
    "fuse_linear",
    "fuse_rrf",
    "load_embedder",
    "load_spec",
    "minmax",
    "open",
    "parse_answer_with_summary",
    "tokenize",
    "wants_deep_recall",
]

__version__ = "0.1.0"
