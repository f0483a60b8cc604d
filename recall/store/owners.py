"""Who holds a key's reservation, and whether that process still lives.

A reservation (:mod:`recall.store.idempotency`) carries an owner token: the host, its boot,
the process id and start time of the process that reserved it, and a nonce of its own.
A retry that finds a reservation asks :func:`owner_alive`: a process of this host that is
gone (killed, the machine rebooted) never commits its write, so its reservation is taken
over at once; this process's own is alive while it is :func:`held`. Of another host
nothing can be told (None): its reservation is taken over once stale.
"""

from __future__ import annotations

import os
import socket
import threading
import uuid
from functools import cache
from pathlib import Path

__all__ = ["drop", "held", "new_token", "owner_alive"]

_SEP = "|"
_PREFIX = "owner"
# The tokens this process reserved and has not finished or released yet.
_held: set[str] = set()
_held_lock = threading.Lock()


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""


@cache
def _boot() -> str:
    """This boot of the machine ('' where the system does not say)."""
    return _read("/proc/sys/kernel/random/boot_id")


def _started(pid: int) -> str:
    """When process ``pid`` started, in clock ticks since boot ('' if gone or unknown)."""
    stat = _read(f"/proc/{pid}/stat")
    # The command name (field 2) may hold spaces and parentheses: split after its ')'.
    fields = stat.rsplit(")", 1)[1].split() if ")" in stat else []
    return fields[19] if len(fields) > 19 else ""  # field 22, starttime


def _me() -> tuple[str, str, str, str]:
    # Read per call, not at import: a forked worker is another process.
    pid = os.getpid()
    return socket.gethostname(), _boot(), str(pid), _started(pid)


def new_token() -> str:
    """A fresh owner token for a reservation of this process, held until :func:`drop`."""
    token = _SEP.join((_PREFIX, *_me(), uuid.uuid4().hex))
    with _held_lock:
        _held.add(token)
    return token


def held(token: str) -> bool:
    """Whether this process holds ``token`` (its write has not ended)."""
    with _held_lock:
        return token in _held


def drop(token: str) -> None:
    """The write of ``token`` ended (answered or released)."""
    with _held_lock:
        _held.discard(token)


def _alive(pid: int, started: str) -> bool:
    if started and Path("/proc").is_dir():
        return _started(pid) == started  # a reused pid started later
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def owner_alive(token: str | None) -> bool | None:
    """Whether the process that reserved with ``token`` lives (None: cannot be told)."""
    parts = (token or "").split(_SEP)
    if len(parts) != 6 or parts[0] != _PREFIX or not parts[3].isdigit():
        return None  # a reservation of an older recall, or no owner
    host, boot, pid, started = parts[1:5]
    mine = _me()
    if host != mine[0]:
        return None
    if boot and mine[1] and boot != mine[1]:
        return False  # the machine rebooted since
    if (pid, started) == mine[2:]:
        return held(token or "")
    return _alive(int(pid), started)
