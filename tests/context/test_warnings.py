"""Usage warnings: measured against the model's window, a message and an action per level,
a cooldown per level (critical always fires), and the 92% auto-compaction reachable."""

from __future__ import annotations

import json

import pytest

from recall.context.budget import progress_bar
from recall.context.builder import ContextBuilder
from recall.context.session import Session
from recall.context.usage import (
    UsageWarning,
    conversation_language,
    measure_usage,
    usage_warning,
)
from recall.errors import ConfigError
from recall.settings import Settings
from recall.text import count_tokens

SOUL = "You are Lark."
OVERHEAD = Settings().context.message_overhead_tokens


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def fill(session: Session, tokens: int, text: str = "word ") -> None:
    """Rounds (a user turn and a reply) until the session sends at least ``tokens``."""
    while session.sent_tokens < tokens:
        session.add_user(text * 40)
        session.add_assistant(text * 40)


def small_window() -> Settings:
    """A 2,000-token window whose history threshold (100,000) is never reached: the
    window fills first, so the 92% level compacts."""
    return Settings(
        context_window_tokens=2_000,
        history_budget_tokens=100_000,
        compact_threshold_tokens=100_000,
        compact_target_tokens=400,
        compact_summary_tokens=200,
    )


def test_each_level_has_its_message_and_action() -> None:
    c = Settings(context_window_tokens=10_000).context
    assert usage_warning(measure_usage(5_900, history_tokens=0, rounds=0, settings=c)) is None
    at = {
        used: usage_warning(measure_usage(used, history_tokens=used, rounds=10, settings=c))
        for used in (6_000, 8_349, 9_200)
    }
    assert at[6_000] == UsageWarning(
        "warning", "context 60% full: consider wrapping up or summarizing", "wrap_up", 5
    )  # (9,200 - 6,000) / 600 tokens a round = 5.3 rounds
    assert at[8_349] == UsageWarning("urgent", "context 83% full: compaction soon", "summarize", 1)
    assert at[9_200] == UsageWarning(
        "critical", "context 92% full: compacting now", "auto_compact", 0
    )
    # A session that does not compact by itself asks its host to.
    critical = measure_usage(9_500, history_tokens=0, rounds=0, settings=c)
    assert usage_warning(critical, auto_compact=False) == UsageWarning(
        "critical", "context 95% full: compact now", "compact", 0
    )
    # Before the first round a round is estimated at 1.75% of the window (175 tokens).
    assert measure_usage(0, history_tokens=0, rounds=0, settings=c).rounds_left == 52


def test_usage_is_measured_against_the_window_with_default_settings() -> None:
    # 60% of the 128,000-token window is 76,800 tokens: far over the 40,000-token history
    # budget, so only a session that does not compact (or a long turn) gets there; before,
    # usage was measured against the history budget and 30,000 compacted first, so urgent
    # and critical could never be seen.
    s = Session(auto_compact=False)
    s.add_user("word " * 80_000)
    u = s.usage()
    assert u.budget == 128_000
    assert u.used == s.sent_tokens == s.tokens == count_tokens("word " * 80_000) + OVERHEAD
    assert u.level == "warning" and u.bar == progress_bar(u.ratio)
    w = s.warning()
    assert w is not None and w.message == "context 63% full: consider wrapping up or summarizing"
    s.add_assistant("word " * 25_000)
    assert s.usage().level == "urgent"
    w = s.warning()
    assert w is not None and w.level == "urgent" and w.action == "summarize"


def test_the_same_level_is_not_repeated_within_the_cooldown() -> None:
    clock = Clock()
    s = Session(settings=Settings(context_window_tokens=1_000), auto_compact=False, clock=clock)
    assert s.settings.context.warning_cooldown_s == 300.0  # five minutes by default
    fill(s, 150)
    assert s.usage().level == "normal" and s.warning() is None
    fill(s, 600)
    first = s.warning()
    assert first is not None and first.level == "warning"
    assert s.warning() is None  # asked again at once: quiet
    clock.now += 299
    assert s.warning() is None
    clock.now += 1  # the cooldown has passed
    again = s.warning()
    assert again is not None and again.level == "warning"
    # A new level warns at once; then it too is quiet for the cooldown.
    fill(s, 800)
    urgent = s.warning()
    assert urgent is not None and urgent.level == "urgent" and s.warning() is None
    # Critical always fires, however often it is asked.
    fill(s, 920)
    for _ in range(3):
        w = s.warning()
        assert w is not None and w.level == "critical" and w.rounds_left == 0
        assert w.action == "compact"  # this session does not compact by itself


