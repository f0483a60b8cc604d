"""Settings from a file: ``RECALL_SETTINGS_FILE`` names a TOML or ``.env`` file whose
values apply as if they were set in the environment, under it.

Precedence, strongest first: what the code passes (``Settings(alpha=0.4)``), the
environment (``RECALL_ALPHA``), the file, the defaults. A TOML file holds a table per group
or the flat names (``recall settings`` lists both)::

    alpha = 0.4                 # retrieval.alpha

    [server]
    port = 9000                 # server.port, RECALL_SERVER_PORT (recall serve's own:
                                # recall.server.ServerSettings.load reads it, .wings)

Any other file is read as ``.env`` lines, ``RECALL_ALPHA=0.4``, ``#`` comments, optional
quotes. A file that cannot be read or names no setting is a ``ConfigError`` naming it.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..errors import ConfigError

__all__ = ["SETTINGS_FILE_VARIABLE", "file_values"]

#: The variable that names the settings file.
SETTINGS_FILE_VARIABLE = "RECALL_SETTINGS_FILE"

#: How a name of the file is found: its group's table (None: top level) and the name, to
#: (group, field); None for no setting.
Locate = Callable[[str | None, str], tuple[str, str] | None]
#: Whether a name of the file (its table, the name) is another reader's, left to it.
Foreign = Callable[[str | None, str], bool]


def file_values(
    environ: Mapping[str, str], locate: Locate, *, foreign: Foreign | None = None
) -> dict[tuple[str, str], Any]:
    """The settings of the file ``environ`` names (``{}`` when it names none), as
    ``(group, field) -> value``; the names ``foreign`` says another reader takes (a wing's,
    :mod:`.wings`) are left out."""
    name = environ.get(SETTINGS_FILE_VARIABLE)
    if not name:
        return {}
    path = Path(name).expanduser()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeError) as exc:
        raise ConfigError(
            f"cannot read the settings file {path} ({SETTINGS_FILE_VARIABLE}): "
            f"{getattr(exc, 'strerror', None) or exc}"
        ) from None
    pairs = _toml(text, path) if path.suffix == ".toml" else _dotenv(text)
    out: dict[tuple[str, str], Any] = {}
    for group, key, value in pairs:
        if foreign is not None and foreign(group, key):
            continue
        found = locate(group, key)
        if found is None:
            where = f"[{group}] {key}" if group else key
            raise ConfigError(
                f"unknown setting {where!r} in {path} ({SETTINGS_FILE_VARIABLE}); "
                "`recall settings` lists every setting"
            )
        out[found] = value
    return out


def _toml(text: str, path: Path) -> list[tuple[str | None, str, Any]]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"the settings file {path} is not TOML: {exc}") from None
    out: list[tuple[str | None, str, Any]] = []
    for key, value in data.items():
        if isinstance(value, dict):
            out += [(key, field, v) for field, v in value.items()]
        else:
            out.append((None, key, value))
    return out


def _dotenv(text: str) -> list[tuple[str | None, str, Any]]:
    out: list[tuple[str | None, str, Any]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        out.append((None, key.strip() if sep else line, value if sep else None))
    return out
