"""The embedded Chroma store in a child process, for a server that uses both cores.

chromadb's Rust bindings hold Python's interpreter lock through a whole write: measured
under ``benchmarks/server_load.py``, 70% of the samples holding the lock in ``recall
serve`` were inside one upsert, and the server kept 1.1 of 2 cores busy. In a process of
its own the store's writes run beside the server's requests, which then wait for them
with the lock released (a pipe read).

:class:`HostedClient` answers the calls recall makes on a Chroma client and its
collections (``get_or_create_collection``, ``get_collection``, ``list_collections``,
``delete_collection``; ``upsert``, ``delete``, ``get``, ``query``, ``count``) by sending
each to the child, one at a time. The child is ``python -m recall.index.chroma_host``,
talking over two pipes it inherits, so it imports nothing of the parent's main module.
A call is answered only once the child's Chroma call returned, so a write acknowledged
by the store was upserted exactly as in process. A child that died (killed, out of
memory) fails the call in progress with a ``ChromaHostError`` (a ``StoreError`` once
:func:`recall.errors.chroma_errors` wraps it; the index is left lagging and the next
read catches up) and is started again by the next call.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import sys
import threading
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

__all__ = ["ChromaHostError", "HostedClient", "HostedCollection"]

log = logging.getLogger(__name__)

_CLIENT_CALLS = frozenset(
    {"get_or_create_collection", "get_collection", "list_collections", "delete_collection"}
)
_COLLECTION_CALLS = frozenset({"upsert", "delete", "get", "query", "count"})


class ChromaHostError(Exception):
    """A Chroma call failed in the child process (its error's type and text), or the
    child is gone."""


class HostedCollection:
    """One collection in the child: the calls recall makes on a Chroma collection."""

    def __init__(self, host: HostedClient, name: str) -> None:
        self._host = host
        self.name = name

    def __getattr__(self, method: str) -> Any:
        if method not in _COLLECTION_CALLS:
            raise AttributeError(method)

        def call(*args: Any, **kwargs: Any) -> Any:
            return self._host.call(self.name, method, args, kwargs)

        return call


class HostedClient:
    """A Chroma ``PersistentClient`` in ``path``, living in a child process."""

    def __init__(self, path: Path, *, start_timeout_s: float = 60.0) -> None:
        self._path = Path(path)
        self._timeout = start_timeout_s
        self._lock = threading.Lock()  # one call in flight: the pipe carries one at a time
        self._proc: subprocess.Popen[bytes] | None = None
        self._send: Connection | None = None
        self._recv: Connection | None = None
        with self._lock:
            self._start()

    @property
    def pid(self) -> int | None:
        """The child's process id (None while no child runs)."""
        return None if self._proc is None else self._proc.pid

    # --- the child ----------------------------------------------------------------------
    def _start(self) -> None:
        down_r, down_w = os.pipe()  # parent -> child
        up_r, up_w = os.pipe()  # child -> parent
        env = {**os.environ, "ANONYMIZED_TELEMETRY": "False"}
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-m", __name__, str(down_r), str(up_w), str(self._path)],
                pass_fds=(down_r, up_w),
                env=env,
                stdin=subprocess.DEVNULL,
            )
        finally:
            os.close(down_r)
            os.close(up_w)
        self._send = Connection(down_w, readable=False)
        self._recv = Connection(up_r, writable=False)
        # The child answers once its client is open: a folder it cannot open fails here.
        try:
            if not self._recv.poll(self._timeout):
                raise ChromaHostError(
                    f"the vector store process did not start in {self._timeout} s"
                )
            self._answer()
        except BaseException:
            self._stop()
            raise

    def _answer(self) -> Any:
        assert self._recv is not None
        try:
            status, value = self._recv.recv()
        except (EOFError, OSError) as exc:
            code = self._proc.poll() if self._proc is not None else None
            self._stop()
            raise ChromaHostError(f"the vector store process exited (code {code})") from exc
        if status == "err":
            raise ChromaHostError(value)
        return value

    def _stop(self) -> None:
        for conn in (self._send, self._recv):
            if conn is not None:
                conn.close()
        self._send = self._recv = None
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def call(
        self, target: str | None, method: str, args: tuple[Any, ...], kw: dict[str, Any]
    ) -> Any:
        """Run ``method`` on the client (``target`` None) or on collection ``target``."""
        with self._lock:
            if self._send is None:
                log.warning("recall: restarting the vector store process")
                self._start()
            assert self._send is not None
            try:
                self._send.send((target, method, args, kw))
            except OSError as exc:
                self._stop()
                raise ChromaHostError("the vector store process is gone") from exc
            return self._answer()

    # --- the client's calls -------------------------------------------------------------
    def get_or_create_collection(self, name: str, **kwargs: Any) -> HostedCollection:
        kwargs.pop("embedding_function", None)  # the child never embeds either
        self.call(None, "get_or_create_collection", (name,), kwargs)
        return HostedCollection(self, name)

    def get_collection(self, name: str, **kwargs: Any) -> HostedCollection:
        kwargs.pop("embedding_function", None)
        self.call(None, "get_collection", (name,), kwargs)
        return HostedCollection(self, name)

    def list_collections(self) -> list[str]:
        names: list[str] = self.call(None, "list_collections", (), {})
        return names

    def delete_collection(self, name: str) -> None:
        self.call(None, "delete_collection", (name,), {})

    def close(self) -> None:
        """Close the child's client and let the child exit (idempotent)."""
        with self._lock:
            if self._send is not None:
                try:
                    self._send.send(None)
                    self._answer()
                except (ChromaHostError, OSError) as exc:
                    log.debug("recall: closing the vector store process: %s", exc)
            if self._proc is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self._proc.wait(10)
            self._stop()


