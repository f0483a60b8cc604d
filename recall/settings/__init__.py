"""Every threshold, budget and default of recall, in one place, grouped by stage.

``Settings`` holds one group per stage of the data flow (``storage``, ``retrieval``,
``lifecycle``, ``llm``, ``context``, ``text``), and ``server`` for ``recall serve``. Every
field reads an environment variable: ``RECALL_`` + its name (``RECALL_ALPHA=0.4``), or
``RECALL_LLM_`` / ``RECALL_SERVER_`` + its name for the LLM and server groups
(``RECALL_LLM_MODEL``, ``RECALL_SERVER_PORT``; flat names ``llm_model``, ``server_port``).
In code, pass flat names (``Settings(alpha=0.4)``) or groups
(``Settings(retrieval={"alpha": 0.4})``); read them grouped (``settings.retrieval.alpha``).
A bad value raises :class:`~recall.errors.ConfigError` naming the variable, never a
pydantic traceback. ``recall settings`` and ``docs/settings.md`` list every field; where
each default comes from is in ``docs/design.md``.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterator, Mapping
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from ..errors import ConfigError
from ..jsonlimits import shown
from .base import _Group
from .files import SETTINGS_FILE_VARIABLE, file_values
from .groups import GROUPS as _STAGE_GROUPS
from .groups import (
    ContextSettings,
    LifecycleSettings,
    LLMSettings,
    RetrievalSettings,
    StorageSettings,
    TextSettings,
    env_name,
)
from .server import ServerSettings

__all__ = [
    "ContextSettings",
    "GROUPS",
    "LLMSettings",
    "LifecycleSettings",
    "OTHER_VARIABLES",
    "RetrievalSettings",
    "ServerSettings",
    "Settings",
    "StorageSettings",
    "TextSettings",
    "env_name",
    "reference",
    "unknown_variables",
]

#: Every group, in the order ``recall settings`` lists them: the stages, then the server.
GROUPS: tuple[type[_Group], ...] = (*_STAGE_GROUPS, ServerSettings)

#: Flat names accepted by ``Settings(...)`` and :meth:`Settings.replace`: every field by its
#: own name, and the LLM and server groups' fields by their environment names
#: (``llm_model``, ``server_port``): a bare ``host`` or ``model`` would say too little.
_PREFIXED: dict[type[_Group], str] = {LLMSettings: "llm", ServerSettings: "server"}
_FLAT: dict[str, tuple[str, str]] = {
    name: (g.group, name) for g in GROUPS if g not in _PREFIXED for name in g.model_fields
}
for _g, _prefix in _PREFIXED.items():
    _FLAT.update({f"{_prefix}_{name}": (_g.group, name) for name in _g.model_fields})


class Settings(BaseModel):
    """recall's configuration: one group per stage, immutable once built."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    storage: StorageSettings
    retrieval: RetrievalSettings
    lifecycle: LifecycleSettings
    llm: LLMSettings
    text: TextSettings
    context: ContextSettings
    server: ServerSettings

    def __init__(self, **values: Any) -> None:
        try:
            super().__init__(**values)
        except ValidationError as exc:
            raise ConfigError(f"invalid settings: {exc}") from None

    @model_validator(mode="before")
    @classmethod
    def _route(cls, data: Any) -> Any:
        # Flat names go to their group; each group not passed whole is built from what was
        # passed for it plus the environment (its own constructor reads RECALL_*).
        if not isinstance(data, Mapping):
            return data
        groups: dict[str, Any] = {}
        parts: dict[str, dict[str, Any]] = {g.group: {} for g in GROUPS}
        for key, value in data.items():
            if key in parts:
                if isinstance(value, _Group):
                    groups[key] = value
                elif isinstance(value, Mapping):
                    parts[key].update(value)
                else:
                    raise ConfigError(
                        f"settings group {key!r} must be a mapping, got {shown(value)}"
                    )
            elif key in _FLAT:
                group, name = _FLAT[key]
                parts[group][name] = value
            else:
                raise ConfigError(
                    f"unknown setting {shown(key)}; `recall settings` lists every setting"
                )
        _add_file(parts, set(groups))
        for g in GROUPS:
            if g.group in groups:
                if parts[g.group]:
                    current = groups[g.group].model_dump()
                    groups[g.group] = g(**{**current, **parts[g.group]})
            else:
                groups[g.group] = g(**parts[g.group])
        return groups

    def replace(self, **changes: Any) -> Settings:
        """A copy with ``changes`` (flat names or groups) applied and validated."""
        data: dict[str, Any] = {g.group: getattr(self, g.group).model_dump() for g in GROUPS}
        for key, value in changes.items():
            if key in data and isinstance(value, Mapping):
                data[key].update(value)
            elif key in _FLAT:
                group, name = _FLAT[key]
                data[group][name] = value
            else:
                raise ConfigError(f"unknown setting {shown(key)}; `recall settings` lists them")
        return Settings(**data)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """pydantic's copy; an ``update`` goes through :meth:`replace` (routed, validated)."""
        if update:
            return self.replace(**update)  # type: ignore[return-value]
        return super().model_copy(deep=deep)


def reference() -> Iterator[tuple[str, str, str, str]]:
    """Every setting as (group.field, environment variable, default, description)."""
    for g in GROUPS:
        for name, info in g.model_fields.items():
            default = info.default
            shown = "unset" if default is None else str(default)
            if isinstance(default, tuple):
                shown = ",".join(str(x) for x in default)
            yield f"{g.group}.{name}", env_name(g, name), shown, info.description or ""


#: ``RECALL_*`` variables read outside the settings: the demo's folder, the settings file.
OTHER_VARIABLES = frozenset({"RECALL_DEMO_PATH", SETTINGS_FILE_VARIABLE})


def unknown_variables(environ: Mapping[str, str]) -> list[tuple[str, str | None]]:
    """The ``RECALL_*`` names in ``environ`` that nothing reads (a typo is otherwise
    ignored without a word), each with the known name closest to it, if any. Names under
    ``RECALL_TEST_`` are the test suite's own."""
    known = _BY_ENV.keys() | OTHER_VARIABLES
    out = []
    for name in sorted(environ):
        if name.startswith("RECALL_") and name not in known and not name.startswith("RECALL_TEST_"):
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.8)
            out.append((name, close[0] if close else None))
    return out


#: Each setting's environment variable -> (group, field).
_BY_ENV: dict[str, tuple[str, str]] = {
    env_name(g, name): (g.group, name) for g in GROUPS for name in g.model_fields
}


def _locate(group: str | None, key: str) -> tuple[str, str] | None:
    """(group, field) of a name in a settings file: a field of ``group``'s table, a flat
    name (``alpha``, ``server_port``) or a variable (``RECALL_ALPHA``); None for none."""
    if group is not None:
        return (group, key) if (group, key) in _BY_ENV.values() else None
    return _BY_ENV.get(key.upper()) if key.upper().startswith("RECALL_") else _FLAT.get(key)


def _add_file(parts: dict[str, dict[str, Any]], whole: set[str]) -> None:
    """The settings file's values into ``parts``, under what was passed (a value there, a
    group passed whole) and under the environment (a variable that is set)."""
    variable = {where: env for env, where in _BY_ENV.items()}
    for (group, name), value in file_values(os.environ, _locate).items():
        if group not in whole and variable[group, name] not in os.environ:
            parts[group].setdefault(name, value)
