"""``recall serve``'s settings are the server's own (recall.server.settings): read from
RECALL_SERVER_*, the settings file and the code as before, and out of ``recall.Settings``."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from recall import ConfigError, Settings
from recall.server import ServerSettings
from recall.settings import reference, unknown_variables


def test_the_library_has_no_server_group_and_says_where_it_went() -> None:
    assert "server" not in Settings.model_fields
    assert not any(name.startswith("server.") for name, *_ in reference())
    for bad in ({"server_port": 9000}, {"server": {"port": 9000}}):
        with pytest.raises(ConfigError, match=r"recall\.server\.ServerSettings holds"):
            Settings(**bad)
    with pytest.raises(ConfigError, match=r"recall\.server\.ServerSettings holds"):
        Settings().replace(server_host="0.0.0.0")


def test_a_bad_server_variable_no_longer_stops_the_library(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("RECALL_SERVER_PORT", "not-a-port")
    assert Settings(path="m").retrieval.alpha == 0.5
    with pytest.raises(ConfigError, match=r"RECALL_SERVER_PORT='not-a-port' \(environment\)"):
        ServerSettings.load()
    with pytest.raises(ConfigError, match=r"port=0 \(RECALL_SERVER_PORT\)"):
        ServerSettings.load(port=0)


def test_load_reads_code_over_environment_over_file_over_defaults(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    toml = tmp_path / "recall.toml"
    toml.write_text('alpha = 0.4\nserver_tools = "all"\n[server]\nport = 9001\nlang = "zh"\n')
    monkeypatch.setenv("RECALL_SETTINGS_FILE", str(toml))
    monkeypatch.setenv("RECALL_SERVER_LANG", "en")
    s = ServerSettings.load(tools="agent")
    assert (s.port, s.lang, s.tools, s.host) == (9001, "en", "agent", "127.0.0.1")
    assert ServerSettings.load().tools == "all" and Settings().retrieval.alpha == 0.4
    assert ServerSettings().port == 8765  # the plain constructor reads no file
    dotenv = tmp_path / ".env"
    dotenv.write_text("RECALL_ALPHA=0.3\nRECALL_SERVER_PORT=9004\n")
    monkeypatch.setenv("RECALL_SETTINGS_FILE", str(dotenv))
    assert (ServerSettings.load().port, Settings().retrieval.alpha) == (9004, 0.3)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[server]\nprot = 1\n", "unknown setting '[server] prot'"),
        ("server_prot = 1\n", "unknown setting 'server_prot'"),
        ("[server]\nport = 0\n", "port=0 (RECALL_SERVER_PORT)"),
    ],
)
def test_a_bad_server_name_in_the_file_is_the_servers_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, text: str, says: str
) -> None:
    path = tmp_path / "a.toml"
    path.write_text(text)
    monkeypatch.setenv("RECALL_SETTINGS_FILE", str(path))
    Settings()  # the library leaves the server's names to the server
    with pytest.raises(ConfigError, match=re.escape(says)):
        ServerSettings.load()


def test_unknown_variables_knows_the_server_names_it_is_given() -> None:
    env = {"RECALL_SERVER_PORT": "1", "RECALL_SERVER_PROT": "1"}
    also = unknown_variables(env, also=(ServerSettings,))
    assert also == [("RECALL_SERVER_PROT", "RECALL_SERVER_PORT")]
    assert [name for name, _ in unknown_variables(env)] == sorted(env)


def test_the_server_settings_import_without_the_server_extra() -> None:
    code = (
        "import sys, recall.server.settings; "
        "print(sorted(m for m in ('mcp', 'starlette', 'uvicorn', 'anyio', 'jinja2') "
        "if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stderr
