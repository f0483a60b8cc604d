"""How the inspector answers: every response with the same security headers, every error
as a page.

The headers: a Content-Security-Policy that allows the page's inline style sheet (by its
hash), same-origin scripts on the login page only, forms to this origin only, and nothing
else at all (no frames around it, no images, no connections); ``X-Frame-Options: DENY``,
``Referrer-Policy: no-referrer``, ``Cache-Control: no-store`` (a page of someone's memory
stays out of caches), ``X-Content-Type-Options: nosniff``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from ..auth import is_ui_path
from ..error_answers import error_response, http_error
from .page import STYLE_HASH
from .render import error_page

__all__ = ["LOGIN_JS", "html_error", "html_response", "script_response", "ui_http_error"]

#: The login form's script: trades the key for an inspector token (``POST /v1/ui-token``,
#: the key in the Authorization header, never in a URL: the form's field has no name),
#: keeps the token in a cookie that only this origin's /ui pages get (``Path=/ui;
#: SameSite=Strict``) for as long as the token lasts (``Max-Age``: the answer's
#: ``expires_in``), then opens the users page. The cookie never holds the key.
LOGIN_JS = """\
"use strict";
document.getElementById("login").addEventListener("submit", function (event) {
  event.preventDefault();
  var key = document.getElementById("key").value.trim();
  var said = document.getElementById("login-error");
  if (!key) { return; }
  fetch("/v1/ui-token", {
    method: "POST",
    headers: {"Authorization": "Bearer " + key, "Content-Type": "application/json"},
    body: "{}",
    credentials: "omit",
    cache: "no-store"
  }).then(function (answer) {
    if (!answer.ok) { throw new Error("that key was refused (HTTP " + answer.status + ")"); }
    return answer.json();
  }).then(function (got) {
    var secure = window.location.protocol === "https:" ? "; Secure" : "";
    var age = "; Max-Age=" + Math.max(0, Math.floor(Number(got.expires_in) || 0));
    document.cookie = "recall_ui_key=" + encodeURIComponent(got.token) +
      "; Path=/ui; SameSite=Strict" + age + secure;
    window.location.assign("/ui");
  }).catch(function (error) {
    if (said) { said.textContent = error.message; }
  });
});
"""


def _headers(*, script: bool) -> dict[str, str]:
    policy = "; ".join(
        (
            "default-src 'none'",
            f"style-src {STYLE_HASH}",
            "script-src 'self'" if script else "script-src 'none'",
            # The login script's one request: the token, from this origin.
            "connect-src 'self'" if script else "connect-src 'none'",
            "form-action 'self'",
            "base-uri 'none'",
            "frame-ancestors 'none'",
        )
    )
    return {
        "content-security-policy": policy,
        "x-frame-options": "DENY",
        "referrer-policy": "no-referrer",
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        "cross-origin-resource-policy": "same-origin",
    }


def html_response(
    page: str,
    status: int = 200,
    *,
    script: bool = False,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """``page`` as an HTML answer with the inspector's headers; ``script``: the page loads
    the login script (its policy allows same-origin scripts)."""
    # Stored text may hold lone surrogates that UTF-8 cannot encode: escaped, not a 500.
    body = page.encode("utf-8", "backslashreplace")
    return Response(
        body,
        status_code=status,
        media_type="text/html; charset=utf-8",
        headers={**_headers(script=script), **(headers or {})},
    )


def script_response() -> Response:
    """The login page's script, with the same headers as every page."""
    return Response(
        LOGIN_JS, media_type="text/javascript; charset=utf-8", headers=_headers(script=False)
    )


def html_error(exc: BaseException) -> Response:
    """The answer to ``exc`` as a page: the status and message of the REST API's JSON
    answer (:func:`~recall.server.error_answers.error_response`), never a traceback."""
    answer = error_response(exc)
    body = json.loads(bytes(answer.body))
    status = int(body["status"])
    extra = {"www-authenticate": "Bearer"} if status == 401 else None
    return html_response(
        error_page(status, body["error"], login=status == 401), status, headers=extra
    )


async def ui_http_error(request: Request, exc: Exception) -> Response:
    """The router's own 404 and 405: a page under ``/ui``, the REST API's JSON elsewhere."""
    if not is_ui_path(request.url.path) or not isinstance(exc, HTTPException):
        return await http_error(request, exc)
    answer = await http_error(request, exc)
    body = json.loads(bytes(answer.body))
    return html_response(
        error_page(exc.status_code, body["error"]), exc.status_code, headers=exc.headers
    )
