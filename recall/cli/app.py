"""The ``recall`` group, its shared options, and the one place library errors meet the user.

Every command takes ``--path`` (default ``RECALL_PATH``, else ``./memory``) and most take
``--chroma-url``. A :class:`~recall.errors.RecallError` raised anywhere under the group
becomes one line on stderr (``error: ...``) and exit code 1, never a traceback.

A command that prints takes ``--json`` (:data:`json_option`): one JSON document on stdout
(:func:`echo_json`) and nothing else there; progress, prompts and errors go to stderr.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import click

from .. import __version__
from ..errors import RecallError, UnknownUserError

if TYPE_CHECKING:
    from ..index.spec import IndexSpec
    from ..memory import Memory
    from ..settings import Settings

__all__ = [
    "RecallGroup",
    "SERVER_PACKAGES",
    "echo_json",
    "held",
    "json_option",
    "main",
    "need_server_extra",
    "open_memory",
    "path_option",
    "read_query",
    "require_folder",
    "settings_and_spec",
    "url_option",
    "user_memory",
    "user_option",
    "warn_unknown_variables",
]


class RecallGroup(click.Group):
    """A click group that turns ``RecallError`` into a one-line message and exit code 1.

    Text that is not UTF-8 (standard input, a file, or arguments the shell passed as raw
    bytes) is an input error too: one line, never a traceback.
    """

    #: Commands imported only when named (``recall bench`` pulls in the whole harness:
    #: datasets, the baseline, the runner), so ``recall search`` does not pay for them.
    LAZY: ClassVar[dict[str, str]] = {"bench": "recall.bench.cli"}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.LAZY})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.LAZY and cmd_name not in self.commands:
            command = getattr(importlib.import_module(self.LAZY[cmd_name]), cmd_name)
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        warn_unknown_variables()
        try:
            return super().invoke(ctx)
        except RecallError as exc:
            # One line, whatever the message quotes back (an id or a query holding "\n").
            line = str(exc).replace("\r", "\\r").replace("\n", "\\n")
            click.echo(f"error: {line}", err=True)
            ctx.exit(1)
        except UnicodeError as exc:
            where = getattr(exc, "start", "?")
            click.echo(
                f"error: the input is not valid UTF-8 text (at position {where}); convert "
                "it to UTF-8 first",
                err=True,
            )
            ctx.exit(1)


def warn_unknown_variables() -> None:
    """A line on stderr for each ``RECALL_*`` variable no setting reads (a misspelled one
    would otherwise be ignored without a word), naming the closest setting."""
    if not any(k.startswith("RECALL_") for k in os.environ):
        return  # the settings module is not imported for nothing
    from ..server.settings import ServerSettings
    from ..settings import unknown_variables

    for name, close in unknown_variables(os.environ, also=(ServerSettings,)):
        hint = f"; did you mean {close}?" if close else ""
        click.echo(
            f"warning: {name} is not a recall setting and is ignored{hint} "
            "(`recall settings` lists them)",
            err=True,
        )


def held(mem: Memory, user_id: str) -> None:
    """``UnknownUserError`` unless ``user_id`` holds memory in the folder: a mistyped
    ``--user`` is an error (exit 1) on every command that reads, never an empty answer."""
    if not mem.holds(user_id):
        raise UnknownUserError(
            f"user {user_id!r} holds no memory here; `recall stats` lists the users"
        )


#: What ``recall serve`` and ``recall report`` import beyond the core: the server extra.
SERVER_PACKAGES = ("mcp", "starlette", "uvicorn")


def need_server_extra(command: str) -> None:
    """Exit 1 with one line naming the server extra when its packages are missing (a plain
    ``pip install``), before anything loads or is created."""
    # Found, not imported: importing the MCP SDK alone takes over a second, and `recall
    # serve` over stdio answers the host's handshake before it loads (recall.server.handshake).
    missing = [name for name in SERVER_PACKAGES if importlib.util.find_spec(name) is None]
    if missing:
        click.echo(
            f"error: recall {command} needs {', '.join(missing)}, in the server extra: "
            "pip install 'recall-memory[server]'",
            err=True,
        )
        sys.exit(1)


path_option = click.option(
    "--path",
    type=click.Path(file_okay=False, path_type=Path),
    default=lambda: os.environ.get("RECALL_PATH", "memory"),
    show_default="$RECALL_PATH or ./memory",
    help="The memory folder.",
)
url_option = click.option(
    "--chroma-url",
    default=lambda: os.environ.get("RECALL_CHROMA_URL"),
    help="Chroma server URL (default: $RECALL_CHROMA_URL, else the embedded store).",
)
json_option = click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON document on stdout instead."
)
user_option = click.option("--user", "user_id", required=True, help="Whose memory.")


def echo_json(data: object, *, indent: int | None = None) -> None:
    """Print ``data`` as the one JSON document of a ``--json`` command (UTF-8 as is)."""
    click.echo(json.dumps(data, ensure_ascii=False, indent=indent))


def read_query(query: str) -> str:
    """QUERY itself, or standard input when it is ``-`` (one trailing newline dropped).

    Standard input is decoded strictly (invalid UTF-8 is the group's one-line error); an
    empty query read from it is an InputError here, naming where it came from.
    """
    from ..errors import InputError

    if query != "-":
        return query
    text = sys.stdin.buffer.read().decode("utf-8")
    text = text[:-2] if text.endswith("\r\n") else text.removesuffix("\n")
    if not text.strip():
        raise InputError("the query read from standard input (QUERY -) is empty")
    return text


def open_memory(path: Path, chroma_url: str | None, *, create: bool = False) -> Memory:
    """The memory folder at ``path`` (on the Chroma server at ``chroma_url``, if given).

    Only commands that write (``create=True``) may make a new folder: a read command on a
    mistyped ``--path`` must say so, not answer from a fresh empty memory left behind.
    """
    from ..memory import open as open_folder

    if not create:
        require_folder(path)
    return open_folder(path, chroma_url=chroma_url or None)


@contextmanager
def user_memory(path: Path, chroma_url: str | None, user_id: str) -> Iterator[Memory]:
    """:func:`open_memory` for a command that reads ``user_id``'s memory: :func:`held`
    first, so a user the folder does not know is an error (and the folder closed)."""
    with open_memory(path, chroma_url) as mem:
        held(mem, user_id)
        yield mem


def require_folder(path: Path) -> None:
    """Raise StoreError unless ``path`` holds a memory (or the store is a server's)."""
    from ..errors import StoreError
    from ..index.integrity import check_store_file
    from ..jsonlimits import shown
    from ..settings import Settings
    from ..store import STORE_FILE

    if Settings().storage.store_url:
        return
    try:
        if (path / STORE_FILE).is_file():
            return
    except OSError as exc:  # a name too long for the filesystem, a folder not readable
        raise StoreError(
            f"cannot read the memory folder {shown(str(path))}: {exc.strerror or exc}; check "
            "--path or RECALL_PATH"
        ) from None
    # A folder that held a memory and lost its store gets the detailed error instead.
    check_store_file(path, path / STORE_FILE)
    raise StoreError(
        f"no memory folder at {path} (no {STORE_FILE} there): check --path or RECALL_PATH; "
        "`recall add` or `recall ingest` creates one"
    )


def settings_and_spec(
    path: Path, chroma_url: str | None, spec_name: str | None
) -> tuple[Settings, IndexSpec]:
    """Settings for an existing folder ``path`` (with the overrides given) and the index
    spec they name."""
    from ..index.spec import load_spec
    from ..settings import Settings

    require_folder(path)

    updates: dict[str, Any] = {"path": path}
    if chroma_url:
        updates["chroma_url"] = chroma_url
    if spec_name:
        updates["index_spec"] = spec_name
    settings = Settings(**updates)
    if settings.retrieval.index_spec:
        return settings, load_spec(settings.retrieval.index_spec)
    from ..index.layout import folder_spec
    from ..store import open_store

    store = open_store(path, settings.storage.store_url)  # the folder's own spec, remembered
    try:
        return settings, folder_spec(store, settings)
    finally:
        store.close()


@click.group(cls=RecallGroup)
@click.version_option(__version__, prog_name="recall")
def main() -> None:
    """recall: long-term memory for LLM agents, with hybrid deep recall."""
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
