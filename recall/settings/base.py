"""The base of every settings group: frozen, read from ``RECALL_*``, errors as ConfigError."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from ..errors import ConfigError
from ..jsonlimits import shown
from .redact import shown_setting

__all__ = ["env_name"]

_ENV = "RECALL_"


class _Group(BaseSettings):
    """One group of settings: frozen, unknown names rejected, read from ``RECALL_*``."""

    model_config = SettingsConfigDict(env_prefix=_ENV, frozen=True, extra="forbid")
    #: The attribute of ``Settings`` holding this group.
    group: ClassVar[str]

    def __init__(self, **values: Any) -> None:
        try:
            super().__init__(**values)
        except ValidationError as exc:
            raise _config_error(type(self), exc, values) from None


def env_name(group: type[_Group], field: str) -> str:
    """The environment variable that sets ``field`` of ``group`` (``RECALL_ALPHA``)."""
    return f"{group.model_config.get('env_prefix', _ENV)}{field}".upper()


def _config_error(
    group: type[_Group], exc: ValidationError, given: Mapping[str, Any]
) -> ConfigError:
    problems = []
    for err in exc.errors():
        field = str(err["loc"][0]) if err["loc"] else ""
        var = env_name(group, field) if field else f"settings.{group.group}"
        name = f"{group.group}.{field}"  # a secret's value is never quoted back
        if field and field not in given and var in os.environ:
            where = f"{var}={shown(shown_setting(name, os.environ[var]), 200)} (environment)"
        elif field:
            where = f"{field}={shown(shown_setting(name, given.get(field)), 200)} ({var})"
        else:
            where = f"settings.{group.group}"
        problems.append(f"{where}: {err['msg']}")
    return ConfigError(
        "invalid settings: " + "; ".join(problems) + ". Fix the value or unset the variable; "
        "`recall settings` lists every setting with its range."
    )