def test_a_zero_cooldown_repeats_every_warning() -> None:
    s = Session(settings=Settings(context_window_tokens=1_000, warning_cooldown_s=0))
    fill(s, 650)
    first = s.warning()
    assert first is not None and first.level == "warning" and s.warning() == first


def test_92_percent_of_the_window_compacts_though_the_threshold_is_higher() -> None:
    # The history threshold (100,000) is never reached: the window (2,000) fills first.
    st_ = small_window()
    s = Session(settings=st_, clock=Clock())
    rounds = iter(range(1_000))

    def one_round() -> None:
        i = next(rounds)
        s.add_user(f"Please keep the retry limit of job {i} at {i % 7 + 2} attempts. " * 4)
        s.add_assistant(f"Noted: job {i} retries {i % 7 + 2} times.")

    while not s.compactions:
        before = s.sent_tokens
        one_round()
    c = s.compactions[0]
    assert before < 0.92 * 2_000 <= c.tokens_before
    assert s.sent_tokens < 0.92 * 2_000 and s.usage().level != "critical"
    # No longer critical, but the compaction's own warning is shown, once.
    w = s.warning()
    assert w is not None and w.level == "critical" and w.action == "auto_compact"
    assert w.message.endswith("% full: compacting now") and w.rounds_left == 0
    assert w.completed == "✅ memory compacted: the conversation can continue"
    assert s.usage().level != "normal" or s.warning() is None
    # It goes on compacting at 92% of the window, never over it (a round is ~80 tokens).
    most = 0
    while len(s.compactions) < 3:
        one_round()
        most = max(most, s.sent_tokens)
    assert most < 0.92 * 2_000
    assert all(0.9 * 2_000 <= c.tokens_before < 100_000 for c in s.compactions)


def test_at_the_default_window_a_long_session_passes_every_level_in_order() -> None:
    clock = Clock()
    seen: list[tuple[str, int, bool]] = []  # (level, rounds left, compacted yet)
    notices: list[tuple[UsageWarning, int]] = []
    s = Session(clock=clock)
    s.on_compaction = lambda w: notices.append((w, len(s.compactions)))
    while not s.compactions:
        s.add_user("Please keep the retry limit at 5 for the billing job. " * 50)
        s.add_assistant("Noted: the billing job retries 5 times. " * 50)
        clock.now += 60
        w = s.warning()
        if w is not None:
            seen.append((w.level, w.rounds_left, bool(s.compactions)))
    # Each level again after its 5-minute cooldown; in order, and critical last.
    levels = [level for level, _, _ in seen]
    assert list(dict.fromkeys(levels)) == ["warning", "urgent", "critical"]
    assert levels.index("urgent") > max(i for i, v in enumerate(levels) if v == "warning")
    lefts = [left for _, left, _ in seen]
    assert lefts == sorted(lefts, reverse=True) and lefts[-2] > 0  # rounds left fall
    assert seen[-1][2]  # the critical warning a host pulls comes after it ran, completed
    # The callback heard "compacting now" before the compaction and the completion after.
    (before, n_before), (after, n_after) = notices
    assert before.message.endswith("% full: compacting now") and before.completed is None
    assert (n_before, n_after) == (0, 1) and after.completed is not None
    first = s.compactions[0]
    assert 0.92 * 128_000 <= first.tokens_before < 128_000
    assert s.usage().level == "normal"


def test_a_fixed_history_threshold_compacts_first() -> None:
    # The token-budget document's fixed budget: compact the history at 30,000 tokens.
    st_ = Settings(history_budget_tokens=40_000, compact_threshold_tokens=30_000)
    s = Session(settings=st_)
    while not s.compactions:
        s.add_user("Please keep the retry limit at 5 for the billing job. " * 50)
        s.add_assistant("Noted: the billing job retries 5 times. " * 50)
    assert 30_000 <= s.compactions[0].tokens_before < 0.6 * 128_000
    assert s.usage().level == "normal" and s.warning() is None


