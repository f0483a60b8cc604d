"""The REST API: one route per :class:`Endpoint`, the OpenAPI document from the same table.

Every handler checks the user against the request's API key (its tenant), validates the
body with a pydantic model, runs the call off the event loop (:class:`AsyncMemory`) and
answers JSON. Every failure is ``{"error": message, "status": code}`` with the status of
:func:`~recall.server.errors.status_for`, an unknown route or method included
(:func:`http_error`), and a user the folder does not hold on every read (a 404:
:func:`.rest_endpoint.require_held`). Bad input of any shape is a 4xx, never a 500: bodies
nested too deep, integers past Python's digit limit, NaN and Infinity, bodies that are not
UTF-8 or not a JSON object, non-ASCII digits in ``?version=``. User ids travel in the path,
so one holding ``/`` is reachable over MCP only. A POST write sent with an
``Idempotency-Key`` runs once per user and key: a retry gets the remembered answer
(:mod:`recall.store.idempotency`), writing nothing, even after a 504.

Here: the route table and handlers; elsewhere: the read-only views (:mod:`.rest_browse`,
its table part of :data:`ENDPOINTS`), corrections, bodies, ``Idempotency-Key``
(:mod:`.idempotent`) and the error answers (:mod:`.error_answers`, re-exported here).
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .. import LongTerm, RecallRequest, UpdateResult, __version__
from ..errors import InputError
from ..memory.inspect import record_kinds
from ..memory.users import ImportResult, UserDeletion
from ..models import require_user_id
from ..spans import span
from ..tool import bound_top_k
from . import schemas as s
from .aio import AsyncMemory
from .auth import ApiKeys, check_pinned, key_from_headers
from .bodies import json_response, parse_json, read_body
from .error_answers import EXCEPTION_HANDLERS, error_response, http_error
from .errors import NotFoundError
from .idempotent import IDEMPOTENCY_HEADER, idempotency_key, note_ids, run_once
from .mcp import served_stats
from .rest_browse import BROWSE_ENDPOINTS, BrowseApi, check_window
from .rest_endpoint import Endpoint, require_held

__all__ = [
    "ENDPOINTS",
    "EXCEPTION_HANDLERS",
    "Endpoint",
    "IDEMPOTENCY_HEADER",
    "RestApi",
    "error_response",
    "http_error",
    "parse_json",
]

_U = "/v1/users/{user}"
# POST routes that only read (a body too large for a query string): never "a write".
_POST_READS = frozenset({"recall", "relevant", "explain"})
# ?version=N: more digits than any article will ever have versions, fewer than int() chokes on.
_MAX_VERSION_DIGITS = 18


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
    *BROWSE_ENDPOINTS,  # records, long-term/versions and /diff, explain, profile
    Endpoint("GET", "/v1/stats", "stats", "Users, records, index state (operator key)"),
    Endpoint("GET", "/healthz", "health", "Liveness", response=s.Health, public=True),
)  # fmt: skip


class RestApi:
    """The handlers of :data:`ENDPOINTS` over one memory and one key set."""

    def __init__(self, amem: AsyncMemory, keys: ApiKeys | None, pinned: str | None = None) -> None:
        self.amem = amem
        self.keys = keys
        #: The one user a server started with ``--user`` serves (None: every user).
        self.pinned = pinned

    def routes(self) -> list[Route]:
        """The Starlette routes, each handler wrapped so errors answer JSON."""
        browse = BrowseApi(self)
        owner = {e.name: browse for e in BROWSE_ENDPOINTS}
        return [
            Route(
                e.path,
                self._wrap(getattr(owner.get(e.name, self), e.name), read=e.name in _POST_READS),
                methods=[e.method],
            )
            for e in ENDPOINTS
        ]

    def _wrap(
        self, fn: Callable[[Request], Awaitable[Response]], *, read: bool = False
    ) -> Callable[..., Any]:
        async def endpoint(request: Request) -> Response:
            try:
                return await fn(request)
            except Exception as exc:  # a timed-out read is no write that "may still land"
                return error_response(exc, write=request.method == "POST" and not read)

        return endpoint

    async def _write(
        self,
        request: Request,
        uid: str,
        request_id: str,
        write: Callable[[], Any],
        status: int = 201,
        shape: Callable[[Any], BaseModel] = lambda done: done,  # what write returns: the answer
    ) -> Response:
        """Run ``write`` (on a worker thread) once per ``Idempotency-Key``, if one was sent.

        ``request_id`` identifies the request (its route and canonical body): a key sent
        again with another request is refused (422), with the same one while the first
        still runs answered 409, after it the first answer comes back.
        """
        key = idempotency_key(request)
        if key is None:
            return json_response(shape(await self.amem.run_for(uid, write)), status)
        return await run_once(self.amem, uid, key, request_id, write, status, shape)

    def _user(self, request: Request) -> str:
        with span("auth"):
            uid = require_user_id(request.path_params["user"])
            if self.keys is not None:
                self.keys.check(key_from_headers(request.headers), uid)
            check_pinned(self.pinned, uid)
            return uid

    async def recall_body(self, request: Request) -> tuple[s.RecallBody, RecallRequest]:
        """The checked body of a recall-shaped POST (/recall, /explain) and the request built
        from it once (:meth:`recall.Memory.build_request`) for a user who must hold memory
        (:func:`require_held`); its top_k within the memory's bound (a request without one
        gets the default)."""
        uid = self._user(request)
        body = await read_body(request, s.RecallBody)
        given = "top_k" in body.model_fields_set
        top_k = bound_top_k(body.top_k, self.amem.memory.settings, given=given)
        check_window(body.since, body.until)
        await require_held(self.amem, uid)
        window = {"since": body.since, "until": body.until}
        built = self.amem.build_request(
            body.query, uid, top_k=top_k, depth=body.depth, kinds=body.kinds, **window
        )
        return body, await built

    # --- handlers -----------------------------------------------------------------------
    async def recall(self, request: Request) -> Response:
        """POST /recall: deep_recall."""
        body, built = await self.recall_body(request)
        return json_response(s.RecallResponse.of(body.query, await self.amem.deep_recall(built)))

    async def memories(self, request: Request) -> Response:
        """GET /memories: the user's records."""
        uid = self._user(request)
        kinds = request.query_params.getlist("kind")
        checked = record_kinds(kinds) if kinds else None
        await require_held(self.amem, uid)
        return json_response(s.RecordsResponse(records=await self.amem.records(uid, checked)))

    async def remember(self, request: Request) -> Response:
        """POST /memories: update_memory."""
        uid = self._user(request)
        body = await read_body(request, s.RememberBody)
        memory = self.amem.memory

        def write() -> UpdateResult:
            return memory.update_memory(body.states(), user_id=uid, background=body.background)

        return await self._write(request, uid, f"memories {body.model_dump_json()}", write)

    async def notes(self, request: Request) -> Response:
        """POST /notes: add_many."""
        uid = self._user(request)
        body = await read_body(request, s.NotesBody)
        items = [n.model_dump(exclude_none=True) for n in body.notes]
        key, rid = idempotency_key(request), f"notes {body.model_dump_json()}"
        if key is not None:
            for item, derived in zip(items, note_ids(key, rid, len(items)), strict=True):
                item.setdefault("id", derived)
        memory = self.amem.memory

        def write() -> list[str]:
            return memory.add_many(items, user_id=uid)

        return await self._write(request, uid, rid, write, shape=lambda i: s.IdsResponse(ids=i))

    async def forget(self, request: Request) -> Response:
        """DELETE /memories/{record_id}: delete one record (404 when absent)."""
        uid = self._user(request)
        record_id = request.path_params["record_id"]
        await require_held(self.amem, uid)
        if not await self.amem.delete([record_id], user_id=uid):
            raise NotFoundError(f"user {uid!r} has no record {record_id!r}")
        return json_response(s.DeletedResponse(deleted=1))

    async def relevant(self, request: Request) -> Response:
        """POST /relevant: get_relevant_memories."""
        uid = self._user(request)
        body = await read_body(request, s.RelevantBody)
        await require_held(self.amem, uid)
        text = await self.amem.get_relevant_memories(
            body.input, user_id=uid, max_tokens=body.max_tokens
        )
        return json_response(s.RelevantResponse(text=text))

    async def long_term(self, request: Request) -> Response:
        """GET /long-term: the article, newest or ?version=N (404 past the newest)."""
        uid = self._user(request)
        raw = request.query_params.get("version")
        version = None
        if raw is not None:
            # isdigit() alone takes '²' and other digits int() refuses.
            if not (raw.isascii() and raw.isdigit() and len(raw) <= _MAX_VERSION_DIGITS):
                raise InputError(
                    f"version must be a non-negative integer such as ?version=3, got {raw!r}"
                )
            version = int(raw)
        await require_held(self.amem, uid)
        if version is not None:
            newest = await self.amem.article_version(uid)
            if version > newest:
                raise NotFoundError(
                    f"user {uid!r} has no long-term version {version}; newest is {newest}"
                )
        return json_response(await self.amem.long_term(uid, version))

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
        raw = await request.body()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(
                f"the import body is not UTF-8 (byte {exc.start}: {exc.reason}); send the "
                "export file exactly as GET .../export wrote it"
            ) from None
        memory = self.amem.memory

        def write() -> ImportResult:
            return memory.import_user(text, user_id=uid)

        digest = hashlib.sha256(raw).hexdigest()
        return await self._write(request, uid, f"import {digest}", write)

    async def delete_user(self, request: Request) -> Response:
        """DELETE /v1/users/{user}: delete_user (404 when nothing was there)."""
        uid = self._user(request)
        await require_held(self.amem, uid)
        return json_response(await self.amem.delete_user(uid))

    async def stats(self, request: Request) -> Response:
        """GET /v1/stats: Memory.stats (an operator key); a pinned server's user's alone."""
        if self.keys is not None:
            self.keys.require_operator(key_from_headers(request.headers))
        return JSONResponse(await self.amem.run(served_stats, self.amem.memory, self.pinned))

    async def health(self, _request: Request) -> Response:
        """GET /healthz: liveness, no key needed."""
        return json_response(s.Health(status="ok", version=__version__))
