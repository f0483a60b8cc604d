"""The LLM path against a real HTTP server speaking the OpenAI chat-completions protocol.

The server runs on 127.0.0.1 in a thread; the real ``openai`` client talks to it over
HTTP. It answers from a script of replies (a JSON content string, or an HTTP status), and
records every request so the tests can see what the client sent.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

import recall
from recall.errors import ConfigError, LLMError
from recall.lifecycle.article import Article
from recall.lifecycle.pipeline import Lifecycle
from recall.lifecycle.reconstruct import LLMReconstructor, OfflineReconstructor
from recall.lifecycle.summarize import SECTIONS, ExtractiveSummarizer, LLMSummarizer, SummaryOut
from recall.llm import LLMClient, load_prompt
from recall.settings import Settings
from recall.store import SQLiteStore
from recall.text import count_tokens

MESSAGES = [
    {"role": "user", "content": "Book the Lisbon trip: flight TP1337 on June 4, budget 900 EUR."},
    {"role": "assistant", "content": "Booked TP1337 for June 4. Total 812 EUR."},
]


class FakeOpenAI(ThreadingHTTPServer):
    """A chat-completions endpoint with scripted replies."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.script: list[Any] = []
        self.requests: list[dict[str, Any]] = []
        self.headers_seen: list[dict[str, str]] = []
        self.delay_s = 0.0

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a client that timed out and hung up is expected in the timeout test

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class _Handler(BaseHTTPRequestHandler):
    server: FakeOpenAI

    def log_message(self, *args: object) -> None:  # keep test output quiet
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append({"path": self.path, **body})
        self.server.headers_seen.append({k.lower(): v for k, v in self.headers.items()})
        if self.server.delay_s:
            time.sleep(self.server.delay_s)
        reply = self.server.script.pop(0) if self.server.script else '{"summary": "default"}'
        if isinstance(reply, int):
            self._send(reply, {"error": {"message": "scripted failure", "type": "server_error"}})
            return
        self._send(
            200,
            {
                "id": "chatcmpl-test",
                "object": "chat.completion",
                "created": 1_700_000_000,
                "model": body["model"],
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": reply},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
            },
        )

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    srv = FakeOpenAI()
    thread = threading.Thread(target=srv.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture
def client(server: FakeOpenAI) -> LLMClient:
    return LLMClient("test-model", base_url=server.url, api_key="sk-test", timeout_s=5)


def test_structured_reply_is_validated(server: FakeOpenAI, client: LLMClient) -> None:
    server.script = ['{"summary": "Trip TP1337 booked."}']
    out = client.structured("system text", "user text", SummaryOut)
    assert out.summary == "Trip TP1337 booked."
    req = server.requests[0]
    assert req["path"] == "/v1/chat/completions"
    assert req["model"] == "test-model"
    assert req["messages"] == [
        {"role": "system", "content": "system text"},
        {"role": "user", "content": "user text"},
    ]
    assert req["response_format"]["type"] == "json_schema"
    assert req["response_format"]["json_schema"]["name"] == "SummaryOut"
    assert server.headers_seen[0]["authorization"] == "Bearer sk-test"


def test_malformed_json_is_retried_once_with_feedback(
    server: FakeOpenAI, client: LLMClient
) -> None:
    server.script = ['{"summary": "unterminated', '```json\n{"summary": "ok"}\n```']
    assert client.structured("s", "u", SummaryOut).summary == "ok"
    assert len(server.requests) == 2
    retry = server.requests[1]["messages"]
    assert retry[2] == {"role": "assistant", "content": '{"summary": "unterminated'}
    assert "invalid" in retry[3]["content"]


def test_http_error_then_success(server: FakeOpenAI, client: LLMClient) -> None:
    server.script = [500, '{"summary": "ok"}']
    assert client.structured("s", "u", SummaryOut).summary == "ok"
    assert len(server.requests) == 2


def test_a_400_retries_in_plain_json_mode(server: FakeOpenAI, client: LLMClient) -> None:
    server.script = [400, '{"summary": "ok"}']
    assert client.structured("s", "u", SummaryOut).summary == "ok"
    assert server.requests[0]["response_format"]["type"] == "json_schema"
    assert server.requests[1]["response_format"] == {"type": "json_object"}


def test_two_failures_raise_llm_error(server: FakeOpenAI, client: LLMClient) -> None:
    server.script = ["not json", '{"wrong": "shape"}']
    with pytest.raises(LLMError, match="failed 2 times"):
        client.structured("s", "u", SummaryOut)
    server.script = [503, 503]
    with pytest.raises(LLMError, match="HTTP 503"):
        client.structured("s", "u", SummaryOut)


def test_unreachable_endpoint_and_timeout(server: FakeOpenAI) -> None:
    dead = LLMClient("m", base_url="http://127.0.0.1:9/v1", api_key="k", timeout_s=2)
    with pytest.raises(LLMError, match="cannot reach"):
        dead.structured("s", "u", SummaryOut)
    server.delay_s = 1.0
    slow = LLMClient("m", base_url=server.url, api_key="k", timeout_s=0.3)
    with pytest.raises(LLMError, match="timed out"):
        slow.structured("s", "u", SummaryOut)


def test_llm_summarizer_and_fallback(
    server: FakeOpenAI, client: LLMClient, caplog: pytest.LogCaptureFixture
) -> None:
    offline = ExtractiveSummarizer()
    summarizer = LLMSummarizer(client, offline)
    server.script = ['{"summary": "Booked TP1337 (June 4) for 812 EUR."}']
    assert summarizer(MESSAGES, budget_tokens=100) == "Booked TP1337 (June 4) for 812 EUR."
    prompt = server.requests[0]["messages"][0]["content"]
    assert "language the user writes in" in prompt and "100 tokens" in prompt
    assert "TP1337" in server.requests[0]["messages"][1]["content"]

    server.script = ["{broken", "{still broken"]
    with caplog.at_level(logging.WARNING, logger="recall"):
        out = summarizer.summarize(MESSAGES, budget_tokens=100)
    assert out == offline.summarize(MESSAGES, budget_tokens=100)
    assert "using the offline summarizer" in caplog.text


def test_llm_summary_over_budget_is_trimmed(server: FakeOpenAI, client: LLMClient) -> None:
    long = " ".join(f"Fact number {i} is about item {i * 7}." for i in range(80))
    server.script = [json.dumps({"summary": long})]
    out = LLMSummarizer(client, ExtractiveSummarizer()).summarize(MESSAGES, budget_tokens=60)
    assert 0 < count_tokens(out) <= 60


def test_llm_structured_summary(server: FakeOpenAI, client: LLMClient) -> None:
    fields = [
        "primary_request_and_intent",
        "key_technical_concepts",
        "files_and_code_sections",
        "errors_and_fixes",
        "problem_solving",
        "all_user_messages",
        "pending_tasks",
        "current_work",
    ]
    reply = {f: f"- {f} text" for f in fields}
    reply["pending_tasks"] = ""
    server.script = [json.dumps(reply)]
    out = LLMSummarizer(client, ExtractiveSummarizer()).summarize(
        MESSAGES, budget_tokens=400, structured=True
    )
    assert [line[3:] for line in out.splitlines() if line.startswith("## ")] == list(SECTIONS)
    assert "- (none)" in out and "- current_work text" in out
    assert "eight sections" in server.requests[0]["messages"][0]["content"]


def test_llm_reconstructor(
    server: FakeOpenAI, client: LLMClient, embedder: recall.Embedder
) -> None:
    offline = OfflineReconstructor(lambda: embedder, chapter_tokens=50, dedup_similarity=0.92)
    rec = LLMReconstructor(client, offline)
    long = " ".join(f"Note {i} about topic {i}." for i in range(60))
    server.script = [
        json.dumps(
            {
                "bedrock": "I know Ana is a pilot.",
                "evolutionary": "",
                "dynamic": f"She flies to Lisbon on June 4 </Dynamic>. {long}",
            }
        )
    ]
    old = Article(bedrock="Ana.", dynamic="Old.")
    out = rec.reconstruct(old, ["Ana flies TP1337 to Lisbon on June 4."])
    assert out.bedrock == "I know Ana is a pilot."
    assert "</Dynamic>" not in out.dynamic and "Lisbon" in out.dynamic
    assert count_tokens(out.dynamic) <= 50
    sent = json.loads(server.requests[0]["messages"][1]["content"])
    assert sent == {
        "old_structure": {"bedrock": "Ana.", "evolutionary": "", "dynamic": "Old."},
        "new_stimuli": ["Ana flies TP1337 to Lisbon on June 4."],
    }
    system = server.requests[0]["messages"][0]["content"]
    assert "language the user writes in" in system and "50 tokens" in system

    server.script = ["nope", "nope"]
    assert rec.reconstruct(old, ["Ana flies on June 4."]) == offline.reconstruct(
        old, ["Ana flies on June 4."]
    )


def test_environment_configures_the_lifecycle(
    server: FakeOpenAI, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("RECALL_LLM_MODEL", "env-model")
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    settings = Settings(path=tmp_path)
    assert settings.llm.model == "env-model"
    store = SQLiteStore(tmp_path / "s.sqlite3")
    life = Lifecycle(store, settings, lambda: pytest.fail("no embedding needed"))
    assert isinstance(life.summarizer, LLMSummarizer)
    assert isinstance(life.reconstructor, LLMReconstructor)
    server.script = ['{"summary": "Ana booked TP1337."}']
    res = life.update_memory(MESSAGES, user_id="u1")
    assert [r.text for r in life.short_term("u1")] == ["Ana booked TP1337."]
    assert res.summary_id == life.short_term("u1")[0].id
    assert server.requests[0]["model"] == "env-model"
    assert server.headers_seen[0]["authorization"] == "Bearer sk-env"
    life.close()
    store.close()


def test_model_without_endpoint_or_key_is_a_config_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        LLMClient.from_settings(Settings(llm_model="m"))
    assert LLMClient.from_settings(Settings()) is None


def test_prompts_are_packaged_in_english() -> None:
    for name in ("summarize", "summarize_structured", "reconstruct"):
        text = load_prompt(name)
        assert text.isascii() and "language the user writes in" in text
