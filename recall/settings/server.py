"""``recall serve``: where it listens, who may call it, how much one request may ask."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from .base import _ENV, _Group

__all__ = ["ServerSettings"]


class ServerSettings(_Group):
    """The memory server (MCP over stdio or streamable HTTP, and the REST API)."""

    model_config = SettingsConfigDict(env_prefix=_ENV + "SERVER_", frozen=True, extra="forbid")
    group: ClassVar[str] = "server"

    host: str = Field(
        "127.0.0.1",
        min_length=1,
        description="Address the HTTP server binds; without API keys only a loopback one.",
    )
    port: int = Field(8765, ge=1, le=65535, description="Port of the HTTP server.")
    api_keys: str | None = Field(
        None,
        description="API keys as KEY=TENANT pairs, comma-separated: a key may touch the "
        "user ids that start with 'TENANT:' ('*': every user).",
    )
    api_keys_file: Path | None = Field(
        None, description="File of API keys, one 'KEY TENANT' pair a line ('#' comments)."
    )
    max_body_bytes: int = Field(
        8 * 1024 * 1024, ge=1024, description="Largest request body accepted (HTTP 413 above)."
    )
    request_timeout_s: float = Field(
        60.0, gt=0, description="A request still running after this answers HTTP 504."
    )
