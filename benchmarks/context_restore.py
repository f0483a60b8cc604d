"""After a compaction, how many of the files an agent worked on come back with their content.

    .venv/bin/python benchmarks/context_restore.py [--files 12] [--out FILE.json]

A coding session at the default settings touches ``--files`` files, each one way: read
(some over 100,000 characters), written (the text in the call's input, most inputs over the
500 characters the history keeps), edited after a read (old → new), or written then
edited; chat follows until the session compacts at the 92% level. Counted: the files whose
restored content is their content now (for a file over the 8,192-token item limit: its
head, cut visibly), and whether all of them fit the documents' limits (20 items, 32,768
tokens in all). Before this change the history's cut inputs and results were all a restore
had: a long write lost its path, an edit came back as its tool's "ok".
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from recall.context.session import Session
from recall.settings import Settings

_WAYS = ("read", "read_big", "write", "edit", "write_edit")


def body(path: str, lines: int) -> str:
    return "\n".join(
        f"# {path}: line {i}, handler_{i} routes to queue_{i % 7}" for i in range(lines)
    )


def run(files: int) -> dict[str, Any]:
    session = Session(settings=Settings())
    now: dict[str, str] = {}
    for n in range(files):
        way, path = _WAYS[n % len(_WAYS)], f"src/module_{n}.py"
        session.add_user(f"Step {n}: work on {path}.")
        if way in ("read", "read_big", "edit"):
            text = body(path, 2_000 if way == "read_big" else 40)
            session.add_tool_use("read_file", {"path": path}, f"r{n}")
            session.add_tool_result(f"r{n}", text)
            now[path] = text
        if way in ("write", "write_edit"):
            text = body(path, 30)
            session.add_tool_use("write_file", {"path": path, "content": text}, f"w{n}")
            session.add_tool_result(f"w{n}", "written")
            now[path] = text
        if way in ("edit", "write_edit"):
            old, new = "queue_3", "queue_audit"
            args = {"path": path, "old_string": old, "new_string": new}
            session.add_tool_use("str_replace", args, f"e{n}")
            session.add_tool_result(f"e{n}", "ok")
            now[path] = now[path].replace(old, new, 1)
        session.add_assistant(f"Done with {path}.")
    rounds = 0
    while not session.compactions:
        session.add_user("Explain the retry policy of the audit queue once more, in detail. " * 40)
        session.add_assistant("The audit queue retries three times with exponential backoff. " * 40)
        rounds += 1
    restored = {i.key: i for i in session.compactions[0].restored}
    good = []
    for path, text in now.items():
        item = restored.get(path)
        if item is None:
            continue
        head = item.content.split("…[truncated")[0]
        if item.content == text or (item.content.endswith("chars]") and text.startswith(head)):
            good.append(path)
    s = Settings().context
    return {
        "files": len(now),
        "restored_with_content": len(good),
        "restored_items": len(restored),
        "restored_tokens": sum(i.tokens for i in restored.values()),
        "within_limits": len(restored) <= s.restore_max_items
        and sum(i.tokens for i in restored.values()) <= s.restore_total_tokens,
        "chat_rounds_to_compaction": rounds,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", type=int, default=12)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    r = run(args.files)
    print(
        f"{r['restored_with_content']} of {r['files']} files came back with their content now; "
        f"{r['restored_items']} items, {r['restored_tokens']:,} tokens restored "
        f"(within the limits: {r['within_limits']})"
    )
    if args.out:
        args.out.write_text(json.dumps(r, indent=2) + "\n")


if __name__ == "__main__":
    main()