def test_the_builders_system_sections_count_toward_the_level() -> None:
    st_ = Settings(context_window_tokens=4_000, warning_cooldown_s=0)
    s = Session(settings=st_, auto_compact=False)
    fill(s, 1_900)
    assert s.usage().level == "normal"
    soul = "You are Lark, a careful assistant. " * 100  # about 800 tokens
    report = ContextBuilder(st_).build(session=s, soul=soul, user_input="go on").report
    assert s.gauge.outside_tokens == report.sections["system"] > 700
    assert report.usage.used == s.sent_tokens + report.sections["system"]
    assert report.level == "warning"


@pytest.mark.parametrize(
    ("usage", "total"),
    [
        ({"prompt_tokens": 2_900, "completion_tokens": 100, "total_tokens": 3_000}, 3_000),
        (  # OpenAI: cached tokens are already part of prompt_tokens
            {
                "prompt_tokens": 2_900,
                "completion_tokens": 100,
                "prompt_tokens_details": {"cached_tokens": 2_000},
            },
            3_000,
        ),
        ({"input_tokens": 2_950, "output_tokens": 50}, 3_000),  # the Responses API
        (  # Anthropic: input_tokens leaves the cache reads and writes out
            {
                "input_tokens": 400,
                "output_tokens": 100,
                "cache_read_input_tokens": 2_000,
                "cache_creation_input_tokens": 500,
            },
            3_000,
        ),
        ({"promptTokenCount": 2_990, "candidatesTokenCount": 10}, 3_000),  # Gemini
    ],
)
def test_a_reported_usage_sets_the_level(usage: dict[str, object], total: int) -> None:
    st_ = Settings(context_window_tokens=4_000, warning_cooldown_s=0)
    s = Session(settings=st_, auto_compact=False)
    fill(s, 1_000)
    assert s.usage().level == "normal"
    assert s.record_usage(usage) == total
    assert s.usage().used == total and s.usage().level == "warning"  # 3,000 of 4,000: 75%
    # What the API counted beside the history stays counted as the history grows, and a
    # build no longer replaces it with its own system count.
    s.add_user("one more thing")
    assert s.usage().used == total + s.message_tokens[-1]
    ContextBuilder(st_).build(session=s, soul=SOUL, user_input="and?")
    assert s.usage().used == total + s.message_tokens[-1]


def test_a_usage_object_of_an_sdk_is_read_and_an_empty_one_ignored() -> None:
    from openai.types import CompletionUsage

    s = Session(settings=Settings(context_window_tokens=4_000), auto_compact=False)
    fill(s, 500)
    assert (
        s.record_usage(CompletionUsage(prompt_tokens=900, completion_tokens=50, total_tokens=950))
        == 950
    )
    assert s.usage().used == 950
    assert s.record_usage({}) is None and s.record_usage(None) is None
    assert s.usage().used == 950


def test_the_report_carries_the_warning_once_per_cooldown() -> None:
    st_ = Settings(context_window_tokens=4_000, history_budget_tokens=4_000)
    clock = Clock()
    s = Session(settings=st_, auto_compact=False, clock=clock)
    fill(s, 2_700)
    b = ContextBuilder(st_)
    built = b.build(session=s, soul=SOUL, user_input="and now?")
    r = built.report
    assert r.level == "warning" and r.usage.budget == 4_000
    assert r.warning is not None and r.warning.level == "warning"
    assert r.warning.message.startswith("context ") and "consider wrapping up" in r.warning.message
    data = r.to_dict()
    json.dumps(data)  # plain data
    assert data["warning"] == {
        "level": "warning",
        "message": r.warning.message,
        "action": "wrap_up",
        "rounds_left": r.usage.rounds_left,
        "completed": None,
    }
    assert f"warning: {r.warning.message}" in str(r)
    # The next build within the cooldown: the level stays, the warning is not repeated.
    again = b.build(session=s, soul=SOUL, user_input="and now?").report
    assert again.level == "warning" and again.warning is None and again.to_dict()["warning"] is None
    clock.now += 301
    assert b.build(session=s, soul=SOUL, user_input="and now?").report.warning == r.warning


