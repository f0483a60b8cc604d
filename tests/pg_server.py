"""A real PostgreSQL server for the tests, started and stopped by the suite on 127.0.0.1.

The binaries are the machine's own PostgreSQL (Debian's ``postgresql`` package: the
``initdb`` and ``postgres`` found through ``pg_config --bindir``, ``/usr/lib/postgresql/*/bin``
or ``PATH``); nothing is installed at run time. PostgreSQL refuses to run as root, so as
root the server runs as the ``postgres`` system user, its data in a temporary folder handed
to that user. ``RECALL_TEST_PG_URL`` points the suite at an existing server instead.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

__all__ = ["PGServer", "find_bindir"]


def find_bindir() -> Path | None:
    """The folder holding ``initdb`` and ``postgres``, or None on a machine without them."""
    candidates: list[Path] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=False)
        candidates.append(Path(out.stdout.strip()))
    candidates += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(Path(initdb).resolve().parent)
    for c in candidates:
        if (c / "initdb").is_file() and (c / "postgres").is_file():
            return c
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_postgres_user() -> Callable[[], None] | None:
    """A preexec function dropping root to the ``postgres`` user (None when not root)."""
    if os.geteuid() != 0:
        return None
    import pwd

    entry = pwd.getpwnam("postgres")

    def drop() -> None:
        os.setgid(entry.pw_gid)
        os.setuid(entry.pw_uid)

    return drop


class PGServer:
    """One throwaway PostgreSQL cluster: ``start()``, ``new_database()``, ``stop()``."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.port = _free_port()
        self.root = Path(tempfile.mkdtemp(prefix="recall-pg-"))
        self.data = self.root / "data"
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        drop = _as_postgres_user()
        if drop is not None:
            import pwd

            entry = pwd.getpwnam("postgres")
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        subprocess.run(
            [
                str(self.bindir / "initdb"),
                *("-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8"),
                "--no-sync",
            ],
            check=True,
            capture_output=True,
            preexec_fn=drop,  # no threads exist yet in this process at this point
        )
        self.proc = subprocess.Popen(
            [
                str(self.bindir / "postgres"),
                *("-D", str(self.data), "-h", "127.0.0.1", "-p", str(self.port)),
                *("-k", str(self.root), "-c", "fsync=off", "-c", "max_connections=200"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=drop,  # noqa: PLW1509
        )
        import psycopg

        deadline = time.monotonic() + 60
        while True:
            try:
                psycopg.connect(self.url, connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("the test PostgreSQL server did not start") from None
                time.sleep(0.2)

    def new_database(self) -> str:
        """A fresh, empty database on this server; returns its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url.rsplit("/", 1)[0] + f"/{name}"

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
        shutil.rmtree(self.root, ignore_errors=True)
