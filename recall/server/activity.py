"""The server's activity log: what each user's memory went through, per user, newest kept.

One JSON line per event in ``<memory folder>/server/activity/<sha256 of the user id>.jsonl``:
when, the action (``deep_recall``, ``remember``, ``forget_fact``...), the client (``mcp``,
``rest``, ``inspector``), the tenant of the request's API key (None without keys; never the
key) and a detail made of counts and version numbers only ("5 hits", "1 record",
"version 7"). Never the memory's text, a query, a key or a snippet: forgetting something
leaves nothing of it here. Lines are appended (``O_APPEND``: the workers serving one folder
share the file); past ``2 * keep`` lines the file is rewritten to its newest ``keep``
(a temporary file, then ``os.replace``). Deleting a user through the server deletes its log.

Captured after a successful call only: REST routes by :func:`recorded_routes` (their JSON
answer gives the counts), MCP tool calls by :func:`mcp_recorder` (a server middleware), and
the inspector's query and corrections by :class:`~.ui.routes.InspectorUi` itself.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from mcp.server.context import CallNext, HandlerResult, ServerMiddleware, ServerRequestContext
from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from .auth import ApiKeys, key_from_headers

__all__ = ["ActivityLog", "Client", "Event", "describe", "mcp_recorder", "recorded_routes"]

_LOG = logging.getLogger("recall.server")

Client = Literal["mcp", "rest", "inspector"]
#: Where the logs live under the memory folder.
FOLDER = Path("server") / "activity"
# REST endpoint name -> action (delete_user drops the log instead).
_REST = {
    "recall": "deep_recall",
    "explain": "explain",
    "remember": "remember",
    "notes": "add",
    "forget": "forget",
    "import_": "import",
    "forget_fact": "forget_fact",
    "edit_fact": "edit_fact",
    "rollback": "rollback",
}
# MCP tool name -> action: the writes, recalls and corrections (not the other reads).
_MCP = {
    "deep_recall": "deep_recall",
    "explain_recall": "explain",
    "remember": "remember",
    "forget": "forget",
    "forget_fact": "forget_fact",
    "edit_fact": "edit_fact",
    "rollback": "rollback",
}


@dataclass(frozen=True)
class Event:
    """One thing the server did with a user's memory (no text of it: see the module)."""

    at: datetime
    action: str
    client: Client
    tenant: str | None
    detail: str

    def line(self) -> bytes:
        """The event as one JSON line."""
        data: dict[str, str | None] = {"at": self.at.isoformat(), "action": self.action}
        data |= {"client": self.client, "tenant": self.tenant, "detail": self.detail}
        return (json.dumps(data, ensure_ascii=False) + "\n").encode("utf-8")

    @classmethod
    def parse(cls, raw: bytes) -> Event | None:
        """The event of a line; None for one torn or not an event."""
        try:
            d = json.loads(raw)
            at = datetime.fromisoformat(d["at"]).astimezone(UTC)
            return cls(at, str(d["action"]), d["client"], d.get("tenant"), str(d["detail"]))
        except (ValueError, KeyError, TypeError):
            return None


class ActivityLog:
    """The activity logs of one memory folder, ``keep`` events per user (see the module)."""

    def __init__(self, folder: Path, keep: int = 200) -> None:
        self.dir = Path(folder) / FOLDER
        self.keep = keep

    def _path(self, user_id: str) -> Path:
        return self.dir / f"{hashlib.sha256(user_id.encode('utf-8')).hexdigest()}.jsonl"

    def record(
        self,
        user_id: str,
        action: str,
        detail: str,
        client: Client,
        tenant: str | None = None,
    ) -> None:
        """Append an event to ``user_id``'s log (trimmed to ``keep`` past ``2 * keep``).

        Never raises: the call it records has succeeded, and a full disk or a read-only
        folder must not turn its answer into an error (the event is lost, said on stderr).
        """
        path = self._path(user_id)
        line = Event(datetime.now(UTC), action, client, tenant, detail).line()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            try:
                os.write(fd, line)  # one write: whole lines, whichever worker appends
            finally:
                os.close(fd)
            lines = self._lines(path)
            if len(lines) > 2 * self.keep:
                self._rewrite(path, lines[-self.keep :])
        except OSError as exc:
            _LOG.warning("recall serve: the activity log was not written: %s", exc.strerror)

    def recent(self, user_id: str) -> list[Event]:
        """``user_id``'s newest ``keep`` events, newest first."""
        events = [e for raw in self._lines(self._path(user_id)) if (e := Event.parse(raw))]
        return events[-self.keep :][::-1]

    def drop(self, user_id: str) -> None:
        """Delete ``user_id``'s log (the user was deleted)."""
        self._path(user_id).unlink(missing_ok=True)

    @staticmethod
    def _lines(path: Path) -> list[bytes]:
        try:
            return [raw for raw in path.read_bytes().splitlines() if raw.strip()]
        except OSError:  # none yet, or a folder that cannot hold one: nothing to show
            return []

    @staticmethod
    def _rewrite(path: Path, lines: list[bytes]) -> None:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".activity-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(b"".join(raw + b"\n" for raw in lines))
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _hits(answer: Mapping[str, Any]) -> str:
    floored = answer.get("floored")
    below = f", {len(floored)} below the floor" if floored else ""
    return _n(len(answer.get("hits") or ()), "hit") + below


