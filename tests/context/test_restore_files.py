"""After a compaction the files the agent worked on come back with their content now, tied
to their paths even where the history cut the call's input or result."""

from __future__ import annotations

import json
from pathlib import Path

from recall.context.session import Session
from recall.context.workfiles import WorkFiles, disk_reader, operation_of, path_of
from recall.settings import Settings
from recall.text import count_tokens

# Small budgets so that a short session compacts; the restore limits are the documents'.
SETTINGS = Settings(
    context_window_tokens=200_000,
    compact_threshold_tokens=3_000,
    compact_target_tokens=600,
    compact_summary_tokens=300,
)


def big_file(lines: int) -> str:
    return "\n".join(f"def handler_{i}(event):\n    return route(event, {i})" for i in range(lines))


def work(session: Session, files: dict[str, str]) -> None:
    """Read a long module and edit it, write a long new file (its input over 500
    characters), write and edit a config, then chat until the session compacts."""
    module = big_file(2_000)  # about 100,000 characters
    session.add_user("Make handler_7 route to the audit queue.")
    session.add_tool_use("read_file", {"path": "src/handlers.py"}, "r1")
    session.add_tool_result("r1", module)
    old, new = "return route(event, 7)", "return route(event, 7, queue='audit')"
    session.add_tool_use(
        "str_replace", {"path": "src/handlers.py", "old_str": old, "new_str": new}, "e1"
    )
    session.add_tool_result("e1", "ok")
    files["src/handlers.py"] = module.replace(old, new, 1)
    written = "# Audit queue\n" + "\n".join(
        f"- rule {i}: keep events for {i} days" for i in range(60)
    )
    session.add_tool_use(
        "write_file", json.dumps({"path": "docs/audit.md", "content": written}), "w1"
    )
    session.add_tool_result("w1", "written")
    files["docs/audit.md"] = written
    session.add_tool_use(
        "create_file", {"file_path": "config/queues.toml", "content": "[audit]\nttl = 30\n"}, "w2"
    )
    session.add_tool_result("w2", "created")
    session.add_tool_use(
        "edit_file",
        {"file_path": "config/queues.toml", "old_string": "30", "new_string": "90"},
        "e2",
    )
    session.add_tool_result("e2", "edited")
    files["config/queues.toml"] = "[audit]\nttl = 90\n"
    session.add_assistant("Done: handler_7 routes to the audit queue; docs and config updated.")
    n = 0
    while not session.compactions:
        session.add_user(
            f"Next, step {n}: explain the retry policy of the audit queue once more. " * 6
        )
        session.add_assistant("The audit queue retries three times with exponential backoff. " * 6)
        n += 1


def test_every_file_read_or_written_comes_back_with_its_content_now() -> None:
    session = Session(settings=SETTINGS)
    files: dict[str, str] = {}
    work(session, files)
    restored = {i.key: i for i in session.compactions[0].restored}
    assert set(files) <= set(restored)  # all three, tied to their paths
    # The history cut the write's input at 500 characters: the path and text still came back.
    assert len(json.dumps({"content": files["docs/audit.md"]})) > 500
    assert restored["docs/audit.md"].content == files["docs/audit.md"]
    assert restored["config/queues.toml"].content == "[audit]\nttl = 90\n"
    # The 100,000-character module, edited: its head after the edit, cut to 8,192 tokens.
    module = restored["src/handlers.py"]
    assert module.operation == "edit" and "queue='audit'" in module.content
    assert files["src/handlers.py"].startswith(module.content.split("…[truncated")[0])
    assert module.tokens <= Settings().context.restore_item_tokens
    assert sum(i.tokens for i in restored.values()) <= Settings().context.restore_total_tokens
    assert "<restored_items>" in (session.restored_message or {}).get("content", "")


def test_the_hosts_reader_gives_the_file_as_it_is_on_disk(tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "queues.toml").write_text("[audit]\nttl = 120\n", encoding="utf-8")
    session = Session(settings=SETTINGS, read_file=disk_reader(tmp_path))
    work(session, {})
    restored = {i.key: i for i in session.compactions[0].restored}
    assert restored["config/queues.toml"].content == "[audit]\nttl = 120\n"  # disk wins
    assert restored["docs/audit.md"].content.startswith("# Audit queue")  # not on disk


def test_the_disk_reader_stays_under_its_root(tmp_path: Path) -> None:
    (tmp_path / "inside.txt").write_text("yes", encoding="utf-8")
    read = disk_reader(tmp_path / ".")
    assert read("inside.txt") == "yes"
    assert read("../outside.txt") is None and read("/etc/hostname") is None
    assert read("missing.txt") is None


def test_paths_operations_and_edits_are_read_from_the_full_input() -> None:
    assert path_of({"file_path": " a.py "}) == "a.py" and path_of('{"target": "b.md"}') == "b.md"
    assert path_of("not json") is None and path_of({"q": "x"}) is None
    assert [operation_of(n) for n in ("writeFile", "str_replace", "cat", "create_file")] == [
        "write",
        "edit",
        "read",
        "write",
    ]
    files = WorkFiles()
    files.call("1", "edit_file", {"path": "x.py", "old_string": "a", "new_string": "b"})
    assert files.content("x.py") is None  # edited but never seen: unknown
    files.call("2", "read_file", {"path": "x.py"})
    files.result("2", "a = 1")
    files.call("3", "edit_file", {"path": "x.py", "old_string": "a", "new_string": "b"})
    assert files.content("x.py") == "b = 1" and files.path("3") == "x.py"
    assert count_tokens(files.content("x.py") or "") > 0


def test_a_plan_or_todo_list_comes_back_whole_in_its_latest_state() -> None:
    session = Session(settings=SETTINGS)
    first = {"todos": [{"task": "migrate the billing job", "status": "in_progress"}]}
    session.add_user("Plan the migration.")
    session.add_tool_use("todo_write", first, "t1")
    session.add_tool_result("t1", "ok")
    steps = [
        {"task": f"step {i}: move queue q{i} to the new cluster", "status": "pending"}
        for i in range(12)
    ]
    latest = {"todos": [{"task": "migrate the billing job", "status": "done"}, *steps]}
    session.add_tool_use("todo_write", latest, "t2")  # over 500 characters: cut in history
    session.add_tool_result("t2", "ok")
    session.add_assistant("Planned.")
    work(session, {})
    restored = {i.key: i for i in session.compactions[0].restored}
    todo = restored["todo_write"]
    assert json.loads(todo.content) == latest and todo.kind == "tool"
