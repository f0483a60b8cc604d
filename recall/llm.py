"""An OpenAI-compatible chat client that returns pydantic-validated structured output.

Configured from the environment the way the ``openai`` package itself is:
``RECALL_LLM_MODEL`` (through :class:`~recall.settings.Settings`) picks the model and turns
the LLM path on, ``OPENAI_BASE_URL`` points at any compatible endpoint (vLLM, Ollama, a
proxy), ``OPENAI_API_KEY`` authenticates. Nothing is contacted until the first call.

Every failure (transport, HTTP status, a reply that is not the JSON we asked for) gets one
retry; the reply error is fed back to the model on the retry. A second failure raises
:class:`~recall.errors.LLMError`, which the summarizer and reconstructor catch to fall back
to their offline implementations with a logged reason.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .errors import ConfigError, LLMError
from .settings import Settings

__all__ = ["LLMClient", "dumps", "load_prompt"]

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)

# Local endpoints (vLLM, Ollama) accept any key; the openai client refuses to start without
# one, so a base URL without a key gets this placeholder.
_NO_KEY = "not-needed"


def load_prompt(name: str) -> str:
    """The text of ``recall/prompts/{name}.txt``."""
    return resources.files("recall").joinpath("prompts", f"{name}.txt").read_text("utf-8")


class LLMClient:
    """Structured chat completions against one OpenAI-compatible endpoint."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        attempts: int = 2,
    ) -> None:
        if not model or not model.strip():
            raise ConfigError("RECALL_LLM_MODEL is empty; set a model name or unset it")
        try:
            from openai import OpenAI
        except ImportError as exc:  # pragma: no cover - a broken install
            raise ConfigError(f"the LLM path needs the openai package ({exc})") from exc
        base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
        api_key = api_key or os.environ.get("OPENAI_API_KEY") or None
        if api_key is None and base_url is None:
            raise ConfigError(
                f"RECALL_LLM_MODEL={model!r} is set but neither OPENAI_API_KEY nor "
                "OPENAI_BASE_URL is; set them, or unset RECALL_LLM_MODEL for the offline path"
            )
        self.model = model
        self.attempts = max(1, attempts)
        # The SDK's own retries are off: we retry once ourselves, with the error fed back.
        self._client = OpenAI(
            api_key=api_key or _NO_KEY, base_url=base_url, timeout=timeout_s, max_retries=0
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> LLMClient | None:
        """A client when ``settings.llm.model`` is set, else None (the offline path)."""
        if settings.llm.model is None:
            return None
        return cls(settings.llm.model, timeout_s=settings.llm.timeout_s)

    def structured(self, system: str, user: str, schema: type[T]) -> T:
        """Ask for one JSON object matching ``schema``; validated, retried once."""
        messages: list[dict[str, str]] = [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
        ]
        response_format: dict[str, Any] = {
            "type": "json_schema",
            "json_schema": {"name": schema.__name__, "schema": schema.model_json_schema()},
        }
        reason = ""
        for attempt in range(1, self.attempts + 1):
            try:
                content = self._complete(messages, response_format)
            except LLMError as exc:
                reason = str(exc)
                if isinstance(exc, _BadRequest):
                    # Older compatible servers reject json_schema; plain JSON mode is widely
                    # supported and the prompt spells out the fields.
                    response_format = {"type": "json_object"}
            else:
                try:
                    return schema.model_validate_json(_strip_fence(content))
                except ValidationError as exc:
                    reason = f"the reply did not match {schema.__name__}: {_short(exc)}"
                    # Show the model its own reply and what was wrong with it.
                    messages = [
                        *messages[:2],
                        {"role": "assistant", "content": content[:4_000]},
                        {
                            "role": "user",
                            "content": f"That reply was invalid ({reason}). Answer again with "
                            "only one JSON object that matches the schema.",
                        },
                    ]
            log.warning("recall: LLM attempt %d/%d failed: %s", attempt, self.attempts, reason)
        raise LLMError(f"{self.model} failed {self.attempts} times; last error: {reason}")

    def complete_json(self, messages: Sequence[Mapping[str, Any]], schema: type[BaseModel]) -> str:
        """One reply to a whole conversation, asked as JSON matching ``schema``; unvalidated.

        The request asks for ``schema`` as a json_schema; an endpoint that rejects that
        (HTTP 400) is asked in plain JSON mode, and one that rejects that too with no
        format at all, so the prompt and the caller's own reader must carry the format.
        Other failures are retried (``attempts``); the last one raises
        :class:`~recall.errors.LLMError`. The model's own temperature is kept: this is
        the answer a user reads, not a summary to reproduce.
        """
        formats: list[dict[str, Any] | None] = [
            {
                "type": "json_schema",
                "json_schema": {"name": schema.__name__, "schema": schema.model_json_schema()},
            },
            {"type": "json_object"},
            None,
        ]
        failures, reason = 0, ""
        while True:
            try:
                return self._complete(list(messages), formats[0], temperature=None)
            except _BadRequest as exc:
                reason = str(exc)
                if len(formats) > 1:  # a format the endpoint lacks is no failed attempt
                    formats.pop(0)
                    continue
            except LLMError as exc:
                reason = str(exc)
            failures += 1
            log.warning("recall: LLM attempt %d/%d failed: %s", failures, self.attempts, reason)
            if failures >= self.attempts:
                raise LLMError(f"{self.model} failed {failures} times; last error: {reason}")

    def _complete(
        self,
        messages: Sequence[Mapping[str, Any]],
        response_format: dict[str, Any] | None,
        *,
        temperature: float | None = 0,
    ) -> str:
        import openai

        try:
            # Plain dicts on purpose: the SDK's TypedDict params add nothing at run time.
            params: dict[str, Any] = {"model": self.model, "messages": list(messages)}
            if response_format is not None:
                params["response_format"] = response_format
            if temperature is not None:
                params["temperature"] = temperature
            reply = self._client.chat.completions.create(**params)
        except openai.BadRequestError as exc:
            raise _BadRequest(f"HTTP {exc.status_code} from the endpoint: {_short(exc)}") from exc
        except openai.APIStatusError as exc:
            raise LLMError(f"HTTP {exc.status_code} from the endpoint: {_short(exc)}") from exc
        except openai.APITimeoutError as exc:
            raise LLMError("the endpoint timed out; raise RECALL_LLM_TIMEOUT_S") from exc
        except openai.APIConnectionError as exc:
            raise LLMError(
                f"cannot reach the endpoint: {_short(exc)}; check OPENAI_BASE_URL"
            ) from exc
        except openai.OpenAIError as exc:
            raise LLMError(f"{type(exc).__name__}: {_short(exc)}") from exc
        if not reply.choices:
            raise LLMError("the endpoint returned no choices")
        content = reply.choices[0].message.content
        if not isinstance(content, str) or not content:
            raise LLMError("the endpoint returned an empty message")
        return content


class _BadRequest(LLMError):
    """The endpoint rejected the request itself (HTTP 400), e.g. an unsupported format."""


def _strip_fence(content: str) -> str:
    # Some compatible servers ignore response_format and wrap the JSON in a ``` fence.
    text = content.strip()
    if text.startswith("```"):
        text = text.split("\n", 1)[1] if "\n" in text else ""
        text = text.rsplit("```", 1)[0]
    start, end = text.find("{"), text.rfind("}")
    return text[start : end + 1] if 0 <= start < end else text


def _short(exc: BaseException, limit: int = 300) -> str:
    text = str(exc).replace("\n", " ")
    return text if len(text) <= limit else text[:limit] + "…"


def dumps(value: Any) -> str:
    """Compact JSON for prompts (non-ASCII kept readable)."""
    return json.dumps(value, ensure_ascii=False, indent=None)
