import re
from pathlib import Path

import pytest

from recall import ConfigError, Settings
from recall.server.settings import ServerSettings
from recall.settings import GROUPS, env_name, reference


def test_design_defaults() -> None:
    s = Settings()
    assert s.retrieval.alpha == 0.5
    assert s.lifecycle.summarize_threshold_tokens == 80_000
    assert (s.lifecycle.short_term_capacity, s.lifecycle.promote_count) == (20, 5)
    assert (
        s.context.history_budget_tokens,
        s.context.compact_threshold_tokens,
        s.context.compact_target_tokens,
    ) == (None, None, 15_000)
    # Unset, the history takes what the system sections leave of the window and compacts
    # at the critical level (docs/design.md: the token-budget figures are a fixed preset).
    assert (
        s.context.soul_budget_tokens,
        s.context.memory_budget_tokens,
        s.context.system_budget_tokens,
    ) == (
        3_000,
        4_000,
        15_000,
    )
    assert (s.context.warning_ratio, s.context.urgent_ratio, s.context.critical_ratio) == (
        0.6,
        0.8,
        0.92,
    )
    assert s.storage.vector_partitions == 64
    assert s.retrieval.recall_kinds == ("note", "short_term", "dynamic", "fact")
    assert s.retrieval.archive_kinds == ("archive", "turn")


def test_env_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECALL_ALPHA", "0.3")
    monkeypatch.setenv("RECALL_VECTOR_PARTITIONS", "8")
    s = Settings()
    assert s.retrieval.alpha == 0.3 and s.storage.vector_partitions == 8


def test_invalid_values_rejected() -> None:
    with pytest.raises(ConfigError, match=r"alpha=1\.5 \(RECALL_ALPHA\)"):
        Settings(alpha=1.5)
    with pytest.raises(ConfigError, match="warning_ratio < urgent_ratio"):
        Settings(warning_ratio=0.9, urgent_ratio=0.8)
    with pytest.raises(ConfigError, match="unknown setting 'not_a_setting'"):
        Settings(not_a_setting=1)


def test_a_bad_environment_value_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECALL_ALPHA", "2")
    with pytest.raises(ConfigError, match=r"RECALL_ALPHA='2' \(environment\)"):
        Settings()
    monkeypatch.setenv("RECALL_ALPHA", "0.2")
    monkeypatch.setenv("RECALL_LLM_TIMEOUT_S", "-1")
    with pytest.raises(ConfigError, match="RECALL_LLM_TIMEOUT_S='-1'"):
        Settings()


def test_flat_names_groups_and_replace_agree() -> None:
    a = Settings(alpha=0.3, llm_model="m", path="x")
    b = Settings(retrieval={"alpha": 0.3}, llm={"model": "m"}, storage={"path": "x"})
    assert a == b and a.retrieval.alpha == 0.3 and a.llm.model == "m"
    c = Settings().replace(alpha=0.3, llm_model="m", path="x")
    assert c == a
    with pytest.raises(ConfigError, match="RECALL_ALPHA"):
        a.replace(alpha=7)  # replace validates, unlike pydantic's model_copy
    with pytest.raises(ConfigError, match="unknown setting"):
        a.replace(alhpa=0.1)


def test_every_field_is_documented_once() -> None:
    rows = list(reference())
    names = [r[0] for r in rows]
    envs = [r[1] for r in rows]
    assert len(set(names)) == len(names) and len(set(envs)) == len(envs)
    assert all(desc for *_, desc in rows)
    assert env_name(GROUPS[1], "alpha") == "RECALL_ALPHA"
    assert "RECALL_LLM_MODEL" in envs and "RECALL_PATH" in envs


def test_a_settings_file_sits_under_the_environment_and_the_code(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    toml = tmp_path / "recall.toml"
    toml.write_text("alpha = 0.4\nserver_port = 9003\n[retrieval]\ndefault_top_k = 3\n")
    monkeypatch.setenv("RECALL_SETTINGS_FILE", str(toml))
    s = Settings()
    assert (s.retrieval.alpha, s.retrieval.default_top_k) == (0.4, 3)
    assert ServerSettings.load().port == 9003  # the server's names are the server's
    monkeypatch.setenv("RECALL_ALPHA", "0.7")  # the environment over the file
    assert Settings().retrieval.alpha == 0.7
    assert Settings(alpha=0.1).retrieval.alpha == 0.1  # the code over both
    assert Settings(alpha=0.1).replace(fusion="rrf").retrieval.default_top_k == 3
    monkeypatch.delenv("RECALL_ALPHA")
    dotenv = tmp_path / ".env"
    dotenv.write_text('# ops\nRECALL_ALPHA=0.3\nexport RECALL_SERVER_PORT="9004"\n\n')
    monkeypatch.setenv("RECALL_SETTINGS_FILE", str(dotenv))
    assert (Settings().retrieval.alpha, ServerSettings.load().port) == (0.3, 9004)


@pytest.mark.parametrize(
    ("name", "text", "says"),
    [
        ("a.toml", "alpah = 0.4\n", "unknown setting 'alpah'"),
        ("a.toml", "[retrieval]\nport = 1\n", "unknown setting '[retrieval] port'"),
        ("a.toml", "alpha = \n", "is not TOML"),
        ("a.env", "RECALL_NO_SUCH=1\n", "unknown setting 'RECALL_NO_SUCH'"),
        ("a.toml", "alpha = 2.0\n", "alpha"),
    ],
)
def test_a_bad_settings_file_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str, text: str, says: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    monkeypatch.setenv("RECALL_SETTINGS_FILE", str(path))
    with pytest.raises(ConfigError, match=re.escape(says)):
        Settings()
    monkeypatch.setenv("RECALL_SETTINGS_FILE", str(tmp_path / "missing.toml"))
    with pytest.raises(ConfigError, match="cannot read the settings file"):
        Settings()