def test_a_critical_compaction_shows_in_the_next_report() -> None:
    st_ = Settings(
        context_window_tokens=2_000,
        compact_threshold_tokens=50_000,
        compact_target_tokens=300,
        compact_summary_tokens=200,
    )
    s = Session(settings=st_)
    while not s.compactions:
        s.add_user("The deploy window is Friday at 16:00 UTC. " * 8)
        s.add_assistant("Understood, Friday 16:00 UTC. " * 8)
    report = ContextBuilder(st_).build(session=s, soul=SOUL, user_input="when?").report
    assert report.compaction is not None and report.compaction["tokens_before"] >= 1_840
    assert report.warning is not None and report.warning.level == "critical"
    assert report.warning.action == "auto_compact" and report.level != "critical"


def test_a_negative_cooldown_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="warning_cooldown_s"):
        Settings(warning_cooldown_s=-1)


def test_counts_are_exact() -> None:
    s = Session(settings=Settings(context_window_tokens=1_000), auto_compact=False)
    s.add_user("word " * 300)
    assert s.usage().used == count_tokens("word " * 300) + OVERHEAD


def test_every_level_speaks_the_conversations_language() -> None:
    c = Settings(context_window_tokens=10_000).context
    at = {
        used: usage_warning(
            measure_usage(used, history_tokens=used, rounds=10, settings=c), lang="zh"
        )
        for used in (6_000, 8_349, 9_200)
    }
    assert [w.message if w else None for w in at.values()] == [
        "🟡 记忆使用量较高 (60%)",
        "🟠 记忆空间紧张,建议手动整理 (83%)",
        "🔴 记忆空间已满,正在整理... (92%)",
    ]
    assert [w.action if w else None for w in at.values()] == [
        "wrap_up",
        "summarize",
        "auto_compact",
    ]
    critical = measure_usage(9_500, history_tokens=0, rounds=0, settings=c)
    manual = usage_warning(critical, auto_compact=False, lang="zh")
    assert manual is not None and manual.message.startswith("🔴") and manual.action == "compact"


def test_the_conversations_language_is_the_users() -> None:
    zh = [
        {
            "role": "user",
            "content": "帮我看看这个报错: TypeError: 'NoneType' object is not iterable",
        },
        {"role": "assistant", "content": "The variable is None here."},
    ]
    assert conversation_language(zh) == "zh"  # an English error quoted in Chinese
    en = [{"role": "user", "content": "Rename 用户 to user in the schema, please."}]
    assert conversation_language(en) == "en"
    blocks = [{"role": "user", "content": [{"type": "text", "text": "继续写测试吧"}]}]
    assert conversation_language(blocks) == "zh"
    assert conversation_language([]) == "en"


def test_a_chinese_session_is_warned_and_told_the_compaction_is_done_in_chinese() -> None:
    st_ = small_window()
    s = Session(settings=st_, clock=Clock())
    i = 0
    while not s.compactions:
        s.add_user(f"请把第{i}号任务的重试次数保持在{i % 7 + 2}次,别改。" * 4)
        s.add_assistant(f"好的,任务{i}重试{i % 7 + 2}次。")
        i += 1
    w = s.warning()
    assert w is not None and w.level == "critical"
    assert w.message.startswith("🔴 记忆空间已满,正在整理...")
    assert w.completed == "✅ 记忆整理完成,对话可以继续"


def test_the_prompt_and_the_proposal_follow_the_conversations_language() -> None:
    from recall import (
        DEEP_RECALL_PROMPT_EN,
        DEEP_RECALL_PROMPT_ZH,
        deep_recall_prompt,
        proposal_text,
    )

    zh = [{"role": "user", "content": "帮我看看这个报错:KeyError: 'user_id' 是怎么回事"}]
    en = [{"role": "user", "content": "Can you look at this KeyError for me?"}]
    assert deep_recall_prompt(zh) == DEEP_RECALL_PROMPT_ZH
    assert deep_recall_prompt(en) == deep_recall_prompt() == DEEP_RECALL_PROMPT_EN
    assert proposal_text(zh) == "关于这个，我需要深度回忆一下，可以吗？"
    assert proposal_text("我们上次说到哪了") == proposal_text(zh)
    assert proposal_text(en).endswith("may I?")
