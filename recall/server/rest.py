"""The REST API: one route per :class:`Endpoint`, the OpenAPI document from the same table.

Every handler checks the user against the request's API key (its tenant), validates the
body with a pydantic model, runs the call off the event loop (:class:`AsyncMemory`) and
answers JSON. Every failure is ``{"error": message, "status": code}`` with the status of
:func:`~recall.server.errors.status_for`. User ids travel in the path, so one holding
``/`` is reachable over MCP only.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .. import __version__
from ..errors import InputError, RecallError
from ..lifecycle.article import LongTerm
from ..lifecycle.pipeline import UpdateResult
from ..memory.users import ImportResult, UserDeletion
from ..models import require_user_id, validation_message
from ..store.users import UnknownUserError
from . import schemas as s
from .aio import AsyncMemory
from .auth import ApiKeys, key_from_headers
from .errors import NotFoundError, status_for

__all__ = ["ENDPOINTS", "Endpoint", "RestApi", "error_response"]

log = logging.getLogger(__name__)
_M = TypeVar("_M", bound=BaseModel)
_U = "/v1/users/{user}"


@dataclass(frozen=True)
class Endpoint:
    """One route: method, path, the handler's name on :class:`RestApi`, and its models."""

    method: str
    path: str
    name: str
    summary: str
    body: type[BaseModel] | None = None
    response: type[BaseModel] | None = None
    status: int = 200
    #: Answered without an API key (liveness, the OpenAPI document).
    public: bool = False
    media_type: str = "application/json"


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint("POST", f"{_U}/recall", "recall", "Deep recall: hybrid search of the user's memory",
             s.RecallBody, s.RecallResponse),
    Endpoint("GET", f"{_U}/memories", "memories", "The user's records (?kind=... repeatable)",
             response=s.RecordsResponse),
    Endpoint("POST", f"{_U}/memories", "remember", "update_memory: store a summary or messages",
             s.RememberBody, UpdateResult, status=201),
    Endpoint("POST", f"{_U}/notes", "notes", "Store records as they are", s.NotesBody,
             s.IdsResponse, status=201),
    Endpoint("DELETE", f"{_U}/memories/{{record_id}}", "forget", "Delete one record",
             response=s.DeletedResponse),
    Endpoint("POST", f"{_U}/relevant", "relevant", "The memory block for the prompt",
             s.RelevantBody, s.RelevantResponse),
    Endpoint("GET", f"{_U}/long-term", "long_term", "The long-term article (?version=N)",
             response=LongTerm),
    Endpoint("GET", f"{_U}/export", "export", "The user's memory as JSONL",
             media_type="application/x-ndjson"),
    Endpoint("POST", f"{_U}/import", "import_", "Load a JSONL export as this user (body: JSONL)",
             response=ImportResult, status=201),
    Endpoint("DELETE", _U, "delete_user", "Erase every record, article, job and vector of the user",
             response=UserDeletion),
    Endpoint("GET", "/v1/stats", "stats", "Users, records, index state (operator key)"),
    Endpoint("GET", "/healthz", "health", "Liveness", response=s.Health, public=True),
)  # fmt: skip


def error_response(exc: BaseException) -> JSONResponse:
    """The JSON error answer for ``exc``."""
    status = status_for(exc)
    message = str(exc) if isinstance(exc, RecallError) else "request timed out"
    if status == 500:
        log.exception("recall server: unexpected error", exc_info=exc)
        message = f"internal error: {type(exc).__name__}"
    headers = {"www-authenticate": "Bearer"} if status == 401 else None
    body = s.ErrorBody(error=message, status=status).model_dump()
    return JSONResponse(body, status_code=status, headers=headers)


def _json(model: BaseModel, status: int = 200) -> Response:
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")


async def _body(request: Request, model: type[_M]) -> _M:
    raw = await request.body()
    try:
        data = json.loads(raw) if raw.strip() else None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"the request body is not JSON: {exc}") from exc
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise InputError(validation_message(exc, "request body")) from exc


