"""The REST API: one route per :class:`Endpoint`, the OpenAPI document from the same table.

Every handler checks the user against the request's API key (its tenant), validates the
body with a pydantic model, runs the call off the event loop (:class:`AsyncMemory`) and
answers JSON. Every failure is ``{"error": message, "status": code}`` with the status of
:func:`~recall.server.errors.status_for`, an unknown route or method included
(:func:`http_error`). Bad input of any shape is a 4xx, never a 500: bodies nested too deep,
integers past Python's digit limit, NaN and Infinity, bodies that are not UTF-8 or not a
JSON object, non-ASCII digits in ``?version=``. User ids travel in the path, so one holding
``/`` is reachable over MCP only.

A POST write (notes, memories, import) sent with an ``Idempotency-Key`` header runs once
per user and key: its answer is remembered in the store (:mod:`recall.store.idempotency`)
and a retry with the same key gets that answer, writing nothing, even when the first
request answered 504 because the write outlived the request timeout.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sys
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .. import __version__
from ..errors import InputError, RecallError
from ..inputs import record_kinds
from ..lifecycle.article import LongTerm
from ..lifecycle.pipeline import UpdateResult
from ..memory.users import ImportResult, UserDeletion
from ..models import require_user_id, validation_message
from ..store import idempotency
from ..store.users import UnknownUserError
from . import schemas as s
from .aio import AsyncMemory
from .auth import ApiKeys, key_from_headers
from .errors import InProgressError, KeyReusedError, NotFoundError, status_for

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

log = logging.getLogger(__name__)
_M = TypeVar("_M", bound=BaseModel)
_U = "/v1/users/{user}"
#: The request header that makes a POST write safe to retry (see the module docs).
IDEMPOTENCY_HEADER = "Idempotency-Key"
_MAX_KEY = 255
# ?version=N: more digits than any article will ever have versions, fewer than int() chokes on.
_MAX_VERSION_DIGITS = 18
_TIMED_OUT = "the request timed out; try again, or narrow it"
_WRITE_TIMED_OUT = (
    "the request timed out, but the write may still complete: retry it with the same "
    f"{IDEMPOTENCY_HEADER} header to get its answer without writing twice (send a new key "
    "with every write)"
)


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


def _error(message: str, status: int, headers: Mapping[str, str] | None = None) -> JSONResponse:
    # A message may quote the input, and input may hold lone surrogates, which UTF-8 cannot
    # encode: escape them rather than fail while answering.
    message = message.encode("utf-8", "backslashreplace").decode("utf-8")
    body = s.ErrorBody(error=message, status=status).model_dump()
    return JSONResponse(body, status_code=status, headers=headers)


def error_response(exc: BaseException, *, write: bool = False) -> JSONResponse:
    """The JSON error answer for ``exc``; ``write``: the request was a write (a 504 then
    says that the write may still complete, and how to retry safely)."""
    status = status_for(exc)
    if isinstance(exc, RecallError):
        message = str(exc)
    else:
        message = _WRITE_TIMED_OUT if write else _TIMED_OUT
    if status == 500:
        log.exception("recall server: unexpected error", exc_info=exc)
        message = f"internal error: {type(exc).__name__}"
    headers = {"www-authenticate": "Bearer"} if status == 401 else None
    return _error(message, status, headers)


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own errors as JSON: an unknown path (404), a method the route does not
    take (405, with its ``Allow`` header). Pass it to ``Starlette(exception_handlers=...)``
    for :class:`starlette.exceptions.HTTPException`."""
    if not isinstance(exc, HTTPException):  # pragma: no cover - registered for that class
        return error_response(exc)
    if exc.status_code == 404:
        message = (
            f"no such route: {request.method} {request.url.path}; the routes are listed "
            "at /openapi.json"
        )
    elif exc.status_code == 405:
        allowed = (exc.headers or {}).get("Allow", "")
        message = f"{request.method} is not allowed on {request.url.path}; use {allowed}"
    else:
        message = str(exc.detail)
    return _error(message, exc.status_code, exc.headers)


#: ``Starlette(exception_handlers=...)``: the router's 404 and 405 answered as JSON.
EXCEPTION_HANDLERS: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
    HTTPException: http_error
}


def _json(model: BaseModel, status: int = 200) -> Response:
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")


