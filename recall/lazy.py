"""A package's public names imported when first used (PEP 562), so importing the package
costs little and a command or a host pays only for the parts it touches (``recall``,
``recall.server``)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    package: str, home: Mapping[str, str], namespace: dict[str, Any], public: list[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``: a name of ``home`` (name ->
    module, relative to ``package``) is imported from its module on first use and kept in
    ``namespace`` after; any other name is a module of the package, as ``import
    package.name`` would give it, or an ``AttributeError``."""

    def getattr_(name: str) -> Any:
        where = home.get(name)
        if where is None:
            try:
                return importlib.import_module(f"{package}.{name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"{package}.{name}":
                    raise
                raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        value = getattr(importlib.import_module(where, package), name)
        namespace[name] = value
        return value

    def dir_() -> list[str]:
        return sorted({*namespace, *public})

    return getattr_, dir_
