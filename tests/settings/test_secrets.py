"""No secret in any answer, log or listing (issue 23, item 3).

A store URL carries its password in the userinfo, in ``?password=`` or ``?sslpassword=``
(and names a ``passfile``); none of them may reach an exception, a log record, a REST
answer, ``recall settings`` or ``recall stats``. API keys are never printed. A tenant of a
shared server whose store is down learns that it is down, not where it lives: no host, no
user, no database name. The operator's log line names the server, the password masked.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

import recall
from recall.cli import main
from recall.errors import ConfigError, StoreError
from recall.settings.redact import redact, scrub, shown_setting
from recall.store import open_store

SECRET = "hunter2secret"
KEY = "sekrit-api-key-0123456789"
# An unreachable server (port 1 is closed), with the password in each place libpq reads it.
DEAD = [
    f"postgresql://alice:{SECRET}@127.0.0.1:1/tenantdb",
    f"postgresql://alice@127.0.0.1:1/tenantdb?password={SECRET}",
    f"postgresql://alice@127.0.0.1:1/tenantdb?sslmode=prefer&sslpassword={SECRET}",
]


def _no_secret_in_logs(caplog: pytest.LogCaptureFixture) -> None:
    for r in caplog.records:
        text = r.getMessage() + (r.exc_text or "")
        assert SECRET not in text and KEY not in text, text


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("postgresql://u:pw1@h:5432/db", "postgresql://u:***@h:5432/db"),
        ("postgresql://:pw1@h/db", "postgresql://:***@h/db"),
        ("postgresql://u:p@ss1@h/db", "postgresql://u:***@h/db"),  # the last '@' ends it
        ("postgresql://u@h/db?password=pw1", "postgresql://u@h/db?password=***"),
        ("postgresql://u@h/db?sslmode=require&sslpassword=pw1", None),
        (
            "postgresql://u@h/db?PassFile=/home/u/.pgpass&x=1",
            "postgresql://u@h/db?PassFile=***&x=1",
        ),
        ("postgresql://u@h/db?pass%77ord=pw1", "postgresql://u@h/db?pass%77ord=***"),
        ("host=h port=5432 password=pw1 dbname=db", "host=h port=5432 password=*** dbname=db"),
        ("host=h password='p w1' dbname=db", "host=h password=*** dbname=db"),
        (
            "failed at postgresql://u:pw1@h/db: refused",
            "failed at postgresql://u:***@h/db: refused",
        ),
        ("http://tok:pw1@chroma:8000/?token=pw1", "http://tok:***@chroma:8000/?token=***"),
        ("postgresql://u@h:5432/db", "postgresql://u@h:5432/db"),  # nothing to hide
        ("the password was wrong", "the password was wrong"),
    ],
)
def test_every_url_form_is_masked(text: str, shown: str | None) -> None:
    out = redact(text)
    assert "pw1" not in out and "p w1" not in out
    if shown is not None:
        assert out == shown
    assert redact(out) == out  # idempotent


def test_scrub_removes_a_urls_password_quoted_anywhere() -> None:
    url = "postgresql://u:p%40ss99@h:x/db"
    assert scrub('invalid port "p@ss99@h:x"', url) == 'invalid port "***@h:x"'
    assert shown_setting("server.api_keys", f"{KEY}=acme") == "***"
    assert shown_setting("storage.store_url", DEAD[1]) == DEAD[1].replace(SECRET, "***")
    assert shown_setting("storage.store_url", None) is None


@pytest.mark.parametrize("url", DEAD)
def test_an_unreachable_store_names_no_secret_host_or_database(
    url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    with pytest.raises(StoreError) as err:
        open_store(Path("."), url, timeout_s=2)
    message = str(err.value)
    assert "unavailable" in message and "connection refused" in message
    for leak in (SECRET, "127.0.0.1", "alice", "tenantdb"):
        assert leak not in message, message
    _no_secret_in_logs(caplog)
    # The operator's log line says where, the password masked.
    assert any("127.0.0.1:1/tenantdb" in r.getMessage() for r in caplog.records)


def test_a_bad_store_url_is_quoted_masked() -> None:
    with pytest.raises(ConfigError) as err:
        open_store(Path("."), f"host=db password={SECRET}", timeout_s=1)
    assert SECRET not in str(err.value) and "password=***" in str(err.value)
    with pytest.raises(ConfigError) as err:
        open_store(Path("."), f"postgresql://u:{SECRET}@h/db?bogus={SECRET}", timeout_s=1)
    assert SECRET not in str(err.value)


def test_a_chroma_url_password_is_never_printed(caplog: pytest.LogCaptureFixture) -> None:
    from recall.index.chroma import chroma_client

    with pytest.raises(StoreError) as err:
        chroma_client(None, f"http://admin:{SECRET}@127.0.0.1:1/?token={SECRET}", 1.0)
    assert SECRET not in str(err.value) and "127.0.0.1" in str(err.value)
    _no_secret_in_logs(caplog)


def test_recall_settings_prints_no_password_and_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECALL_STORE_URL", DEAD[0] + f"?sslpassword={SECRET}")
    monkeypatch.setenv("RECALL_CHROMA_URL", f"http://u:{SECRET}@127.0.0.1:8000")
    monkeypatch.setenv("RECALL_SERVER_API_KEYS", f"{KEY}=acme,{KEY}x=*")
    for args in (["settings"], ["settings", "--json"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        assert SECRET not in result.output and KEY not in result.output
        assert "127.0.0.1:1/tenantdb" in result.output  # the operator still sees where
    rows = json.loads(CliRunner().invoke(main, ["settings", "--json"]).output)
    shown = {r["env"]: r["value"] for r in rows}
    assert shown["RECALL_SERVER_API_KEYS"] == "***"


@pytest.mark.parametrize("url", DEAD[1:])
def test_recall_stats_on_an_unreachable_store_prints_no_password(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("RECALL_STORE_URL", url)
    monkeypatch.setenv("RECALL_STORE_TIMEOUT_S", "2")
    result = CliRunner().invoke(main, ["stats", "--path", str(tmp_path / "m")])
    assert result.exit_code == 1
    assert "unavailable" in result.output and SECRET not in result.output
    _no_secret_in_logs(caplog)


def _with_password(pg_url: str) -> str:
    """``pg_url`` with a password in the userinfo and the query (the test server trusts)."""
    head, tail = pg_url.split("://", 1)
    user, rest = tail.split("@", 1)
    return f"{head}://{user}:{SECRET}@{rest}?sslpassword={SECRET}"


def test_recall_stats_on_postgres_prints_no_password(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = _with_password(pg_url)
    with recall.open(tmp_path / "m", store_url=url):
        pass
    monkeypatch.setenv("RECALL_STORE_URL", url)
    result = CliRunner().invoke(main, ["stats", "--path", str(tmp_path / "m")])
    assert result.exit_code == 0, result.output
    assert SECRET not in result.output


def test_a_tenants_503_names_no_secret_host_user_or_database(
    pg_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The store goes away under a running server: the 503 says so, and no more."""
    import psycopg

    from recall.server.app import build_app

    caplog.set_level(logging.WARNING)
    url = _with_password(pg_url)
    database = pg_url.rsplit("/", 1)[1]
    settings = recall.Settings(path=tmp_path / "m", store_url=url, vector_partitions=2)
    mem = recall.open(settings=settings)
    try:
        with psycopg.connect(pg_url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE "{database}" WITH (FORCE)')  # the outage

        async def ask() -> httpx.Response:
            transport = httpx.ASGITransport(app=build_app(mem), client=("127.0.0.1", 40000))
            async with httpx.AsyncClient(
                transport=transport, base_url="http://127.0.0.1:8765"
            ) as client:
                return await client.get("/v1/users/u1/memories")

        answer = asyncio.run(ask())
    finally:
        mem.close()
    assert answer.status_code == 503, answer.text
    body = answer.json()
    assert "unavailable" in body["error"]
    for leak in (SECRET, "127.0.0.1", "postgres", database):
        assert leak not in answer.text, answer.text
    _no_secret_in_logs(caplog)
    # The operator's log names the database (and what PostgreSQL said), never the password.
    assert any(database in r.getMessage() for r in caplog.records)


def test_a_password_holding_query_or_fragment_characters_is_masked() -> None:
    # libpq reads the password up to the last "@" before the host: "?" and "#" are in it.
    url = "postgresql://recall:s3cr#t?x@db/recall?sslmode=require"
    assert redact(url) == "postgresql://recall:***@db/recall?sslmode=require"
    assert "s3cr" not in str(shown_setting("store_url", url))
