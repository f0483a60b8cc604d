"""The environment of a ``recall`` subprocess in the tests: offline, telemetry off, none of
the caller's ``RECALL_*`` settings, a home folder of its own."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["recall_env"]


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
