"""Settings of recall's wings (``recall serve``'s :class:`recall.server.ServerSettings`):
read from the same places as :class:`recall.Settings`, kept out of its namespace.

A wing's group is a settings group of its own, named ``group``: its fields read
``RECALL_<GROUP>_<FIELD>`` and, in the settings file, a ``[<group>]`` table, the flat names
``<group>_<field>`` or the variables. :class:`recall.Settings` leaves those names to the
wing (:func:`in_wing`), and :func:`load_wing` reads them: what the code passes, over the
environment, over the file, over the defaults, as for the library's own settings.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, TypeVar

from .base import _Group, env_name
from .files import file_values

__all__ = ["WINGS", "in_wing", "load_wing"]

#: The wings' group names: ``recall.Settings`` leaves their names to them.
WINGS = ("server",)

_G = TypeVar("_G", bound=_Group)


def in_wing(wing: str, table: str | None, key: str) -> bool:
    """Whether a name of the settings file (``key`` in ``table``, None: top level) is one
    of ``wing``'s: its table, a flat name ``<wing>_...`` or a variable ``RECALL_<WING>_...``."""
    if table is not None:
        return table == wing
    return key.lower().startswith(f"{wing}_") or key.upper().startswith(f"RECALL_{wing.upper()}_")


def load_wing(group: type[_G], values: Mapping[str, Any]) -> _G:
    """``group`` built from ``values``, over its environment variables, over the settings
    file's values for it (``RECALL_SETTINGS_FILE``), over its defaults."""
    wing = group.group
    by_env = {env_name(group, name): name for name in group.model_fields}

    def locate(table: str | None, key: str) -> tuple[str, str] | None:
        if table is not None:
            name: str | None = key
        elif key.upper().startswith("RECALL_"):
            name = by_env.get(key.upper())
        else:
            name = key[len(wing) + 1 :]
        return (wing, name) if name in group.model_fields else None

    def foreign(table: str | None, key: str) -> bool:
        return not in_wing(wing, table, key)

    parts = dict(values)
    for (_, name), value in file_values(os.environ, locate, foreign=foreign).items():
        if env_name(group, name) not in os.environ:
            parts.setdefault(name, value)
    return group(**parts)
