"""The OpenAPI 3.1 document of the REST API, generated from :data:`~.rest.ENDPOINTS`.

The routes and the document come from one table, and every schema from the pydantic model
the handler validates with, so the document cannot drift from what the server accepts.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

from .. import __version__
from .corrections import CORRECTION_ENDPOINTS
from .rest import ENDPOINTS, IDEMPOTENCY_HEADER, Endpoint
from .rest_browse import BROWSE_QUERY
from .schemas import ErrorBody

__all__ = ["openapi_document"]

_QUERY: dict[str, list[dict[str, Any]]] = {
    "memories": [
        {
            "name": "kind",
            "in": "query",
            "required": False,
            "description": "Only these kinds (repeatable).",
            "schema": {"type": "array", "items": {"type": "string"}},
            "style": "form",
            "explode": True,
        }
    ],
    "long_term": [
        {
            "name": "version",
            "in": "query",
            "required": False,
            "description": "A past version (default: the newest).",
            "schema": {"type": "integer", "minimum": 0},
        }
    ],
    **BROWSE_QUERY,
}

# The POST writes that take an Idempotency-Key (rest.RestApi._write).
_IDEMPOTENT = {"remember", "notes", "import_", *(e.name for e in CORRECTION_ENDPOINTS)}
_KEY_PARAM: dict[str, Any] = {
    "name": IDEMPOTENCY_HEADER,
    "in": "header",
    "required": False,
    "description": (
        "A new unique value (a UUID) per write. The first request with a key runs and its "
        "answer is remembered for 24 h; a retry with the same key (after a 504, a lost "
        "connection) gets that answer and writes nothing; 409 while the first still runs, "
        "422 when the key comes with a different request."
    ),
    "schema": {"type": "string", "minLength": 1, "maxLength": 255},
}

_DESCRIPTION = (
    "recall's memory server. Every /v1 route needs `Authorization: Bearer KEY` when the "
    "server has API keys; a key's tenant T owns the user ids that start with `T:`. The MCP "
    "endpoint (streamable HTTP, JSON-RPC) is at /mcp on the same port. Every error, an "
    "unknown route or method included, is JSON `{error, status}`. POST writes take an "
    "`Idempotency-Key` header and are then safe to retry."
)


class _Schemas:
    def __init__(self) -> None:
        self.all: dict[str, Any] = {}

    def ref(self, model: type[BaseModel]) -> dict[str, str]:
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
        self.all.update(schema.pop("$defs", {}))
        self.all[model.__name__] = schema
        return {"$ref": f"#/components/schemas/{model.__name__}"}


def _operation(e: Endpoint, schemas: _Schemas) -> dict[str, Any]:
    op: dict[str, Any] = {"summary": e.summary, "operationId": e.name.rstrip("_")}
    params = [
        {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
        for name in re.findall(r"{(\w+)}", e.path)
    ]
    params += _QUERY.get(e.name, [])
    if e.name in _IDEMPOTENT:
        params.append(_KEY_PARAM)
    if params:
        op["parameters"] = params
    if e.body is not None:
        content = {"application/json": {"schema": schemas.ref(e.body)}}
        op["requestBody"] = {"required": True, "content": content}
    elif e.method == "POST":  # the import takes the export's JSONL as it is
        op["requestBody"] = {
            "required": True,
            "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
        }
    if e.response is not None:
        answer: dict[str, Any] = {"application/json": {"schema": schemas.ref(e.response)}}
    elif e.media_type == "application/json":
        answer = {"application/json": {"schema": {"type": "object"}}}
    else:
        answer = {e.media_type: {"schema": {"type": "string"}}}
    op["responses"] = {str(e.status): {"description": e.summary, "content": answer}}
    if not e.public:
        error = {"application/json": {"schema": schemas.ref(ErrorBody)}}
        op["responses"]["default"] = {
            "description": "400 bad input, 401/403 auth, 404, 409 conflict (an import onto a "
            "user holding memory; an Idempotency-Key whose write still runs), 413 too large, "
            "422 an Idempotency-Key reused with another request, 503 store or index down, "
            "504 timed out (a write may still complete: retry with the same "
            "Idempotency-Key)",
            "content": error,
        }
        op["security"] = [{"bearer": []}]
    return op


def openapi_document() -> dict[str, Any]:
    """The OpenAPI document of every REST endpoint."""
    schemas = _Schemas()
    paths: dict[str, dict[str, Any]] = {}
    for e in (*ENDPOINTS, *CORRECTION_ENDPOINTS):
        paths.setdefault(e.path, {})[e.method.lower()] = _operation(e, schemas)
    return {
        "openapi": "3.1.0",
        "info": {"title": "recall", "version": __version__, "description": _DESCRIPTION},
        "paths": paths,
        "components": {
            "schemas": schemas.all,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
