"""Names in the docs are true: every ``recall.`` path imports, every ``RECALL_*`` variable and
setting named exists, every default quoted beside a setting is its default (issue 25); every
relative link leads to a file and heading that exist, every public name has its entry in the
API reference, and README.md stays a front page (issue 34).

The docs are README.md, docs/*.md (the site mkdocs.yml builds) and benchmarks/README.md (the
measurements). docs/settings.md itself is generated from the code (tests/cli/test_cli.py
checks it is fresh); docs/api.md is rendered by mkdocstrings (`make docs`).
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from pydantic import BaseModel

from recall.errors import ConfigError
from recall.server.settings import ServerSettings
from recall.settings import GROUPS, OTHER_VARIABLES, Settings, reference

ROOT = Path(__file__).resolve().parents[2]
DOCS = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    ROOT / "benchmarks" / "README.md",
]
SOURCES = sorted((ROOT / "recall").rglob("*.py"))
SPECS = sorted((ROOT / "indexes").glob("*.toml"))

#: ``recall.<name>`` that are files, not modules: the store in a memory folder.
FILE_NAMES = {"recall.sqlite3"}
#: Cited but stale, in a module another change is editing now; fixed there, drop it here.
PENDING: dict[str, str] = {}
#: ``RECALL_*`` variables read outside the settings.
#: Names in inline code that are data, not code: a dataset's folder (benchmarks/README.md).
DATA_NAMES = {"timeline_dev"}
#: The measurements quote the values that were tried beside a setting, not its default.
MEASUREMENTS = ROOT / "benchmarks" / "README.md"

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
    known = {variable for _, variable, _, _ in reference(also=(ServerSettings,))}
    known |= OTHER_VARIABLES
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


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_code_name_in_the_docs_exists_in_the_package(doc: Path) -> None:
    # A snake_case name in inline code (a setting, a parameter, a metadata key) must occur
    # somewhere in the package: a renamed setting leaves its old name behind here.
    words = {w for path in [*SOURCES, *SPECS] for w in re.findall(r"\w+", _text(path))}
    text = re.sub(r"```.*?```", "", _text(doc), flags=re.S)
    missing = {
        name
        for span in re.findall(r"`([^`\n]+)`", text)
        for name in _SNAKE.findall(span)
        if name not in words | DATA_NAMES
    }
    assert not missing, f"{doc.name} names what the package does not have: {sorted(missing)}"


def _number(text: str) -> float:
    return float(text.rstrip(",.").replace(",", "").replace("_", ""))


@pytest.mark.parametrize(
    "doc",
    [d for d in DOCS if d.name != "settings.md" and d != MEASUREMENTS],
    ids=lambda p: str(p.relative_to(ROOT)),
)
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


# --- links, the API reference, the front page (issue 34) ----------------------------------
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
_LINK = re.compile(r"!?\[[^\]\n]*\]\(([^)\s]+)\)")
_HTML_LINK = re.compile(r"""\b(?:href|src)=["']([^"']+)["']""")
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)


def _prose(text: str) -> str:
    """The text outside fenced code blocks and inline code spans."""
    return re.sub(r"`[^`\n]*`", "", _FENCE.sub("", text))


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub writes it (mkdocs' toc agrees on these pages)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    anchors = set()
    for heading in _HEADING.findall(_FENCE.sub("", _text(path))):
        slug = _slug(heading)
        anchors.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
        seen[slug] = seen.get(slug, 0) + 1
    return anchors


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_points_at_a_file_that_exists(doc: Path) -> None:
    prose = _prose(_text(doc))
    broken = []
    for target in [*_LINK.findall(prose), *_HTML_LINK.findall(prose)]:
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("//"):
            continue  # https:, mailto: ...: not a file of the repository
        path, _, anchor = target.partition("#")
        dest = (ROOT / path.lstrip("/") if path.startswith("/") else doc.parent / path).resolve()
        if not path:
            dest = doc
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(f"{target}: no such heading in {dest.relative_to(ROOT)}")
    assert not broken, f"{doc.relative_to(ROOT)}: {broken}"


def test_every_public_name_has_an_entry_in_the_api_reference() -> None:
    import recall

    entries = re.findall(r"^::: recall\.(\w+)\s*$", _text(ROOT / "docs" / "api.md"), re.M)
    assert len(entries) == len(set(entries)), "an entry is listed twice"
    missing = sorted(set(recall.__all__) - set(entries))
    assert not missing, f"docs/api.md has no `::: recall.NAME` entry for {missing}"
    private = sorted(set(entries) - set(recall.__all__))
    assert not private, f"docs/api.md renders names that are not in recall.__all__: {private}"


def test_every_page_is_in_the_site() -> None:
    nav = re.findall(r"^\s*- [^:\n]+: (\S+\.md)\s*$", _text(ROOT / "mkdocs.yml"), re.M)
    pages = sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    assert sorted(nav) == pages, "mkdocs.yml's nav and docs/*.md differ"


def test_the_readme_is_a_front_page() -> None:
    readme = _text(ROOT / "README.md")
    assert len(readme.splitlines()) <= 200, "README.md is the front page: the rest goes in docs/"
    # It opens with the two commands, and prints the one CI runs (.ci/run).
    commands = re.findall(r"^make (\w+) ", readme.split("```sh\n", 1)[1].split("```")[0], re.M)
    assert commands[:2] == ["demo", "test"] and "check" in commands
    # The site's home shows the README's quick start, the snippet tests/readme_snippet.py runs.
    first = re.compile(r"```python\n(.*?)```", re.S)
    home = first.search(_text(ROOT / "docs" / "index.md"))
    quick = first.search(readme)
    assert home is not None and quick is not None
    assert home.group(1) == quick.group(1), "docs/index.md's quick start differs from README's"
