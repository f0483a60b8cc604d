"""The awareness provider and its cache: asked at most once per period, no sleeps."""

from __future__ import annotations

from typing import Any

from recall.context.awareness import AwarenessProvider, CachedAwareness
from recall.context.builder import ContextBuilder
from recall.context.session import Session
from recall.settings import Settings
from recall.text import count_tokens


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


class Tools:
    """A provider whose tool list changes: each call says which version it is."""

    def __init__(self) -> None:
        self.calls = 0

    def awareness(self) -> list[dict[str, Any] | str]:
        self.calls += 1
        return [
            {"type": "function", "function": {"name": "calendar", "description": f"v{self.calls}"}},
            {"name": "exchange_rate", "description": "Currency rates.\nMore detail."},
            "can read PDFs",
        ]


def test_the_cache_asks_at_most_once_per_period() -> None:
    clock, tools = Clock(), Tools()
    assert isinstance(tools, AwarenessProvider)
    cached = CachedAwareness(tools, clock=clock)
    assert cached.ttl_s == Settings().context.awareness_cache_s == 300.0
    assert cached.text() == "- calendar: v1\n- exchange_rate: Currency rates.\n- can read PDFs"
    clock.now += 299.9
    assert cached()[0]["function"]["description"] == "v1" and tools.calls == 1  # type: ignore[index]
    clock.now += 0.1  # 300 s: stale
    assert cached.text().startswith("- calendar: v2") and tools.calls == 2
    cached.refresh()  # the tools changed: ask now
    assert cached.awareness()[0]["function"]["description"] == "v3"  # type: ignore[index]
    every = CachedAwareness(lambda: ["x"], ttl_s=0, clock=clock)
    assert every() == ["x"] and CachedAwareness(tools, settings={"awareness_cache_s": 5}).ttl_s == 5


def test_the_provider_goes_into_the_awareness_section_within_budget() -> None:
    clock, tools = Clock(), Tools()
    cached = CachedAwareness(tools, clock=clock)
    b = ContextBuilder(clock=clock)
    first = b.build(session=Session(), soul="You are Lark.", user_input="hi", awareness=cached)
    assert first.messages[0]["content"] == (
        "You are Lark.\n\n<awareness>\n- calendar: v1\n- exchange_rate: Currency rates.\n"
        "- can read PDFs\n</awareness>"
    )
    clock.now += 120
    again = b.build(session=Session(), soul="You are Lark.", user_input="hi", awareness=cached)
    assert again.messages == first.messages and tools.calls == 1
    # A bare provider: the builder caches it the same way, on its own clock.
    bare = Tools()
    for _ in range(3):
        b.build(session=Session(), soul="You are Lark.", user_input="hi", awareness=bare)
    assert bare.calls == 1
    clock.now += 300
    later = b.build(session=Session(), soul="You are Lark.", user_input="hi", awareness=bare)
    assert bare.calls == 2 and "- calendar: v2" in later.messages[0]["content"]
    # Within budget: a long list loses its last items, and the report says so.
    many = CachedAwareness(lambda: [f"tool_{i}: does thing {i}" for i in range(300)], clock=clock)
    tight = ContextBuilder(Settings(awareness_budget_tokens=100), clock=clock)
    built = tight.build(session=Session(), soul="You are Lark.", user_input="hi", awareness=many)
    section = built.messages[0]["content"].split("<awareness>\n")[1].split("\n</awareness>")[0]
    assert section.startswith("- tool_0: does thing 0") and "tool_299" not in section
    assert count_tokens(section) <= tight.section_room("awareness")
    assert built.report.sections["awareness"] <= 100
    assert [c.section for c in built.report.cuts] == ["awareness"]