def _run(client: Any, collections: dict[str, Any], msg: tuple[Any, ...]) -> Any:
    """One call of the parent's on the child's client or one of its collections."""
    target, method, args, kwargs = msg
    if target is not None:
        if method not in _COLLECTION_CALLS:
            raise ValueError(f"no collection call {method!r}")
        col = collections.get(target)
        if col is None:
            col = collections[target] = client.get_collection(target, embedding_function=None)
        value = getattr(col, method)(*args, **kwargs)
        return dict(value) if method in ("get", "query") else value
    if method not in _CLIENT_CALLS:
        raise ValueError(f"no client call {method!r}")
    if method == "list_collections":
        return [c if isinstance(c, str) else c.name for c in client.list_collections()]
    if method == "delete_collection":
        collections.pop(args[0], None)
        return client.delete_collection(*args)
    collections[args[0]] = getattr(client, method)(*args, embedding_function=None, **kwargs)
    return None


def _serve(down: Connection, up: Connection, path: str) -> None:
    """The child's loop: one call in, its result (or its error as text) out."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    settings = ChromaSettings(anonymized_telemetry=False, allow_reset=False)
    try:
        client: Any = chromadb.PersistentClient(path=path, settings=settings)
    except Exception as exc:
        up.send(("err", f"{type(exc).__name__}: {exc}"))
        return
    up.send(("ok", None))
    collections: dict[str, Any] = {}
    while True:
        try:
            msg = down.recv()
        except EOFError:  # the parent is gone
            break
        if msg is None:
            break
        try:
            up.send(("ok", _run(client, collections, msg)))
        except Exception as exc:  # the caller's chroma_errors turns it into a StoreError
            up.send(("err", f"{type(exc).__name__}: {exc}"))
    try:
        client.close()
        up.send(("ok", None))
    except OSError:  # the parent stopped waiting: nothing to tell
        pass


if __name__ == "__main__":
    # Ctrl-C in a terminal reaches the whole process group: the parent closes this child
    # when it shuts down, and a child interrupted mid-write would fail the parent's call.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _serve(
        Connection(int(sys.argv[1]), writable=False),
        Connection(int(sys.argv[2]), readable=False),
        sys.argv[3],
    )
