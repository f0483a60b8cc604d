"""``recall`` subprocesses in the tests: their environment (offline, telemetry off, none of
the caller's ``RECALL_*`` settings, a home folder of its own), waiting for a served one to
come up, and its child processes (read from /proc: no pgrep needed)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import httpx

__all__ = ["children", "cmdline", "recall_env", "wait_up"]


def recall_env(tmp_path: Path) -> dict[str, str]:
    """``os.environ`` without ``RECALL_*``, offline, with ``HOME`` at ``tmp_path``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RECALL_")}
    env.update(
        ANONYMIZED_TELEMETRY="False",
        HF_HUB_OFFLINE="1",
        TOKENIZERS_PARALLELISM="false",
        RECALL_VECTOR_PARTITIONS="4",
        HOME=str(tmp_path),
    )
    return env


def wait_up(url: str, seconds: float = 120) -> bool:
    """Poll ``url``/healthz until it answers 200 (True) or ``seconds`` pass (False)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return True
        except httpx.TransportError:
            time.sleep(0.3)
    return False


def children(pid: int) -> list[int]:
    """Processes whose parent is ``pid``."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def cmdline(pid: int) -> bytes:
    """The command line of ``pid`` (empty once it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""