class RestApi:
    """The handlers of :data:`ENDPOINTS` over one memory and one key set."""

    def __init__(self, amem: AsyncMemory, keys: ApiKeys | None) -> None:
        self.amem = amem
        self.keys = keys

    def routes(self) -> list[Route]:
        """The Starlette routes, each handler wrapped so errors answer JSON."""
        return [
            Route(e.path, self._wrap(getattr(self, e.name)), methods=[e.method]) for e in ENDPOINTS
        ]

    def _wrap(self, fn: Callable[[Request], Awaitable[Response]]) -> Callable[..., Any]:
        async def endpoint(request: Request) -> Response:
            try:
                return await fn(request)
            except Exception as exc:
                return error_response(exc)

        return endpoint

    def _user(self, request: Request) -> str:
        uid = require_user_id(request.path_params["user"])
        if self.keys is not None:
            self.keys.check(key_from_headers(request.headers), uid)
        return uid

    # --- handlers -----------------------------------------------------------------------
    async def recall(self, request: Request) -> Response:
        """POST /recall: deep_recall."""
        uid = self._user(request)
        body = await _body(request, s.RecallBody)
        hits = await self.amem.deep_recall(
            body.query, user_id=uid, top_k=body.top_k, depth=body.depth, kinds=body.kinds
        )
        return _json(s.RecallResponse.of(body.query, hits))

    async def memories(self, request: Request) -> Response:
        """GET /memories: the user's records."""
        uid = self._user(request)
        kinds = request.query_params.getlist("kind") or None
        return _json(s.RecordsResponse(records=await self.amem.records(uid, kinds)))

    async def remember(self, request: Request) -> Response:
        """POST /memories: update_memory."""
        uid = self._user(request)
        body = await _body(request, s.RememberBody)
        result = await self.amem.update_memory(
            body.states(), user_id=uid, background=body.background
        )
        return _json(result, 201)

    async def notes(self, request: Request) -> Response:
        """POST /notes: add_many."""
        uid = self._user(request)
        body = await _body(request, s.NotesBody)
        items = [n.model_dump(exclude_none=True) for n in body.notes]
        return _json(s.IdsResponse(ids=await self.amem.add_many(items, user_id=uid)), 201)

    async def forget(self, request: Request) -> Response:
        """DELETE /memories/{record_id}: delete one record (404 when absent)."""
        uid = self._user(request)
        record_id = request.path_params["record_id"]
        if not await self.amem.delete([record_id], user_id=uid):
            raise NotFoundError(f"user {uid!r} has no record {record_id!r}")
        return _json(s.DeletedResponse(deleted=1))

    async def relevant(self, request: Request) -> Response:
        """POST /relevant: get_relevant_memories."""
        uid = self._user(request)
        body = await _body(request, s.RelevantBody)
        text = await self.amem.get_relevant_memories(
            body.input, user_id=uid, max_tokens=body.max_tokens
        )
        return _json(s.RelevantResponse(text=text))

    async def long_term(self, request: Request) -> Response:
        """GET /long-term: the article, newest or ?version=N (404 past the newest)."""
        uid = self._user(request)
        raw = request.query_params.get("version")
        version = None
        if raw is not None:
            if not raw.isdigit():
                raise InputError(f"version must be a non-negative integer, got {raw!r}")
            version = int(raw)
            newest = await self.amem.run(self.amem.memory.store.article_version, uid)
            if version > newest:
                raise NotFoundError(
                    f"user {uid!r} has no long-term version {version}; newest is {newest}"
                )
        return _json(await self.amem.long_term(uid, version))

    async def export(self, request: Request) -> Response:
        """GET /export: export_user as JSONL (404 for an unknown user)."""
        uid = self._user(request)
        lines = await self.amem.export_user(uid)
        return Response(
            "".join(lines),
            media_type="application/x-ndjson",
            headers={"content-disposition": 'attachment; filename="export.jsonl"'},
        )

    async def import_(self, request: Request) -> Response:
        """POST /import: import_user from a JSONL body (409 when the user holds memory)."""
        uid = self._user(request)
        result = await self.amem.import_user(await request.body(), user_id=uid)
        return _json(result, 201)

    async def delete_user(self, request: Request) -> Response:
        """DELETE /v1/users/{user}: delete_user (404 when nothing was there)."""
        uid = self._user(request)
        result = await self.amem.delete_user(uid)
        if not result.existed:
            raise UnknownUserError(f"user {uid!r} holds no memory here")
        return _json(result)

    async def stats(self, request: Request) -> Response:
        """GET /v1/stats: Memory.stats (an operator key when keys are configured)."""
        if self.keys is not None:
            self.keys.require_operator(key_from_headers(request.headers))
        return JSONResponse(await self.amem.stats())

    async def health(self, _request: Request) -> Response:
        """GET /healthz: liveness, no key needed."""
        return _json(s.Health(status="ok", version=__version__))
