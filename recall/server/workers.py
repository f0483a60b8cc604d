"""``recall serve --workers N``: N server processes on one port, one store, one Chroma server.

One process runs Python's parts of a request (parsing, fusion, the event loop) on one core
at a time; N processes use N. The parent binds the port once and starts N workers (the
``spawn`` start method: nothing of the parent's state is shared) that accept on that same
socket; each opens the memory itself, loads the models and serves as ``recall serve``
does with one process. A worker that dies is replaced; Ctrl-C or SIGTERM stops them all,
each finishing its requests in flight.

What the processes share is what several ``recall.open`` calls on one memory share: the
store (the folder's SQLite file in WAL mode, or PostgreSQL), which commits every write
before an index sees it, and the vectors, which must then live on a Chroma server
(``--chroma-url``): the embedded Chroma store belongs to one process. Each worker keeps its
own caches and rebuilds a user's partition when the store's version for that user moves,
so a write acknowledged by one worker is found by the next query on any other. A worker
that keeps dying right after its start (five times within a minute of starting) stops the
server with an error; a worker outlives no parent (Linux: it is told when the parent dies).
"""

from __future__ import annotations

import multiprocessing
import signal
import socket
import sys
import time
from typing import Any

from ..errors import ConfigError
from ..settings import Settings
from .settings import ServerSettings

__all__ = ["MAX_WORKERS", "serve_workers"]

#: More processes than this is a typo, not a deployment (each loads its own models).
MAX_WORKERS = 64
_spawn = multiprocessing.get_context("spawn")
#: A worker exiting sooner than this after its start counts as failing to start.
_YOUNG_S = 60.0
#: Failed starts after which the supervisor gives up and exits with an error.
_MAX_EARLY_EXITS = 5


def _check(settings: Settings, workers: int) -> None:
    if not 1 <= workers <= MAX_WORKERS:
        raise ConfigError(f"--workers must be from 1 to {MAX_WORKERS}, got {workers}")
    if settings.storage.chroma_url is None:
        raise ConfigError(
            "--workers needs the vectors on a Chroma server (--chroma-url or "
            "RECALL_CHROMA_URL; start one with `chroma run --path DIR`): the embedded Chroma "
            "store of a folder belongs to one process. Or serve with one worker."
        )


def _die_with_parent() -> None:
    """Ask Linux to SIGTERM this worker when the parent dies (even by SIGKILL), so no
    orphan keeps serving on the port; elsewhere the parent's own shutdown must do."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: nothing to ask
        pass


def _worker(
    options: dict[str, Any], server: ServerSettings, default_user: str | None, sock: socket.socket
) -> None:
    """One worker process: open the memory, serve on the shared socket until told to stop."""
    import uvicorn

    from ..memory import open as open_memory
    from .app import build_app, log_warnings_only, uvicorn_logging, uvicorn_options
    from .auth import ApiKeys

    _die_with_parent()
    settings = Settings(**options)
    log_warnings_only(server.log_level)
    with open_memory(settings=settings) as memory:
        keys = ApiKeys.from_settings(server)
        app = build_app(memory, keys=keys, default_user=default_user, settings=server)
        config = uvicorn.Config(app, **uvicorn_options(server), log_config=uvicorn_logging())
        uvicorn.Server(config).run(sockets=[sock])


def serve_workers(
    options: dict[str, Any],
    default_user: str | None,
    workers: int,
    server: ServerSettings | None = None,
) -> None:
    """Serve the memory of settings ``Settings(**options)`` from ``workers`` processes.

    ``options`` are :class:`~recall.settings.Settings` keyword arguments (the CLI's flags);
    each worker builds its settings from them and the environment, as the parent did.
    ``server``: the server's settings (None: :meth:`ServerSettings.load`), given to each.
    """
    from .app import listen_socket

    settings = Settings(**options)
    _check(settings, workers)
    conf = server or ServerSettings.load()
    # The one socket every worker accepts on, bound as a single-process server binds it: a
    # port in use is the same one line before any worker starts or any model loads.
    sock = listen_socket(conf)
    sock.set_inheritable(True)
    print(
        f"recall serve: http://{conf.host}:{conf.port} from {workers} worker processes "
        f"(vectors at {settings.storage.chroma_url})",
        file=sys.stderr,
    )
    procs: list[Any] = []
    started: list[float] = []
    early_exits = 0
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        for _ in range(workers):
            procs.append(_start(options, conf, default_user, sock))
            started.append(time.monotonic())
        while not stopping:
            for i, proc in enumerate(procs):
                proc.join(timeout=0.5 / len(procs))
                if proc.exitcode is None or stopping:
                    continue
                # A worker that dies young (a model file, the Chroma server, a key file)
                # would die again: give up after a few instead of respawning forever.
                early_exits += time.monotonic() - started[i] < _YOUNG_S
                if early_exits >= _MAX_EARLY_EXITS:
                    raise ConfigError(
                        f"recall serve: workers exited {early_exits} times within "
                        f"{_YOUNG_S:.0f} s of starting (exit code {proc.exitcode}); see their "
                        "messages above, fix the cause and start again"
                    )
                print(f"recall serve: worker {proc.pid} exited; starting another", file=sys.stderr)
                time.sleep(min(5.0, 0.5 * 2**early_exits))
                procs[i], started[i] = _start(options, conf, default_user, sock), time.monotonic()
    finally:
        for proc in procs:
            if proc.is_alive():
                proc.terminate()  # SIGTERM: uvicorn finishes the requests in flight
        for proc in procs:
            proc.join(timeout=conf.request_timeout_s + 5)
            if proc.is_alive():
                proc.kill()
        sock.close()


def _start(
    options: dict[str, Any], server: ServerSettings, default_user: str | None, sock: socket.socket
) -> Any:
    args = (options, server, default_user, sock)
    proc = _spawn.Process(target=_worker, args=args, daemon=False)
    proc.start()
    return proc
