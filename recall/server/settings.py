"""``recall serve``'s settings: where it listens, who may call it, how much one request may ask.

The server's own, apart from the library's :class:`recall.Settings`: a library user never
sees them. :meth:`ServerSettings.load` reads them as ``recall.Settings`` reads its own:
what the code passes (``recall serve``'s flags), over ``RECALL_SERVER_<NAME>``, over the
settings file (``RECALL_SETTINGS_FILE``: a ``[server]`` table, ``server_port`` or
``RECALL_SERVER_PORT``), over the defaults. ``ServerSettings(port=9000)`` reads the
environment but not the file. A bad value raises :class:`~recall.errors.ConfigError` naming
the variable. This module needs none of the server extra's packages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar, Literal, Self

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from ..settings.base import _ENV, _Group
from ..settings.wings import load_wing

__all__ = ["ServerSettings"]


class ServerSettings(_Group):
    """The memory server (MCP over stdio or streamable HTTP, and the REST API)."""

    model_config = SettingsConfigDict(env_prefix=_ENV + "SERVER_", frozen=True, extra="forbid")
    group: ClassVar[str] = "server"

    @classmethod
    def load(cls, **values: Any) -> Self:
        """The server's settings: ``values`` (field names, ``port=9000``), over
        ``RECALL_SERVER_*``, over the settings file, over the defaults."""
        return load_wing(cls, values)

    host: str = Field(
        "127.0.0.1",
        min_length=1,
        description="Address the HTTP server binds; without API keys only a loopback one.",
    )
    port: int = Field(8765, ge=1, le=65535, description="Port of the HTTP server.")
    api_keys: str | None = Field(
        None,
        description="API keys as KEY=TENANT pairs, comma-separated: a key may touch the "
        "user ids that start with 'TENANT:' ('*': every user).",
    )
    api_keys_file: Path | None = Field(
        None, description="File of API keys, one 'KEY TENANT' pair a line ('#' comments)."
    )
    max_body_bytes: int = Field(
        8 * 1024 * 1024, ge=1024, description="Largest request body accepted (HTTP 413 above)."
    )
    request_timeout_s: float = Field(
        60.0, gt=0, description="A request still running after this answers HTTP 504."
    )
    allowed_hosts: str | None = Field(
        None,
        description="Host header values answered besides localhost, 127.0.0.1, [::1], the "
        "bound address and the server's own IP, comma-separated ('*': any). A guard against "
        "DNS rebinding: any other Host answers HTTP 421.",
    )
    allowed_origins: str | None = Field(
        None,
        description="Browser origins answered besides loopback pages and the server's own, "
        "comma-separated, e.g. 'https://app.example,http://tools.lan:*' ('*': any); any other "
        "Origin answers HTTP 403.",
    )
    header_timeout_s: float = Field(
        10.0,
        gt=0,
        description="A connection that has not sent a request's full headers within this "
        "is closed (HTTP 408).",
    )
    max_header_bytes: int = Field(
        64 * 1024,
        ge=1024,
        description="Largest request line and headers accepted; past it the connection is "
        "answered HTTP 400 and closed.",
    )
    body_timeout_s: float = Field(
        30.0, gt=0, description="A request body not fully received within this answers HTTP 408."
    )
    keep_alive_s: float = Field(
        5.0, gt=0, description="An idle keep-alive connection is closed after this."
    )
    max_connections: int = Field(
        256,
        ge=1,
        description="Open connections at most; past it a new one is answered HTTP 503 and "
        "closed at once.",
    )
    max_client_connections: int = Field(
        64,
        ge=1,
        description="Open connections from one client address at most (an IPv6 address "
        "counts by its /64), checked before max_connections, so one address cannot hold "
        "them all; past it a new one is answered HTTP 503 and closed at once.",
    )
    max_client_requests: int = Field(
        32,
        ge=1,
        description="Requests in flight from one client address at most; past it a request "
        "is answered HTTP 503 with Retry-After.",
    )
    max_pipelined: int = Field(
        8,
        ge=1,
        description="Requests one connection may have parsed and waiting behind the one "
        "being answered (HTTP pipelining); past it the server stops reading that "
        "connection until an answer is done.",
    )
    max_unsent_bytes: int = Field(
        64 * 1024,
        ge=1024,
        description="Answer bytes one connection may have waiting for its client to read; "
        "past it the next request on that connection waits, and nothing more is read "
        "from it. See docs/server.md for the memory this bounds.",
    )
    write_timeout_s: float = Field(
        30.0,
        gt=0,
        description="A connection whose unsent answer bytes do not shrink for this long "
        "(its client reads nothing) is dropped.",
    )
    max_public_body_bytes: int = Field(
        16 * 1024,
        ge=1024,
        description="Largest body read for a path that needs no key (/healthz, the "
        "inspector's login); a request that will be refused (401, 403, 404, 405, 415) has "
        "no body read at all, and its connection is closed after the answer.",
    )
    keyless_rate: float = Field(
        50.0,
        ge=0,
        description="Requests per second one client address may send without a valid key "
        "(public paths such as /healthz and /openapi.json, and every refusal: 401, 403, "
        "404...) before the next waits its turn, its connection read no further meanwhile "
        "(0: no per-address rate). Keyed requests, and the inspector's pages with its login "
        "cookie, are never counted.",
    )
    keyless_burst: int = Field(
        100,
        ge=1,
        description="Requests without a key one address may send at once after a quiet "
        "spell, before keyless_rate applies (every address together: twice this).",
    )
    keyless_total_rate: float = Field(
        200.0,
        ge=0,
        description="Requests per second without a valid key from every address together, "
        "so that many addresses cannot take the server from keyed clients (0: no total "
        "rate). A request whose turn is over 5 s away is answered HTTP 429 and its "
        "connection closed.",
    )
    tools: Literal["agent", "all"] = Field(
        "agent",
        description="The MCP tools `recall serve` advertises: 'agent' deep_recall, remember "
        "and forget (what an agent needs each turn, the fewest tokens in its prompt); 'all' "
        "also get_relevant_memories, long_term, the corrections (forget_fact, edit_fact, "
        "rollback) and the read-only views (browse_records, article_versions, article_diff, "
        "explain_recall, profile).",
    )
    lang: Literal["en", "zh"] = Field(
        "en",
        description="The language of the MCP tools' descriptions, their arguments', the "
        "server's instructions and the use_memory prompt: 'en' English, 'zh' Chinese (one "
        "language, not both: each costs tokens in the model's prompt).",
    )
    log_level: Literal["warning", "info", "debug"] = Field(
        "warning",
        description="What `recall serve` logs to stderr: warnings and errors; 'info' adds "
        "an access log line per HTTP request (client, method, path, status; never a header, "
        "so never a key); 'debug' the server's and libraries' details.",
    )
    timing: bool = Field(
        False,
        description="Answer every HTTP request with a Server-Timing header: where its time "
        "went (parse, auth, queue, embed, keyword, vector, retrieve, serialize, total). Off: "
        "timings tell a client how busy the server is.",
    )
    threads: int = Field(
        8,
        ge=0,
        le=1024,
        description="Memory calls running at once on worker threads, every tenant together; "
        "the rest wait their turn (0: anyio's 40). A call spends much of its time where "
        "Python's interpreter lock is free (a model, the vector store's process): on 2 cores "
        "8 served the most, 16 made the slowest calls 30 times the median. The pool never "
        "grows past this: a call that timed out keeps its thread and its tenant's slot "
        "until its work ends.",
    )
    yield_to_store: int = Field(
        10,
        ge=0,
        le=19,
        description="Nice steps `recall serve --transport http` lowers its own threads by "
        "when the vector store runs in a child process (storage.chroma_process): every write "
        "waits for that one writer, so it should get a core first (Linux; 0: same priority). "
        "The server then also yields to other programs at normal priority. A child started "
        "again after a crash runs at the server's priority.",
    )
    tenant_concurrency: int = Field(
        2,
        ge=0,
        description="Memory calls one tenant (a user-id prefix 'T:', else one user) runs at "
        "once; more queue behind their own tenant (0: no per-tenant limit).",
    )
    inspector_login_s: float = Field(
        8 * 3600.0,
        gt=0,
        le=7 * 24 * 3600,
        description="How long an inspector login (/ui/login's token, kept in a cookie) lasts, "
        "in seconds; /ui/logout revokes it at once. Read when a token is checked: a shorter "
        "value shortens the logins already made.",
    )
