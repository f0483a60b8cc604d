"""What the server's requests carry and its answers hold, as pydantic models.

The REST API validates every body against these (HTTP 400 with the problems named) and
its OpenAPI document is generated from them; the MCP tools answer with the same models as
structured content. The search request is :class:`recall.tool.DeepRecallArgs`, the model
the function-calling tool is built from, so every face of deep_recall takes one shape.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ..memory.inspect import ArticleVersion
from ..models import MAX_METADATA_DEPTH, Hit, JsonObject, Record, check_depth
from ..tool import NOTHING_RELEVANT, DeepRecallArgs

__all__ = [
    "ArticleVersions",
    "CompactHit",
    "CompactRecall",
    "DeletedResponse",
    "ErrorBody",
    "Health",
    "IdsResponse",
    "NoteIn",
    "NotesBody",
    "RecallBody",
    "RecallResponse",
    "RecordsResponse",
    "RelevantBody",
    "RelevantResponse",
    "RememberBody",
]


class RecallBody(DeepRecallArgs):
    """A deep_recall over REST: the tool's arguments, plus an optional list of kinds."""

    kinds: list[str] | None = Field(
        None, min_length=1, description="Search exactly these kinds (overrides depth)."
    )


class RecallResponse(BaseModel):
    """The hits of a deep_recall, best first, each with both legs' scores."""

    query: str
    hits: list[Hit]
    note: str | None = Field(None, description="Set when nothing passed the relevance floor.")

    @classmethod
    def of(cls, query: str, hits: list[Hit]) -> RecallResponse:
        """The response for ``hits`` (with the 'nothing relevant' note when empty)."""
        return cls(query=query, hits=hits, note=None if hits else NOTHING_RELEVANT)


class CompactHit(BaseModel):
    """One hit as a model reads it (:func:`recall.tool.recall_content`)."""

    id: str
    text: str
    kind: str
    date: str = Field(description="When it was said (UTC), YYYY-MM-DD.")
    score: float = Field(description="The fused score in [0, 1], rounded.")


class CompactRecall(BaseModel):
    """The MCP deep_recall result: what ``Memory.handle_tool_call`` gives a model, the hits
    under ``hits``; the per-leg scores are REST's and ``explain_recall``'s."""

    query: str
    hits: list[CompactHit]
    note: str | None = Field(None, description="Set when nothing passed the relevance floor.")


class ArticleVersions(BaseModel):
    """Every stored version of the user's long-term article, newest first."""

    user_id: str
    versions: list[ArticleVersion]


class RememberBody(BaseModel):
    """update_memory: a summary to store as is, or chat messages to summarize."""

    model_config = ConfigDict(extra="forbid")

    summary: str | None = Field(None, min_length=1, description="A summary, stored as is.")
    messages: list[dict[str, Any]] | None = Field(
        None, min_length=1, description="OpenAI-format chat messages, summarized first."
    )
    background: bool = Field(False, description="Journal it and answer at once.")

    @field_validator("messages")
    @classmethod
    def _shallow(cls, v: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
        # A message nested past the metadata limit is no chat message, and would reach the
        # serializers (the journal, the answer) at a depth they cannot handle.
        for i, message in enumerate(v or ()):
            check_depth(message, f"messages[{i}]", MAX_METADATA_DEPTH)
        return v

    @model_validator(mode="after")
    def _one(self) -> Self:
        if (self.summary is None) == (self.messages is None):
            raise ValueError("send exactly one of 'summary' and 'messages'")
        return self

    def states(self) -> str | list[dict[str, Any]]:
        """What update_memory takes."""
        return self.summary if self.summary is not None else list(self.messages or [])


class NoteIn(BaseModel):
    """One record to store as is (``Memory.add``)."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1)
    kind: str | None = Field(None, description="Default 'note' (never promoted).")
    id: str | None = Field(None, description="Default: a new id; an existing one is replaced.")
    metadata: JsonObject | None = Field(
        None, description="Labels such as a thread: strict JSON, at most 8 levels, 64 KiB."
    )
    created_at: datetime | None = None


class NotesBody(BaseModel):
    """Records to store in one transaction."""

    model_config = ConfigDict(extra="forbid")

    notes: list[NoteIn] = Field(min_length=1, max_length=1000)


class IdsResponse(BaseModel):
    """The ids of the records written."""

    ids: list[str]


class RecordsResponse(BaseModel):
    """A user's stored records, oldest first."""

    records: list[Record]


class DeletedResponse(BaseModel):
    """How many of the named records existed and were deleted."""

    deleted: int


class RelevantBody(BaseModel):
    """get_relevant_memories: the user's current turn and the token room."""

    model_config = ConfigDict(extra="forbid")

    input: str = Field(min_length=1, description="The user's current turn.")
    max_tokens: int | None = Field(None, ge=0, description="Default: the memory budget.")


class RelevantResponse(BaseModel):
    """The memory block to stitch into the prompt."""

    text: str


class ErrorBody(BaseModel):
    """Every error answer: the message says what to do next."""

    error: str
    status: int


class Health(BaseModel):
    """The liveness answer."""

    status: str
    version: str
