"""What an ``update_memory`` call answers: :class:`UpdateResult`."""

from __future__ import annotations

from pydantic import BaseModel, Field

__all__ = ["UpdateResult"]


class UpdateResult(BaseModel):
    """What one update_memory call did (or, with ``queued``, will do)."""

    user_id: str
    job_id: str
    summary_id: str = Field(
        description="Id of the short-term summary (known even if queued); empty when every "
        "turn was one the user asked not to keep (recall.lifecycle.privacy): nothing written."
    )
    queued: bool = Field(False, description="Background mode: the work runs on the worker.")
    duplicate: bool = Field(
        False,
        description="The user's same messages were stored before: nothing new was written, "
        "and summary_id is that earlier call's summary.",
    )
    promoted: bool = Field(False, description="True when at least one promotion ran.")
    promoted_ids: list[str] = Field(default_factory=list, description="Summaries promoted.")
    versions: list[int] = Field(default_factory=list, description="Chapter versions written.")
    version: int = Field(0, description="The user's chapter version after the call.")
    short_term_count: int = Field(0, description="Short-term summaries after the call.")
