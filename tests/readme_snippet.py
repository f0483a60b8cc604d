"""Run the README's first Python snippet ("Use it") as written, in an empty folder.

Standalone (no pytest): ``make plain-install-check`` runs it with the Python of a fresh
``pip install .`` without extras, and tests/project/test_plain_install.py with the dev venv's. The
snippet answers a tool call that a model would have made, written in the snippet itself;
this script supplies nothing (it runs as a reader pastes it), then checks what the
snippet's own names hold. Exit 0 when it ran and found the note it stored.

    python tests/readme_snippet.py [README.md]
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parent.parent / "README.md"


def first_snippet(readme: Path = README) -> str:
    """The first ```python block of the README."""
    blocks = re.findall(r"```python\n(.*?)```", readme.read_text(encoding="utf-8"), re.S)
    if not blocks:
        raise SystemExit(f"no ```python block in {readme}")
    return str(blocks[0])


def run(source: str) -> dict[str, Any]:
    """Execute ``source`` in a fresh temporary folder; the names it left behind."""
    # Nothing is supplied: the snippet runs as a reader pastes it (issue 36).
    namespace: dict[str, Any] = {"__name__": "__readme__"}
    cwd = Path.cwd()
    with tempfile.TemporaryDirectory(prefix="recall-readme-") as tmp:
        os.chdir(tmp)
        try:
            exec(compile(source, str(README), "exec"), namespace)
        finally:
            mem = namespace.get("mem")
            if mem is not None:
                mem.close()
            os.chdir(cwd)
    return namespace


def main(argv: list[str]) -> int:
    """Run the snippet and check its results; print one line saying what was checked."""
    ns = run(first_snippet(Path(argv[0]) if argv else README))
    texts = [h.text for h in ns["hits"]]
    if not any("Redis" in t for t in texts):
        print(f"README snippet: the stored note was not recalled: {texts}", file=sys.stderr)
        return 1
    message = ns["tool_message"]
    if message.get("role") != "tool" or message.get("tool_call_id") != "call_1":
        print(f"README snippet: unexpected tool message {message}", file=sys.stderr)
        return 1
    print(f"README snippet ran: {len(texts)} hits, tool message of {len(message['content'])} chars")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
