"""Inspector logins: the token ``/ui/login`` keeps in a cookie instead of the key, which
expires and is revoked at logout.

A token is ``KID.ISSUED.NONCE.MAC``: ``KID`` names the key (one-way, from the digest the
server keeps), ``ISSUED`` the Unix second it was made, ``NONCE`` makes each login's token
its own, and ``MAC`` is an HMAC of the rest under a secret derived from the key's digest,
so no one without the key can make or stretch one, and every process serving the same
keys checks the same tokens. A token counts for ``inspector_login_s`` seconds from
``ISSUED`` (``RECALL_SERVER_INSPECTOR_LOGIN_S``), read when it is checked, so a shorter
setting shortens the logins already made. ``/ui/logout`` revokes the token it is sent
with: a file named by the token's hash under ``<folder>/server/inspector-logouts/``, which
every worker serving the folder sees; files older than the longest lifetime the setting
allows are removed at the next logout (by then the tokens they name have expired anyway).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import threading
import time
from pathlib import Path

__all__ = ["LOGOUTS_DIR", "Logins", "MAX_LOGIN_S", "key_id"]

#: The longest ``inspector_login_s`` allowed (and how long a logout is remembered).
MAX_LOGIN_S = 7 * 24 * 3600
#: Where the logouts are kept, under the memory folder.
LOGOUTS_DIR = Path("server") / "inspector-logouts"
#: A token issued this far in the future (another process's clock) still counts.
_SKEW_S = 60
_DEFAULT_S = 8 * 3600.0


def key_id(digest: str) -> str:
    """The id a token names its key by: one-way from the key's digest."""
    return hashlib.sha256(f"recall-ui-kid:{digest}".encode()).hexdigest()[:16]


def _mac(digest: str, body: str) -> str:
    secret = hashlib.sha256(f"recall-ui-token:{digest}".encode()).digest()
    return hmac.new(secret, body.encode("ascii"), hashlib.sha256).hexdigest()


class Logins:
    """Issue, check and revoke inspector tokens (see the module docs). ``folder``: the
    memory folder that keeps the logouts (None: this process alone remembers them)."""

    def __init__(self, folder: Path | None = None, lifetime_s: float = _DEFAULT_S) -> None:
        self.folder = None if folder is None else Path(folder) / LOGOUTS_DIR
        self.lifetime_s = lifetime_s
        self._gone: set[str] = set()  # without a folder
        self._lock = threading.Lock()

    def issue(self, digest: str) -> str:
        """A new token for the key of ``digest``."""
        body = f"{key_id(digest)}.{int(time.time())}.{secrets.token_hex(8)}"
        return f"{body}.{_mac(digest, body)}"

    def valid(self, token: str, digest: str) -> bool:
        """Whether ``token`` was made for the key of ``digest``, has not expired and was
        not logged out."""
        body, _, mac = token.rpartition(".")
        parts = body.split(".")
        if not body.isascii() or len(parts) != 3 or parts[0] != key_id(digest):
            return False
        if not (parts[1].isdigit() and len(parts[1]) <= 12):
            return False
        if not hmac.compare_digest(mac, _mac(digest, body)):
            return False
        age = time.time() - int(parts[1])
        return -_SKEW_S <= age < self.lifetime_s and not self._revoked(token)

    def revoke(self, token: str) -> None:
        """Remember ``token`` as logged out (call only for a token :meth:`valid` took)."""
        name = _name(token)
        if self.folder is None:
            with self._lock:
                self._gone.add(name)
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / name).touch()
        self._prune()

    def _revoked(self, token: str) -> bool:
        if self.folder is None:
            return _name(token) in self._gone
        return (self.folder / _name(token)).exists()

    def _prune(self) -> None:
        assert self.folder is not None
        old = time.time() - MAX_LOGIN_S - _SKEW_S
        for entry in os.scandir(self.folder):
            try:
                if entry.stat().st_mtime < old:
                    os.unlink(entry.path)
            except OSError:  # another worker pruned it first
                pass


def _name(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()[:40]
