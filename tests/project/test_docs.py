"""Names in the docs are true: every ``recall.`` path imports, every ``RECALL_*`` variable and
setting named exists, every default quoted beside a setting is its default (issue 25).

docs/settings.md itself is generated from the code (tests/cli/test_cli.py checks it is fresh).
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from pydantic import BaseModel

from recall.errors import ConfigError
from recall.settings import GROUPS, Settings, reference

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SOURCES = sorted((ROOT / "recall").rglob("*.py"))
SPECS = sorted((ROOT / "indexes").glob("*.toml"))

#: ``recall.<name>`` that are files, not modules: the store in a memory folder.
FILE_NAMES = {"recall.sqlite3"}
#: Cited but stale, in a module another change is editing now; fixed there, drop it here.
PENDING: dict[str, str] = {}
#: ``RECALL_*`` variables read outside the settings.
OTHER_VARIABLES = {"RECALL_DEMO_PATH"}

_DOTTED = re.compile(r"(?<![\w./-])recall(?:\.[A-Za-z_]\w*)+")
_VARIABLE = re.compile(r"(?<![\w])RECALL_[A-Z0-9_]+")
_GROUPED = re.compile(r"\bsettings\.(\w+)\.(\w+)")
_FLAT_NAME = re.compile(r"(?<![\w])Settings\((\w+)=")
_SNAKE = re.compile(r"(?<![\w/-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/-]|\.\w)")
_NUMBER = r"(-?\d[\d_,.]*)"
_BESIDE = (
    re.compile(r"`(\w+)`[ ,(]+(?:default )?" + _NUMBER),  # `min_similarity` (0.25
    re.compile(_NUMBER + r"\s*\(`(\w+)`"),  # 0.25 (`min_similarity`
)


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for attr in parts[i:]:
            fields = (
                obj.model_fields if isinstance(obj, type) and issubclass(obj, BaseModel) else {}
            )
            if attr in fields:
                obj = fields[attr]
            elif hasattr(obj, attr):
                obj = getattr(obj, attr)
            else:
                return False
        return True
    return False


def _cited(paths: list[Path], pattern: re.Pattern[str]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in paths:
        for match in pattern.finditer(_text(path)):
            found.setdefault(match.group(0).rstrip("."), set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_dotted_recall_path_imports() -> None:
    cited = _cited([*DOCS, *SOURCES, *SPECS], _DOTTED)
    stale = {name: sorted(where) for name, where in cited.items() if not _resolves(name)}
    stale = {name: where for name, where in stale.items() if name not in FILE_NAMES}
    assert set(stale) <= set(PENDING), f"cited but not importable: {stale}"
    fixed = set(PENDING) - set(stale)
    assert not fixed, f"{fixed} now import: drop them from PENDING"


def test_every_recall_variable_is_a_setting() -> None:
    known = {variable for _, variable, _, _ in reference()} | OTHER_VARIABLES
    cited = _cited([*DOCS, *SOURCES, *SPECS], _VARIABLE)
    # A prefix (RECALL_LLM_*) names a group of variables, not one.
    unknown = {v: sorted(w) for v, w in cited.items() if not v.endswith("_") and v not in known}
    assert not unknown, f"no such setting: {unknown}"


def test_every_setting_named_in_code_form_exists() -> None:
    groups = {g.group: g for g in GROUPS}
    wrong = []
    for path in [*DOCS, *SOURCES]:
        text = _text(path)
        for group, field in _GROUPED.findall(text):
            if group in groups and field not in groups[group].model_fields:
                wrong.append(f"{path.name}: settings.{group}.{field}")
        for name in _FLAT_NAME.findall(text):
            if name in Settings.model_fields:  # a whole group
                continue
            try:
                Settings().replace(**{name: None})
            except ConfigError as exc:  # a bad value is fine here, an unknown name is not
                if "unknown setting" in str(exc):
                    wrong.append(f"{path.name}: Settings({name}=...)")
    assert not wrong, wrong


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_code_name_in_the_docs_exists_in_the_package(doc: Path) -> None:
    # A snake_case name in inline code (a setting, a parameter, a metadata key) must occur
    # somewhere in the package: a renamed setting leaves its old name behind here.
    words = {w for path in [*SOURCES, *SPECS] for w in re.findall(r"\w+", _text(path))}
    text = re.sub(r"```.*?```", "", _text(doc), flags=re.S)
    missing = {
        name
        for span in re.findall(r"`([^`\n]+)`", text)
        for name in _SNAKE.findall(span)
        if name not in words
    }
    assert not missing, f"{doc.name} names what the package does not have: {sorted(missing)}"


def _number(text: str) -> float:
    return float(text.rstrip(",.").replace(",", "").replace("_", ""))


@pytest.mark.parametrize("doc", [d for d in DOCS if d.name != "settings.md"], ids=lambda p: p.name)
def test_a_default_quoted_beside_a_setting_is_its_default(doc: Path) -> None:
    defaults = {name: f.default for g in GROUPS for name, f in g.model_fields.items()}
    text = _text(doc)
    quoted = [(m.group(1), m.group(2)) for m in _BESIDE[0].finditer(text)]
    quoted += [(m.group(2), m.group(1)) for m in _BESIDE[1].finditer(text)]
    wrong = [
        f"`{name}` {value} (default {defaults[name]})"
        for name, value in quoted
        if isinstance(defaults.get(name), int | float) and _number(value) != defaults[name]
    ]
    assert not wrong, f"{doc.name}: {wrong}"
