"""The user's facts read by a model, when the host configures one: add / update per turn.

The offline path (:mod:`recall.user.now`) labels every sentence of the user's by its
nearest examples and is the default. With ``RECALL_LLM_MODEL`` set (any OpenAI-compatible
endpoint) and ``llm.extract_facts`` on, each ``update_memory`` of chat messages also asks
the model what the user's new messages change in their profile, given the profile as the
model's earlier answers left it, as mem0 does: ``add`` an attribute, ``update`` its value,
or nothing (kept). Each change is stored in the same transaction as the summary, as a
``fact`` record (``metadata``: attribute, value, op; dated when it was said), and the
profile reads an attribute the model has spoken of from these records alone. A model that
fails or answers badly changes nothing: the offline reading stays.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from string import Template
from typing import Any, Literal

from pydantic import BaseModel, Field

from ..errors import LLMError
from ..llm import LLMClient, load_prompt
from ..models import Record
from ..store import Store
from ..user.attributes import NONE, examples

__all__ = [
    "Extracted",
    "FACT_KIND",
    "FactChange",
    "FactExtractor",
    "fact_records",
    "known",
    "user_messages",
]

log = logging.getLogger(__name__)

#: The kind of the records an extraction writes.
FACT_KIND = "fact"
#: Most changes one call may write (a model that lists the whole profile again is cut).
MAX_CHANGES = 12


class FactChange(BaseModel):
    """One change the model read in the user's messages."""

    op: Literal["add", "update"]
    attribute: str = Field(min_length=1, max_length=40)
    value: str = Field(min_length=1, max_length=120)
    statement: str = Field(min_length=1, max_length=400)


class Extracted(BaseModel):
    """The model's answer: the changes (none: nothing changed)."""

    facts: list[FactChange] = Field(default_factory=list)


def known(records: Sequence[Record]) -> dict[str, str]:
    """The profile the earlier extractions left: each attribute's latest value."""
    out: dict[str, str] = {}
    for r in sorted(records, key=lambda r: (r.created_at, r.id)):
        if r.kind == FACT_KIND and r.metadata.get("attribute") and r.metadata.get("value"):
            out[str(r.metadata["attribute"])] = str(r.metadata["value"])
    return out


def _attribute(name: str) -> str:
    """The model's attribute name as a kind-like identifier ("Home city" -> "home_city")."""
    return "_".join(name.strip().lower().replace("-", " ").split())[:40] or "other"


class FactExtractor:
    """Asks the model what the user's new messages change (see the module docs)."""

    def __init__(self, client: LLMClient) -> None:
        self.client = client
        self.attributes = sorted({e.attribute for e in examples()} - {NONE})

    def read(self, payload: Mapping[str, Any], store: Store, user_id: str) -> list[FactChange]:
        """The changes one journaled update_memory ``payload`` makes to the profile the
        user's ``fact`` records hold ([] for a summary string)."""
        if "messages" not in payload:
            return []
        profile = known(store.records(user_id, kinds=[FACT_KIND]))
        return self.extract(user_messages(payload), profile)

    def extract(self, messages: Sequence[str], profile: Mapping[str, str]) -> list[FactChange]:
        """The changes the user's ``messages`` make to ``profile`` ([] on any model
        failure)."""
        said = [m.strip() for m in messages if m.strip()]
        if not said:
            return []
        system = Template(load_prompt("extract_facts")).substitute(
            known="\n".join(f"{a}: {v}" for a, v in sorted(profile.items())) or "(empty)",
            attributes=", ".join(self.attributes),
        )
        try:
            got = self.client.structured(system, "\n".join(said), Extracted)
        except LLMError as exc:
            log.warning("recall: fact extraction failed, keeping the offline profile: %s", exc)
            return []
        out: list[FactChange] = []
        for change in got.facts[:MAX_CHANGES]:
            attribute = _attribute(change.attribute)
            if profile.get(attribute, "").casefold() == change.value.strip().casefold():
                continue  # said again: kept, not a change
            out.append(change.model_copy(update={"attribute": attribute}))
        return out


def fact_records(
    user_id: str,
    job_id: str,
    at: datetime,
    changes: Sequence[FactChange],
    count: Callable[[str], int],
) -> list[Record]:
    """The ``fact`` records of one call's changes, dated ``at`` (when it was said)."""
    return [
        Record(
            id=f"fact-{job_id}-{n}",
            user_id=user_id,
            kind=FACT_KIND,
            text=c.statement,
            created_at=at,
            tokens=count(c.statement),
            metadata={"attribute": c.attribute, "value": c.value.strip(), "op": c.op},
        )
        for n, c in enumerate(changes)
    ]


def user_messages(payload: Mapping[str, Any]) -> list[str]:
    """The user's messages of one journaled update_memory payload."""
    return [
        str(m.get("content", ""))
        for m in payload.get("messages", [])
        if isinstance(m, Mapping) and m.get("role") == "user"
    ]
