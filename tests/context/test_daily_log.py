"""The daily log producer: entries or a session's turns, newest kept, into the builder."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

import recall
from recall.context.builder import ContextBuilder
from recall.context.daily_log import LogEntry, daily_log, session_entries
from recall.context.session import Session
from recall.errors import InputError
from recall.settings import Settings
from recall.text import count_tokens

DAY = date(2026, 3, 5)


def at(hour: int, minute: int = 0, day: int = 5) -> datetime:
    return datetime(2026, 3, day, hour, minute, tzinfo=UTC)


def test_entries_become_timed_lines_oldest_first() -> None:
    entries: list[LogEntry | str] = [
        (at(23, 50, day=4), "yesterday's late deploy"),
        (at(9), "standup:\n  agreed to   ship v2"),
        ("10:30", "reviewed the billing PR"),
        (None, "an untimed note"),
        "a plain text entry",
        (at(11), "   "),  # nothing to log
    ]
    log = daily_log(entries, day=DAY)
    assert log == (
        "09:00 standup: agreed to ship v2\n10:30 reviewed the billing PR\n"
        "an untimed note\na plain text entry"
    )
    assert daily_log(entries).startswith("23:50 yesterday's late deploy\n09:00")  # no day
    assert daily_log([]) == ""


def test_the_newest_lines_are_kept_and_each_line_is_capped() -> None:
    entries = [(at(8, i), f"task {i} finished after a long review of the queue") for i in range(60)]
    entries.append((at(9, 30), "pasted log: " + "error line " * 500))
    st_ = Settings(daily_log_entry_tokens=40)
    log = daily_log(entries, budget_tokens=200, settings=st_)
    lines = log.split("\n")
    assert count_tokens(log) <= 200
    assert lines[-1].startswith("09:30 pasted log: error line") and "…[truncated" in lines[-1]
    assert count_tokens(lines[-1]) <= 40
    # The newest entries, as a run, oldest first.
    numbers = [int(ln.split()[2]) for ln in lines[:-1]]
    assert numbers == list(range(60 - len(numbers), 60)) and numbers
    assert daily_log(entries, budget_tokens=0, settings=st_) == ""


def test_a_session_becomes_one_entry_per_turn() -> None:
    s = Session(auto_compact=False)
    s.add_user("What is 100 CNY in USD?")
    s.add_tool_use("exchange_rate", {"from": "CNY", "to": "USD"}, "t1")
    s.add_tool_result("t1", '{"rate": 0.137}')
    s.add_assistant("About 13.70 USD.")
    s.add_user("And put the dentist on Friday's calendar. " + "Details. " * 300)
    s.add_tool_use("calendar_add", {"when": "Friday"}, "t2")
    s.add_tool_use("calendar_add", {"when": "Friday 9:00"}, "t3")
    s.add_tool_result("t2", "ok")
    s.add_tool_result("t3", "ok")
    s.add_user("thanks")
    entries = session_entries(s)
    assert [e[0] for e in entries] == [None, None, None]
    first, second, third = (e[1] for e in entries)
    assert first == "What is 100 CNY in USD? → [exchange_rate] → About 13.70 USD."
    assert second.startswith("And put the dentist on Friday's calendar.")
    assert second.endswith("→ [calendar_add]") and "…[truncated" in second
    assert third == "thanks"
    half = s.settings.context.daily_log_entry_tokens // 2
    assert count_tokens(second.split(" → ")[0]) <= half
    with pytest.raises(InputError, match=r"\(time, text\) pair"):
        daily_log([(at(9), "ok", "extra")])  # type: ignore[list-item]
    with pytest.raises(InputError, match=r"\(time, text\) pair"):
        daily_log([(9, "ok")])  # type: ignore[list-item]


def test_the_log_goes_into_its_section_within_budget() -> None:
    st_ = Settings(daily_log_budget_tokens=120)
    b = ContextBuilder(st_)
    entries = [(at(8, i), f"handled ticket {i} for the billing team") for i in range(40)]
    log = daily_log(entries, budget_tokens=b.section_room("daily_log"), settings=st_)
    built = b.build(session=Session(), soul="You are Lark.", user_input="hi", daily_log=log)
    main = built.messages[0]["content"]
    assert f"<daily_log>\n{log}\n</daily_log>" in main
    assert "08:39 handled ticket 39" in main and "ticket 0 " not in main
    assert built.report.sections["daily_log"] <= 120 and built.report.cuts == ()
    # At the section's whole budget (not its room) the builder trims the oldest line.
    loose = daily_log(entries, settings=st_)
    again = b.build(session=Session(), soul="You are Lark.", user_input="hi", daily_log=loose)
    assert "08:39 handled ticket 39" in again.messages[0]["content"]
    assert again.report.sections["daily_log"] <= 120
    assert [c.section for c in again.report.cuts] == ["daily_log"]
    # A session's turns, through the same door.
    s = Session(auto_compact=False)
    s.add_user("Book the train to Porto.")
    s.add_assistant("Booked the 9:05 train to Porto.")
    turns = daily_log(session_entries(s), budget_tokens=b.section_room("daily_log"))
    built = b.build(session=Session(), soul="You are Lark.", user_input="hi", daily_log=turns)
    assert (
        "<daily_log>\nBook the train to Porto. → Booked the 9:05 train to Porto.\n</daily_log>"
        in built.messages[0]["content"]
    )


def test_the_days_log_is_built_from_what_the_memory_stored(mem: recall.Memory) -> None:
    zone = timezone(timedelta(hours=8))
    today = datetime(2026, 3, 14, 9, 30, tzinfo=zone)
    yesterday = today - timedelta(days=1)
    talk = [
        {"role": "user", "content": "The billing job failed again at 02:00."},
        {"role": "assistant", "content": "Raise its retries to 5 and alert after the third."},
        {"role": "user", "content": "Done. And the invoices export?"},
        {"role": "assistant", "content": "Move it to the night queue."},
    ]
    mem.update_memory(talk, user_id="u1", at=today)
    mem.update_memory(
        [{"role": "user", "content": "Yesterday's topic: the office move."}],
        user_id="u1",
        at=yesterday,
    )
    mem.update_memory(
        "The user planned the quarter's roadmap.", user_id="u1", at=today + timedelta(hours=2)
    )
    mem.update_memory([{"role": "user", "content": "Another user's day."}], user_id="u2", at=today)
    mem.flush()
    log = mem.daily_log("u1", day=today.date(), tz=zone)
    lines = log.split("\n")
    assert lines[0] == (
        "09:30 The billing job failed again at 02:00. → Raise its retries to 5 and alert after "
        "the third."
    )
    assert lines[1] == "09:30 Done. And the invoices export? → Move it to the night queue."
    assert lines[2] == "11:30 The user planned the quarter's roadmap."  # a summary without turns
    assert len(lines) == 3  # not yesterday's, not the summary of today's turns, not u2's
    assert "office move" in mem.daily_log("u1", day=yesterday.date(), tz=zone)
    assert mem.daily_log("u1", day=(today + timedelta(days=3)).date(), tz=zone) == ""
    # Read in another zone the same turns fall on another day.
    assert mem.daily_log("u1", day=today.date(), tz=timezone(timedelta(hours=-12))) == ""
    # Within a budget the newest lines are kept.
    short = mem.daily_log("u1", day=today.date(), tz=zone, budget_tokens=20)
    assert short and short in log and "roadmap" in short and "billing" not in short
