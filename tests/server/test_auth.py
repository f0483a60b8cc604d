"""API keys and tenants: a key never reaches another tenant's users (property-tested)."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

import recall
from recall.errors import ConfigError
from recall.server import ApiKeys, AuthError, ForbiddenError, build_app
from recall.server.auth import allows, is_loopback, key_from_headers, tenant_of
from recall.server.errors import status_for
from recall.server.settings import ServerSettings

tenants = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,8}", fullmatch=True)
keys = st.text(string.ascii_letters + string.digits + "-_.~", min_size=16, max_size=40)


@st.composite
def user_ids(draw: st.DrawFn, names: list[str]) -> str:
    """A user id: often one of a tenant's, sometimes a near miss, sometimes anything."""
    name = draw(st.sampled_from(names))
    suffix = draw(st.text(min_size=0, max_size=12))
    return draw(
        st.sampled_from(
            [
                f"{name}:{suffix}",
                f"{name}{suffix}:x",  # a longer tenant name that starts with this one
                f"{name}",  # no separator: nobody's
                f"x{name}:{suffix}",
                suffix or "u",
            ]
        )
    )


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.data(), st.dictionaries(tenants, keys, min_size=2, max_size=6, dict_class=dict))
def test_a_key_reaches_exactly_its_tenants_users(
    data: st.DataObject, owned: dict[str, str]
) -> None:
    if len(set(owned.values())) != len(owned):  # two tenants sharing a key is a config error
        return
    ring = ApiKeys([(k, t) for t, k in owned.items()])
    names = sorted(owned)
    for _ in range(5):
        uid = data.draw(user_ids(names))
        for tenant, key in owned.items():
            mine = tenant_of(uid) == tenant
            if mine:
                assert ring.check(key, uid) == uid
            else:
                with pytest.raises(ForbiddenError):
                    ring.check(key, uid)
        stranger = data.draw(keys)
        if stranger not in owned.values():
            with pytest.raises(AuthError):
                ring.check(stranger, uid)


def test_the_operator_reaches_everyone_and_prefixes_do_not_overlap() -> None:
    assert allows("*", "anyone at all")
    assert allows("acme", "acme:bob") and not allows("acme", "acme2:bob")
    assert not allows("acme", "acme") and not allows("acme", "xacme:bob")
    assert tenant_of("acme:bob:1") == "acme" and tenant_of("no-tenant") is None


def test_over_http_a_key_never_reads_or_writes_another_tenants_users(
    mem: recall.Memory,
) -> None:
    ring = ApiKeys([("key-of-acme-0123456", "acme"), ("key-of-beta-0123456", "beta")])
    owned = {"acme": "key-of-acme-0123456", "beta": "key-of-beta-0123456"}
    with TestClient(build_app(mem, keys=ring), base_url="http://localhost") as client:

        @settings(
            max_examples=40,
            deadline=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture],
        )
        @given(
            st.sampled_from(["acme", "beta", None]),
            st.sampled_from(["acme", "beta", "gamma"]),
            st.text(string.ascii_lowercase, min_size=1, max_size=6),
            st.booleans(),
        )
        def check(key_of: str | None, owner: str, name: str, write: bool) -> None:
            headers = {"authorization": f"Bearer {owned[key_of]}"} if key_of else {}
            user = f"/v1/users/{owner}:{name}"
            held = mem.holds(f"{owner}:{name}")
            if write:
                body = {"notes": [{"text": f"{owner} secret of {name}"}]}
                r = client.post(f"{user}/notes", json=body, headers=headers)
            else:
                r = client.get(f"{user}/memories", headers=headers)
            # A read of a user that holds nothing is 404, to its own tenant only: another
            # tenant's key is refused first, so it learns nothing of who exists.
            expected = 401 if key_of is None else (201 if write else 200 if held else 404)
            if key_of is not None and key_of != owner:
                expected = 403
            assert r.status_code == expected, r.text
            if r.status_code == 200:  # what a tenant reads is its own users' text only
                texts = [m["text"] for m in r.json()["records"]]
                assert all(t.startswith(f"{owner} secret of {name}") for t in texts)

        check()


def test_keys_come_from_the_environment_and_a_file(tmp_path: Path) -> None:
    key_file = tmp_path / "keys"
    key_file.write_text("# ops\nfile-key-0123456789 beta\n\nop-key-012345678901 *  # all\n")
    ring = ApiKeys.from_settings(
        ServerSettings(api_keys="env-key-0123456789=acme", api_keys_file=key_file)
    )
    assert ring is not None and len(ring) == 3
    assert ring.tenant("env-key-0123456789") == "acme"
    assert ring.tenant("file-key-0123456789") == "beta"
    assert ring.tenant("op-key-012345678901") == "*"
    assert ApiKeys.from_settings(ServerSettings()) is None


@pytest.mark.parametrize(
    ("pairs", "says"),
    [
        ([("short", "acme")], "at least 16"),
        ([("a-long-enough-key-1", "ac:me")], "tenant 'ac:me'"),
        ([("a-long-enough-key=1", "acme")], "without spaces"),
    ],
)
def test_weak_keys_and_bad_tenants_are_config_errors(
    pairs: list[tuple[str, str]], says: str
) -> None:
    with pytest.raises(ConfigError, match=says):
        ApiKeys(pairs)


def test_key_file_and_variable_errors(tmp_path: Path) -> None:
    bad = tmp_path / "keys"
    bad.write_text("only-one-word-here-0123\n")
    with pytest.raises(ConfigError, match=r"keys:1: write 'KEY TENANT'"):
        ApiKeys.from_settings(ServerSettings(api_keys_file=bad))
    with pytest.raises(ConfigError, match="KEY=TENANT"):
        ApiKeys.from_settings(ServerSettings(api_keys="no-equals-sign-here"))
    with pytest.raises(ConfigError, match="cannot read"):
        ApiKeys.from_settings(ServerSettings(api_keys_file=tmp_path / "missing"))


def test_headers_loopback_and_statuses() -> None:
    assert key_from_headers({"authorization": "Bearer abc"}) == "abc"
    assert key_from_headers({"x-api-key": " abc "}) == "abc"
    assert key_from_headers({"authorization": "Basic abc"}) is None
    assert key_from_headers(None) is None
    assert all(is_loopback(h) for h in ("127.0.0.1", "127.8.0.1", "::1", "[::1]", "localhost"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "10.0.0.1", "example.com", None))
    assert status_for(AuthError("x")) == 401 and status_for(ForbiddenError("x")) == 403
    assert status_for(recall.StoreError("x")) == 503 and status_for(recall.InputError("x")) == 400
    assert status_for(TimeoutError()) == 504 and status_for(KeyError()) == 500


def test_serve_refuses_a_public_address_without_keys(
    settings: recall.Settings, embedder: recall.Embedder
) -> None:
    from recall.server import serve_http

    refused = pytest.raises(ConfigError, match=r"refusing to listen on 0\.0\.0\.0 without API")
    with recall.open(settings=settings) as m, refused:
        serve_http(m, settings=ServerSettings(host="0.0.0.0"))