def _remembered(answer: Mapping[str, Any]) -> str:
    if answer.get("duplicate"):
        return "0 records (a duplicate)"
    promoted = answer.get("promoted")
    return "1 record" + (f", long-term version {answer.get('version')}" if promoted else "")


def _forgotten(answer: Mapping[str, Any]) -> str:
    if "deleted" not in answer:  # the inspector's forget_fact answers the new article
        return f"version {answer.get('version')}"
    gone = answer["deleted"]
    detail = _n(gone if isinstance(gone, int) else len(gone), "record")
    if answer.get("rewritten"):
        detail += f" deleted, {len(answer['rewritten'])} rewritten"
    version = answer.get("version")
    return detail + (f", version {version}" if version is not None else "")


_DETAILS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "deep_recall": _hits,
    "explain": _hits,
    "query": _hits,
    "remember": _remembered,
    "add": lambda a: _n(len(a.get("ids") or ()), "record"),
    "import": lambda a: (
        f"{_n(int(a.get('records', 0)), 'record')}, {a.get('articles', 0)} article versions"
    ),
    "forget": _forgotten,
    "forget_fact": _forgotten,
}


def describe(action: str, answer: Mapping[str, Any]) -> str:
    """The detail of ``action`` from its JSON ``answer``: counts and versions, no text."""
    if action in _DETAILS:
        return _DETAILS[action](answer)
    return f"version {answer.get('version')}" if "version" in answer else ""


def _tenant(keys: ApiKeys | None, headers: Mapping[str, str] | None) -> str | None:
    if keys is None or headers is None:
        return None
    try:
        return keys.tenant(key_from_headers(headers))
    except Exception:  # the call passed its checks: this cannot fail, and must not
        return None


def _json(body: bytes) -> Mapping[str, Any]:
    try:
        data = json.loads(body)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def recorded_routes(
    log: ActivityLog, keys: ApiKeys | None, routes: list[BaseRoute]
) -> list[BaseRoute]:
    """``routes`` (REST's), each of the writes, recalls and corrections recording its
    success in ``log``."""
    from .corrections import CORRECTION_ENDPOINTS  # here: MCP over stdio needs neither
    from .rest import ENDPOINTS

    names = {f"{e.method} {e.path}": e.name for e in (*ENDPOINTS, *CORRECTION_ENDPOINTS)}
    out: list[BaseRoute] = []
    for route in routes:
        if not isinstance(route, Route):
            out.append(route)
            continue
        name = next((names.get(f"{m} {route.path}") for m in route.methods or ()), None)
        if name is None or (name not in _REST and name != "delete_user"):
            out.append(route)
            continue
        fn = _recording(log, keys, name, route.endpoint)
        out.append(Route(route.path, fn, methods=sorted(route.methods or ())))
    return out


def _recording(
    log: ActivityLog, keys: ApiKeys | None, name: str, fn: Callable[[Request], Awaitable[Response]]
) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        response = await fn(request)
        replayed = response.headers.get("idempotent-replayed") == "true"
        if not 200 <= response.status_code < 300 or replayed:
            return response
        uid = request.path_params["user"]
        if name == "delete_user":
            log.drop(uid)
        else:
            action = _REST[name]
            detail = describe(action, _json(bytes(response.body)))
            log.record(uid, action, detail, "rest", _tenant(keys, request.headers))
        return response

    return endpoint


def mcp_recorder(
    log: ActivityLog, keys: ApiKeys | None, default_user: str | None
) -> ServerMiddleware[Any]:
    """The MCP server middleware that records each successful tool call of :data:`_MCP`."""

    async def record(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        result = await call_next(ctx)
        params = ctx.params or {}
        action = _MCP.get(params.get("name", "")) if ctx.method == "tools/call" else None
        data = result  # the SDK answers the wire's dict; a model is read as one too
        if isinstance(data, BaseModel):
            data = data.model_dump(mode="json", by_alias=True, exclude_none=True)
        if action is None or not isinstance(data, dict) or data.get("isError", True):
            return result
        uid = (params.get("arguments") or {}).get("user_id") or default_user
        if isinstance(uid, str):
            answer = data.get("structuredContent") or {}
            tenant = _tenant(keys, getattr(ctx.request, "headers", None))
            log.record(uid, action, describe(action, answer), "mcp", tenant)
        return result

    return record
