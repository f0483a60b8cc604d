"""The JSON bodies of the REST API: requests parsed strictly and validated, answers written.

:func:`parse_json` is the one strict parser: bad input of any shape is an
:class:`~recall.errors.InputError` (so a 4xx), never a 500: bodies nested too deep, integers
past Python's digit limit, NaN and Infinity, bytes that are not UTF-8. :func:`read_body`
adds the rest of the request-body contract (a JSON object, valid for the route's pydantic
model); :func:`json_response` answers a model as JSON.
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Message, Receive

from ..errors import InputError
from ..models import validation_message
from ..spans import span

__all__ = ["json_response", "parse_json", "read_body", "replayed"]

_M = TypeVar("_M", bound=BaseModel)


def json_response(model: BaseModel, status: int = 200) -> Response:
    """``model`` as a JSON answer with ``status``."""
    with span("serialize"):
        body = model.model_dump_json()
    return Response(body, status_code=status, media_type="application/json")


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
        # UTF-8 only (RFC 8259): json.loads would guess UTF-16 or UTF-32 from a byte string.
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        return json.loads(text, parse_constant=_not_a_number, parse_int=_integer)
    except RecursionError:
        raise InputError(f"{what} is nested too deep to parse; flatten it") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{what} is not UTF-8 text ({exc.reason}); send UTF-8 JSON") from None
    except ValueError as exc:  # JSONDecodeError, and the hooks above
        raise InputError(f"{what} is not JSON: {exc}") from None


async def read_body(request: Request, model: type[_M]) -> _M:
    """The request's body: a JSON object valid for ``model``, or :class:`InputError`."""
    raw = await request.body()
    with span("parse"):
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


def replayed(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the route the whole ``body`` (read and checked by a gate in
    front of it), then waits on the client as the original does (a disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