def _not_a_number(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number; send finite numbers only")


def _integer(text: str) -> int:
    # json.loads would raise Python's own message, which tells the client to call
    # sys.set_int_max_str_digits(); say what the limit is instead.
    limit = sys.get_int_max_str_digits()
    if limit and len(text.lstrip("-")) > limit:
        raise ValueError(f"an integer of {len(text)} digits is over the {limit}-digit limit")
    return int(text)


def parse_json(raw: bytes | str, what: str = "the request body") -> Any:
    """``raw`` as strict JSON, or :class:`InputError` saying what is wrong with it.

    Strict: NaN and Infinity are refused, and so are integers over Python's digit limit and
    nesting past the parser's recursion limit (both otherwise escape as a ``ValueError`` or
    a ``RecursionError``), and bytes that are not UTF-8.
    """
    try:
        return json.loads(raw, parse_constant=_not_a_number, parse_int=_integer)
    except RecursionError:
        raise InputError(f"{what} is nested too deep to parse; flatten it") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{what} is not UTF-8 text ({exc.reason}); send UTF-8 JSON") from None
    except ValueError as exc:  # JSONDecodeError, and the hooks above
        raise InputError(f"{what} is not JSON: {exc}") from None


async def _body(request: Request, model: type[_M]) -> _M:
    raw = await request.body()
    data = parse_json(raw) if raw.strip() else None
    if not isinstance(data, dict):
        raise InputError(
            f"the request body must be a JSON object, got {type(data).__name__}; see "
            "/openapi.json for each route's fields"
        )
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise InputError(validation_message(exc, "request body")) from exc


def _idempotency_key(request: Request) -> str | None:
    key = request.headers.get(IDEMPOTENCY_HEADER)
    if key is None:
        return None
    if not (0 < len(key) <= _MAX_KEY and key.isascii() and key.isprintable()):
        raise InputError(
            f"{IDEMPOTENCY_HEADER} must be 1 to {_MAX_KEY} printable ASCII characters, such "
            "as a UUID; send a new one with every write"
        )
    return key


def _note_ids(key: str, count: int) -> list[str]:
    # A note sent with a key and no id gets an id derived from the key: were the write to
    # land while its answer was lost (a crash between the two), the retry would replace
    # the same records instead of adding copies.
    return [hashlib.sha256(f"{key}\0{i}".encode()).hexdigest()[:32] for i in range(count)]


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
                return error_response(exc, write=request.method == "POST")

        return endpoint

    async def _write(
        self,
        request: Request,
        uid: str,
        request_id: str,
        write: Callable[[], BaseModel],
        status: int = 201,
    ) -> Response:
        """Run ``write`` (on a worker thread) once per ``Idempotency-Key``, if one was sent.

        ``request_id`` identifies the request (its route and canonical body): a key sent
        again with another request is refused (422), with the same one while the first
        still runs answered 409, after it the first answer comes back.
        """
        key = _idempotency_key(request)
        if key is None:
            return _json(await self.amem.run_for(uid, write), status)
        store = self.amem.memory.store
        fingerprint = hashlib.sha256(request_id.encode("utf-8", "surrogatepass")).hexdigest()
        claim = await self.amem.run_for(uid, idempotency.begin, store, uid, key, fingerprint)
        if claim.state == "done":
            return Response(
                claim.body,
                status_code=claim.status,
                media_type="application/json",
                headers={"idempotent-replayed": "true"},
            )
        if claim.state == "running":
            raise InProgressError(
                f"a write with {IDEMPOTENCY_HEADER} {key!r} is still running; retry in a few "
                "seconds with the same key to get its answer"
            )
        if claim.state == "mismatch":
            raise KeyReusedError(
                f"{IDEMPOTENCY_HEADER} {key!r} was already used for a different request of "
                f"user {uid!r}; send a new key with every new write"
            )

        def run_once() -> str:
            # The answer is remembered on this thread, right after the write: a client that
            # timed out (504) and retries with the key gets it, though it never saw it.
            try:
                body = write().model_dump_json()
            except BaseException:
                try:
                    idempotency.release(store, uid, key)
                except RecallError:  # the reservation goes stale and is taken over later
                    log.warning("recall server: could not release %s %r", IDEMPOTENCY_HEADER, key)
                raise
            idempotency.finish(store, uid, key, status, body)
            return body

        body = await self.amem.run_for(uid, run_once)
        return Response(body, status_code=status, media_type="application/json")

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
        kinds = request.query_params.getlist("kind")
        checked = record_kinds(kinds) if kinds else None
        return _json(s.RecordsResponse(records=await self.amem.records(uid, checked)))

    async def remember(self, request: Request) -> Response:
        """POST /memories: update_memory."""
        uid = self._user(request)
        body = await _body(request, s.RememberBody)
        memory = self.amem.memory

        def write() -> UpdateResult:
            return memory.update_memory(body.states(), user_id=uid, background=body.background)

        return await self._write(request, uid, f"memories {body.model_dump_json()}", write)

    async def notes(self, request: Request) -> Response:
        """POST /notes: add_many."""
        uid = self._user(request)
        body = await _body(request, s.NotesBody)
        items = [n.model_dump(exclude_none=True) for n in body.notes]
        key = _idempotency_key(request)
        if key is not None:
            for item, derived in zip(items, _note_ids(key, len(items)), strict=True):
                item.setdefault("id", derived)
        memory = self.amem.memory

        def write() -> s.IdsResponse:
            return s.IdsResponse(ids=memory.add_many(items, user_id=uid))

        return await self._write(request, uid, f"notes {body.model_dump_json()}", write)

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
            # isdigit() alone takes '²' and other digits int() refuses.
            if not (raw.isascii() and raw.isdigit() and len(raw) <= _MAX_VERSION_DIGITS):
                raise InputError(
                    f"version must be a non-negative integer such as ?version=3, got {raw!r}"
                )
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
