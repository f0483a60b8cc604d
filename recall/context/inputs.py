"""What callers hand the context layer, checked: settings and message texts; and the
token counter the settings name.

A bad value is an :class:`~recall.errors.InputError` or a :class:`~recall.errors.ConfigError`
naming what to fix, raised before anything changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import ConfigError
from ..settings import Settings
from ..text import Count, count_tokens

__all__ = ["as_settings", "token_counter"]


def as_settings(
    value: Settings | Mapping[str, Any] | None, default: Settings | None = None
) -> Settings:
    """``value`` as Settings: a dict of fields is validated, a bad value is a ConfigError."""
    if value is None:
        return default or Settings()
    if isinstance(value, Settings):
        return value
    if not isinstance(value, Mapping):
        raise ConfigError(f"settings must be recall.Settings or a dict, not {type(value).__name__}")
    return (default or Settings()).replace(**value)


def token_counter(settings: Settings) -> Count:
    """The exact token counter of ``settings.text.encoding``, as every budget is counted."""
    encoding = settings.text.encoding
    return lambda text: count_tokens(text, encoding)
