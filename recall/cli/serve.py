"""``recall serve``: the memory server (MCP over stdio or HTTP, and the REST API)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from .app import main, need_server_extra, path_option, url_option

__all__ = ["serve"]

_F = TypeVar("_F", bound=Callable[..., Any])


def _choice(name: str, choices: list[str], text: str) -> Callable[[_F], _F]:
    """An option naming one of ``choices`` (help ``text``); left out, the server setting's
    own value (its environment variable, else its default) applies."""
    return click.option(name, type=click.Choice(choices), default=None, help=text)


@main.command()
@click.option(
    "--transport",
    type=click.Choice(["stdio", "http"]),
    default="stdio",
    show_default=True,
    help="stdio: MCP for a host that starts this process; http: MCP at /mcp and REST at /v1.",
)
@click.option(
    "--user",
    "user_id",
    default=None,
    help="Serve this user only, on every surface: MCP tools act on it; MCP, REST (/v1) and "
    "the inspector (/ui) answer 403 for any other user, whatever the API key allows; the "
    "inspector's user list, /v1/stats and MCP's stats and check resources count this user "
    "alone.",
)
@click.option(
    "--host", default=None, help="HTTP address (default $RECALL_SERVER_HOST, else 127.0.0.1)."
)
@click.option(
    "--port", default=None, type=int, help="HTTP port (default $RECALL_SERVER_PORT, else 8765)."
)
@click.option(
    "--keys",
    "keys_file",
    default=None,
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="API key file, 'KEY TENANT' a line (also $RECALL_SERVER_API_KEYS_FILE).",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="HTTP worker processes on one port; more than 1 needs --chroma-url (a Chroma server).",
)
@_choice(
    "--log-level",
    ["warning", "info", "debug"],
    "warning (default $RECALL_SERVER_LOG_LEVEL, else warning); info: an access log "
    "line per HTTP request; debug: everything.",
)
@_choice(
    "--tools",
    ["agent", "all"],
    "MCP tools advertised: agent (default $RECALL_SERVER_TOOLS, else agent): "
    "deep_recall, remember, forget; all: also the profile, corrections and browsing tools.",
)
@_choice(
    "--lang",
    ["en", "zh"],
    "Language of the MCP tools' descriptions (default $RECALL_SERVER_LANG, else en).",
)
@path_option
@url_option
def serve(
    transport: str,
    user_id: str | None,
    host: str | None,
    port: int | None,
    keys_file: Path | None,
    workers: int,
    log_level: str | None,
    tools: str | None,
    lang: str | None,
    path: Path,
    chroma_url: str | None,
) -> None:
    """Serve the memory folder to agents. Over stdio the handshake is answered at once and
    the models load beside it (a call that comes first waits for them); over HTTP they load
    before the port opens.

    Without API keys the HTTP server answers loopback clients only, and refuses to bind
    another address. ``--workers N`` serves HTTP from N processes sharing the store and a
    Chroma server. MCP advertises three tools (``--tools all``: every one), described in
    English (``--lang zh``: Chinese).
    """
    need_server_extra("serve")
    from ..models import require_user_id
    from ..server.settings import ServerSettings
    from ..settings import Settings

    updates: dict[str, Any] = {"path": path}
    if chroma_url:
        updates["chroma_url"] = chroma_url
    flags = {
        "host": host,
        "port": port,
        "api_keys_file": keys_file,
        "log_level": log_level,
        "tools": tools,
        "lang": lang,
    }
    server = ServerSettings.load(**{name: value for name, value in flags.items() if value})
    default_user = None if user_id is None else require_user_id(user_id)
    if workers > 1:
        if transport != "http":
            raise click.UsageError("--workers is for --transport http")
        from ..server.workers import serve_workers

        serve_workers(updates, default_user, workers, server)  # each worker opens the memory itself
        return
    settings = Settings(**updates)
    early = None
    if transport == "stdio":
        # The host's handshake first: answered before the SDK, the folder and the models
        # load (a host gives up on a server slow to say hello).
        from ..server.handshake import answer_first

        try:
            fds = {"fd_in": sys.stdin.fileno(), "fd_out": sys.stdout.fileno()}
        except (OSError, ValueError):  # not the process's own streams (a test's runner)
            fds = None
        if fds is not None:
            early = answer_first(server.tools, server.lang, **fds)
    from ..memory import open as open_folder
    from ..server import serve_http, serve_stdio
    from ..server.app import listen_socket
    from ..server.threads import yield_threads

    # The port first: one in use is said before a folder is created or a model loaded.
    sock = listen_socket(server) if transport == "http" else None
    if transport == "http" and settings.storage.chroma_process == "auto":
        # A server's requests run side by side: the embedded store's writes go to a child
        # process, where they do not hold this one's interpreter lock (see chroma_host).
        settings = settings.replace(chroma_process="on")
    with open_folder(settings=settings) as mem:
        hosted = settings.storage.chroma_process == "on" and not settings.storage.chroma_url
        if transport == "http" and hosted:
            yield_threads(server.yield_to_store)  # the child is the one writer
        if transport == "stdio":
            serve_stdio(mem, default_user=default_user, early=early, settings=server)
        else:
            serve_http(mem, default_user=default_user, sock=sock, settings=server)
