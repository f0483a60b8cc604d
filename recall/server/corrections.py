"""Corrections over REST: forget a fact everywhere, edit the article, roll it back.

Three POST writes under ``/v1/users/{user}``, each checked like every other route (the
API key's tenant, a strict JSON body, 4xx JSON on bad input) and each taking an
``Idempotency-Key`` (:meth:`~recall.server.rest.RestApi._write`):

- ``POST /forget`` ``{"text": "Quantix"}`` and/or ``{"ids": [...]}``:
  :meth:`recall.Memory.forget` (records rewritten or deleted, a new article version, older
  versions scrubbed); answers what changed;
- ``POST /long-term/edit`` ``{"old": ..., "new": ...}``: :meth:`recall.Memory.edit_fact`;
- ``POST /long-term/rollback`` ``{"version": N}``: :meth:`recall.Memory.rollback` (404 past
  the newest version).

The table :data:`CORRECTION_ENDPOINTS` joins :data:`~recall.server.rest.ENDPOINTS` in the
app's routes and in the OpenAPI document.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .. import LongTerm
from ..memory.forget import MIN_FACT_CHARS, Forgotten
from .bodies import read_body
from .errors import NotFoundError
from .rest import Endpoint, RestApi
from .rest_endpoint import require_held

__all__ = ["CORRECTION_ENDPOINTS", "CorrectionsApi", "EditBody", "ForgetBody", "RollbackBody"]

_U = "/v1/users/{user}"
_MAX_IDS = 1000
_Body = TypeVar("_Body", bound=BaseModel)


class ForgetBody(BaseModel):
    """Forget a fact everywhere (``text``), delete records (``ids``), or both."""

    model_config = ConfigDict(extra="forbid")

    text: str | None = Field(
        None,
        min_length=MIN_FACT_CHARS,
        description="The fact's words: every record and article version holding them (case "
        "and spacing ignored) loses the sentences that contain them.",
    )
    ids: list[str] | None = Field(
        None, min_length=1, max_length=_MAX_IDS, description="Record ids to delete."
    )

    @model_validator(mode="after")
    def _some(self) -> Self:
        if self.text is None and self.ids is None:
            raise ValueError("send text (the fact to forget), ids (records to delete) or both")
        return self


class EditBody(BaseModel):
    """Replace ``old`` (exact text of the article) with ``new`` in every chapter."""

    model_config = ConfigDict(extra="forbid")

    old: str = Field(min_length=1, description="Exact text of the article to replace.")
    new: str = Field(description="The replacement (empty: remove the words).")


class RollbackBody(BaseModel):
    """Write the chapters of ``version`` as a new version."""

    model_config = ConfigDict(extra="forbid")

    version: int = Field(ge=0, lt=2**63, strict=True, description="The version to restore.")


CORRECTION_ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint("POST", f"{_U}/forget", "forget_fact",
             "Forget a fact in every tier (records, article and its older versions)",
             ForgetBody, Forgotten),
    Endpoint("POST", f"{_U}/long-term/edit", "edit_fact",
             "Replace text of the long-term article (a new version)", EditBody, LongTerm),
    Endpoint("POST", f"{_U}/long-term/rollback", "rollback",
             "Restore a past version of the article (as a new version)", RollbackBody, LongTerm),
)  # fmt: skip


class CorrectionsApi:
    """The handlers of :data:`CORRECTION_ENDPOINTS`, with the checks of ``rest``."""

    def __init__(self, rest: RestApi) -> None:
        self.rest = rest

    def routes(self) -> list[Route]:
        """The Starlette routes, each handler wrapped so errors answer JSON."""
        return [
            Route(e.path, self.rest._wrap(getattr(self, e.name)), methods=[e.method])
            for e in CORRECTION_ENDPOINTS
        ]

    async def _held(self, request: Request, model: type[_Body]) -> tuple[str, _Body]:
        """The user of a correction (who must hold memory) and its checked body."""
        uid = self.rest._user(request)
        body = await read_body(request, model)
        await require_held(self.rest.amem, uid)
        return uid, body

    async def _correct(
        self, request: Request, uid: str, name: str, body: BaseModel, write: Callable[[], Any]
    ) -> Response:
        """Run the correction ``write`` once per ``Idempotency-Key`` (the request: ``name``
        and the body), answering 200 with what it returns."""
        request_id = f"{name} {body.model_dump_json()}"
        return await self.rest._write(request, uid, request_id, write, 200)

    async def forget_fact(self, request: Request) -> Response:
        """POST /forget: Memory.forget."""
        uid, body = await self._held(request, ForgetBody)
        write = partial(self.rest.amem.memory.forget, uid, body.text, ids=body.ids)
        return await self._correct(request, uid, "forget", body, write)

    async def edit_fact(self, request: Request) -> Response:
        """POST /long-term/edit: Memory.edit_fact."""
        uid, body = await self._held(request, EditBody)
        write = partial(self.rest.amem.memory.edit_fact, uid, body.old, body.new)
        return await self._correct(request, uid, "edit", body, write)

    async def rollback(self, request: Request) -> Response:
        """POST /long-term/rollback: Memory.rollback (404 past the newest version)."""
        uid, body = await self._held(request, RollbackBody)
        newest = await self.rest.amem.article_version(uid)
        if body.version > newest:
            raise NotFoundError(
                f"user {uid!r} has no long-term version {body.version}; newest is {newest}"
            )
        write = partial(self.rest.amem.memory.rollback, uid, body.version)
        return await self._correct(request, uid, "rollback", body, write)
