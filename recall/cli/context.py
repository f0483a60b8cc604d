"""``recall context``: build the context a model would see for a saved session, and its report.

The session file is JSON: either a list of OpenAI-format messages, or an object with
``messages`` and optionally ``soul``, ``user_input``, ``daily_log`` and ``awareness``. When
no current turn is given (``--input`` or ``user_input``), the file's last user message is it.
The memory section comes from the user's memory (``get_relevant_memories`` when the memory
offers it, else the long-term article); deep_recall hits are added when the turn asks for
them (``wants_deep_recall``) or with ``--recall``. The report ends with the usage of the
model's window and, from 60% on, the warning and its suggested action.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from ..errors import InputError
from .app import main, open_memory, path_option, url_option, user_option

__all__ = ["context_command", "load_session_file", "memory_section"]

_DEFAULT_SOUL = "You are a helpful assistant with a long-term memory."


def memory_section(mem: Any, user_input: str, user_id: str, max_tokens: int | None = None) -> str:
    """The memory text for the builder: relevant memories, else the long-term chapters."""
    relevant = getattr(mem, "get_relevant_memories", None)
    if callable(relevant):
        return str(relevant(user_input, user_id=user_id, max_tokens=max_tokens))
    article = mem.long_term(user_id)
    chapters = article.chapters() if hasattr(article, "chapters") else {}
    return "\n\n".join(f"## {name}\n\n{text}" for name, text in chapters.items() if text.strip())


def load_session_file(path: Path) -> dict[str, Any]:
    """The session file as a dict with ``messages`` (see the module docstring)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the session file {path}: {exc}") from exc
    except ValueError as exc:
        raise InputError(f"the session file {path} is not valid JSON: {exc}") from exc
    if isinstance(data, list):
        data = {"messages": data}
    if not isinstance(data, dict) or not isinstance(data.get("messages"), list):
        raise InputError(
            f"{path}: expected a JSON list of chat messages or an object with 'messages'"
        )
    return data


@main.command("context")
@user_option
@click.option(
    "--session",
    "session_file",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="JSON file: chat messages, or {messages, soul, user_input, daily_log, awareness}.",
)
@click.option("--input", "user_input", default=None, help="The current user turn.")
@click.option("--soul", default=None, help="The system persona (default: the file's 'soul').")
@click.option("--recall/--no-recall", "use_recall", default=None, help="Add deep_recall hits.")
@click.option("--json", "as_json", is_flag=True, help="Print messages and report as JSON.")
@path_option
@url_option
def context_command(
    user_id: str,
    session_file: Path,
    user_input: str | None,
    soul: str | None,
    use_recall: bool | None,
    as_json: bool,
    path: Path,
    chroma_url: str | None,
) -> None:
    """Print the context built for USER from the session FILE, and its report."""
    from ..context.builder import ContextBuilder
    from ..context.session import Session
    from ..tool import wants_deep_recall

    data = load_session_file(session_file)
    messages = list(data["messages"])
    turn = user_input if user_input is not None else data.get("user_input")
    if turn is None:
        last = messages[-1] if messages else None
        if not isinstance(last, dict) or last.get("role") != "user":
            raise InputError(
                "no current turn: pass --input TEXT, set 'user_input' in the file, "
                "or end the messages with a user message"
            )
        turn = messages.pop().get("content")
    if not isinstance(turn, str):
        raise InputError("the current user turn must be a string")
    with open_memory(path, chroma_url) as mem:
        session = Session.from_messages(messages, settings=mem.settings, auto_compact=False)
        builder = ContextBuilder(mem.settings)
        # Fitted to the room inside <memory> tags, so that the builder never re-cuts it
        # (get_relevant_memories chooses better what to drop than a re-cut can).
        memory = memory_section(mem, turn, user_id, builder.section_room("memory"))
        want = wants_deep_recall(turn) if use_recall is None else use_recall
        hits = mem.deep_recall(turn, user_id=user_id) if want and turn.strip() else []
        built = builder.build(
            session=session,
            soul=soul if soul is not None else str(data.get("soul") or _DEFAULT_SOUL),
            user_input=turn,
            memory=memory,
            recall_hits=hits,
            daily_log=data.get("daily_log"),
            awareness=data.get("awareness"),
        )
    if as_json:
        out = {"messages": built.messages, "report": built.report.to_dict()}
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    for message in built.messages:
        click.echo(f"--- {message['role']}")
        if message.get("content"):
            click.echo(message["content"])
        for call in message.get("tool_calls") or ():
            fn = call["function"]
            click.echo(f"[tool call {call['id']}] {fn['name']}({fn['arguments']})")
    click.echo(f"=== {built.report}")
    click.echo(str(built.report.usage))
    warning = built.report.warning
    if warning is not None:  # also in the report line; here with what to do about it
        click.echo(
            f"{warning.level}: {warning.message} (action {warning.action}, "
            f"~{warning.rounds_left} rounds left)"
        )
        if warning.completed:
            click.echo(warning.completed)
