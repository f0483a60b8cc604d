"""A message that quotes a bad value survives values whose ``repr`` raises.

``repr`` of a list nested past the recursion limit raises ``RecursionError``, and of an
int past 4,300 digits ``ValueError``. test_api_fuzz once drew such a ``chroma_url`` for
``recall.open``, and the settings error that quoted it raised instead of a ConfigError.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import recall
from recall import ConfigError, Settings
from recall.text import parse_bound


def _nest(depth: int) -> Any:
    value: Any = "leaf"
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


HOSTILE = [_nest(3000), 10**4400, [10**4400], {"k": -(10**4400)}]


@pytest.mark.parametrize("bad", HOSTILE, ids=["deep", "huge-int", "list-of-huge", "dict-of-huge"])
def test_settings_errors_quote_a_hostile_value_safely(bad: Any, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"chroma_url=an? \w+ too large to show"):
        Settings(chroma_url=bad)
    with pytest.raises(ConfigError, match="too large to show"):
        Settings(storage=bad)
    with pytest.raises(ConfigError, match="too large to show"):
        recall.open(tmp_path / "memory", chroma_url=bad)
    assert not (tmp_path / "memory").exists()


def test_a_huge_timestamp_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="since is not a usable timestamp: an int too large"):
        parse_bound(10**4400, "since")
