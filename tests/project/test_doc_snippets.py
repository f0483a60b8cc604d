"""Every Python snippet of README.md and docs/ runs as pasted (issue 36): each in a folder
of its own, in this process, with the real default models (nothing replaced).

A snippet that needs what a test machine cannot give as written (a PostgreSQL server at
``db:5432``) says so in an HTML comment on the line before it, ``<!-- snippet not run:
why -->``, and is listed here as skipped with that reason. The agent guide's snippets
drive the real agent frameworks against a stand-in model server: those run in
tests/integrations/test_snippets.py. ``pytest -v`` lists every snippet by file and line.
"""

from __future__ import annotations

import ast
import asyncio
import gc
import re
from pathlib import Path
from typing import NamedTuple

import pytest

import recall

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: Pages whose snippets run elsewhere, with the real frameworks they need.
ELSEWHERE = {"docs/agents.md": "tests/integrations/test_snippets.py"}
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
_NOT_RUN = re.compile(r"<!--\s*snippet not run:\s*(.*?)\s*-->\s*$")


class Snippet(NamedTuple):
    where: str  # page:line of the fence
    code: str
    not_run: str | None  # why, when the page says it cannot run as written


def snippets() -> list[Snippet]:
    """Every ```python block of the pages, with where it is and whether it may run."""
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        name = page.relative_to(ROOT).as_posix()
        for m in _BLOCK.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
            why = _NOT_RUN.search(before)
            why_not: str | None = why.group(1) if why else None
            if name in ELSEWHERE:
                why_not = f"run by {ELSEWHERE[name]}"
            out.append(Snippet(f"{name}:{line}", m.group(1), why_not))
    return out


SNIPPETS = snippets()


def test_the_pages_have_snippets_to_run() -> None:
    """The extraction finds the snippets (a changed fence style would silently run none)."""
    runnable = [s for s in SNIPPETS if s.not_run is None]
    assert len(runnable) >= 8, [s.where for s in SNIPPETS]
    assert any(s.where.startswith("README.md") for s in runnable)


@pytest.mark.real_model
@pytest.mark.slow
@pytest.mark.parametrize("snippet", SNIPPETS, ids=[s.where for s in SNIPPETS])
def test_snippet_runs_as_pasted(
    snippet: Snippet, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The snippet, exactly as the page shows it, runs to the end in an empty folder."""
    if snippet.not_run is not None:
        pytest.skip(snippet.not_run)
    monkeypatch.chdir(tmp_path)
    code = compile(snippet.code, snippet.where, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    namespace: dict[str, object] = {"__name__": "__snippet__"}
    try:
        pending = eval(code, namespace)  # the page's own code, as written
        if pending is not None:
            asyncio.run(pending)
    finally:
        for value in namespace.values():
            if isinstance(value, recall.Memory):
                value.close()
        gc.collect()
