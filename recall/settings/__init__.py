"""Every threshold, budget and default of recall, in one place, grouped by stage.

``Settings`` holds one group per stage of the data flow (``storage``, ``retrieval``,
``lifecycle``, ``llm``, ``context``, ``text``). Every field reads an environment variable:
``RECALL_`` + its name (``RECALL_ALPHA=0.4``), or ``RECALL_LLM_`` + its name for the LLM
group (``RECALL_LLM_MODEL``; flat name ``llm_model``). ``recall serve``'s settings are the
server's own, :class:`recall.server.ServerSettings` (``RECALL_SERVER_*``, read by
:func:`.wings.load_wing`); the library leaves their names to it.
In code, pass flat names (``Settings(alpha=0.4)``) or groups
(``Settings(retrieval={"alpha": 0.4})``); read them grouped (``settings.retrieval.alpha``).
A bad value raises :class:`~recall.errors.ConfigError` naming the variable, never a
pydantic traceback. ``recall settings`` and ``docs/settings.md`` list every field; where
each default comes from is in ``docs/design.md``.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable, Iterator, Mapping
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
from .wings import WINGS, in_wing

__all__ = [
    "ContextSettings",
    "GROUPS",
    "LLMSettings",
    "LifecycleSettings",
    "OTHER_VARIABLES",
    "RetrievalSettings",
    "Settings",
    "StorageSettings",
    "TextSettings",
    "env_name",
    "reference",
    "unknown_variables",
]

#: Every group of ``Settings``, in the order ``recall settings`` lists them.
GROUPS: tuple[type[_Group], ...] = _STAGE_GROUPS

#: Flat names accepted by ``Settings(...)`` and :meth:`Settings.replace`: every field by its
#: own name, and the LLM group's fields by their environment names (``llm_model``): a bare
#: ``model`` would say too little.
_PREFIXED: dict[type[_Group], str] = {LLMSettings: "llm"}
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
                raise _unknown(key)
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
                raise _unknown(key)
        return Settings(**data)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """pydantic's copy; an ``update`` goes through :meth:`replace` (routed, validated)."""
        if update:
            return self.replace(**update)  # type: ignore[return-value]
        return super().model_copy(deep=deep)


def _unknown(key: str) -> ConfigError:
    wing = next((w for w in WINGS if key == w or in_wing(w, None, key)), None)
    if wing is not None:  # a server setting, once of this class: say where it went
        return ConfigError(
            f"unknown setting {shown(key)}: recall.{wing}.{wing.capitalize()}Settings holds "
            f"`recall serve`'s settings (RECALL_{wing.upper()}_*), not recall.Settings; "
            "`recall settings` lists every setting"
        )
    return ConfigError(f"unknown setting {shown(key)}; `recall settings` lists every setting")


def reference(also: Iterable[type[_Group]] = ()) -> Iterator[tuple[str, str, str, str]]:
    """Every setting as (group.field, environment variable, default, description): the
    library's, then those of the groups ``also`` names (a wing's, such as the server's)."""
    for g in (*GROUPS, *also):
        for name, info in g.model_fields.items():
            default = info.default
            shown = "unset" if default is None else str(default)
            if isinstance(default, tuple):
                shown = ",".join(str(x) for x in default)
            yield f"{g.group}.{name}", env_name(g, name), shown, info.description or ""


#: ``RECALL_*`` variables read outside the settings: the demo's folder, the settings file.
OTHER_VARIABLES = frozenset({"RECALL_DEMO_PATH", SETTINGS_FILE_VARIABLE})


def unknown_variables(
    environ: Mapping[str, str], also: Iterable[type[_Group]] = ()
) -> list[tuple[str, str | None]]:
    """The ``RECALL_*`` names in ``environ`` that nothing reads (a typo is otherwise
    ignored without a word), each with the known name closest to it, if any: the library's
    settings and those of the groups ``also`` names (the server's) are read. Names under
    ``RECALL_TEST_`` are the test suite's own."""
    wings = {env_name(g, name) for g in also for name in g.model_fields}
    known = _BY_ENV.keys() | OTHER_VARIABLES | wings
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
    name (``alpha``, ``llm_model``) or a variable (``RECALL_ALPHA``); None for none."""
    if group is not None:
        return (group, key) if (group, key) in _BY_ENV.values() else None
    return _BY_ENV.get(key.upper()) if key.upper().startswith("RECALL_") else _FLAT.get(key)


def _add_file(parts: dict[str, dict[str, Any]], whole: set[str]) -> None:
    """The settings file's values into ``parts``, under what was passed (a value there, a
    group passed whole) and under the environment (a variable that is set)."""
    variable = {where: env for env, where in _BY_ENV.items()}
    for (group, name), value in file_values(os.environ, _locate, foreign=_wings).items():
        if group not in whole and variable[group, name] not in os.environ:
            parts[group].setdefault(name, value)


def _wings(table: str | None, key: str) -> bool:
    """Whether a name of the settings file is a wing's (``[server]``, ``server_port``,
    ``RECALL_SERVER_PORT``): left to it (:func:`.wings.load_wing`)."""
    return any(in_wing(wing, table, key) for wing in WINGS)
