"""recall.text.when: relative time expressions resolved against a fixed now (en and zh)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from recall import Settings
from recall.inputs import time_window
from recall.text import parse_bound, resolve_time, said_on
from recall.text.asking import asking_part

# Wednesday 18 March 2026, mid-afternoon.
NOW = datetime(2026, 3, 18, 15, 0, tzinfo=UTC)

# query -> (first day, last day) of the window, inclusive.
CASES = [
    ("what did I tell you yesterday?", "2026-03-17", "2026-03-17"),
    ("what did we talk about last night", "2026-03-17", "2026-03-17"),
    ("the day before yesterday I mentioned a book", "2026-03-16", "2026-03-16"),
    ("anything from today?", "2026-03-18", "2026-03-18"),
    ("a few days ago you suggested a recipe", "2026-03-11", "2026-03-17"),
    ("the other day we discussed Rust", "2026-03-11", "2026-03-17"),
    ("three days ago", "2026-03-14", "2026-03-16"),
    ("2 days ago", "2026-03-15", "2026-03-17"),
    ("what did I say last week?", "2026-03-09", "2026-03-15"),
    ("Last Week I mentioned a trip", "2026-03-09", "2026-03-15"),
    ("this week", "2026-03-16", "2026-03-22"),
    ("two weeks ago", "2026-03-02", "2026-03-08"),
    ("the week before last", "2026-03-02", "2026-03-08"),
    ("in the past two weeks", "2026-03-04", "2026-03-18"),
    ("over the last few days", "2026-03-15", "2026-03-18"),  # a few: three, up to today
    ("last weekend", "2026-03-14", "2026-03-15"),
    ("last Monday", "2026-03-16", "2026-03-16"),
    ("on Friday", "2026-03-13", "2026-03-13"),
    ("last month", "2026-02-01", "2026-02-28"),
    ("two months ago", "2026-01-03", "2026-02-02"),  # Jan 18, give or take half a month
    ("a couple of months ago", "2026-01-03", "2026-02-02"),
    ("a few months ago", "2025-10-01", "2026-02-28"),
    ("in March", "2026-03-01", "2026-03-31"),
    ("back in November", "2025-11-01", "2025-11-30"),
    ("in may", "2025-05-01", "2025-05-31"),
    ("in December 2024", "2024-12-01", "2024-12-31"),
    ("during March 2023", "2023-03-01", "2023-03-31"),
    ("last summer", "2025-06-01", "2025-08-31"),
    ("last winter", "2025-12-01", "2026-02-28"),  # the latest that has ended
    ("this winter", "2025-12-01", "2026-02-28"),
    ("in summer 2021", "2021-06-01", "2021-08-31"),
    ("in 2024", "2024-01-01", "2024-12-31"),
    ("last year", "2025-01-01", "2025-12-31"),
    ("two years ago", "2024-01-01", "2024-12-31"),
    # Half a year is six months, not "a year ago" read inside it.
    ("what did I say half a year ago?", "2025-09-03", "2025-10-03"),
    ("half a month ago", "2026-02-26", "2026-03-08"),
    ("this year", "2026-01-01", "2026-12-31"),
    ("昨天说了什么", "2026-03-17", "2026-03-17"),
    ("我昨晚提到的那本书", "2026-03-17", "2026-03-17"),
    ("前天", "2026-03-16", "2026-03-16"),
    ("大前天", "2026-03-15", "2026-03-15"),
    ("今天", "2026-03-18", "2026-03-18"),
    ("前几天我们聊过", "2026-03-11", "2026-03-17"),
    ("三天前", "2026-03-14", "2026-03-16"),
    ("上周我说了什么", "2026-03-09", "2026-03-15"),
    ("上个星期", "2026-03-09", "2026-03-15"),
    ("上礼拜", "2026-03-09", "2026-03-15"),
    ("上周三", "2026-03-11", "2026-03-11"),
    ("上上周", "2026-03-02", "2026-03-08"),
    ("两周前", "2026-03-02", "2026-03-08"),
    ("这周", "2026-03-16", "2026-03-22"),
    ("上个月", "2026-02-01", "2026-02-28"),
    ("上月", "2026-02-01", "2026-02-28"),
    ("上上个月", "2026-01-01", "2026-01-31"),
    ("两个月前", "2026-01-03", "2026-02-02"),
    ("几个月前", "2025-10-01", "2026-02-28"),
    ("半年前我们都聊了啥？", "2025-09-03", "2025-10-03"),
    ("半个月前", "2026-02-26", "2026-03-08"),
    ("去年夏天我去了哪里", "2025-06-01", "2025-08-31"),
    ("今年春天", "2026-03-01", "2026-05-31"),
    ("去年", "2025-01-01", "2025-12-31"),
    ("前年", "2024-01-01", "2024-12-31"),
    ("三月份", "2026-03-01", "2026-03-31"),
    ("十二月", "2025-12-01", "2025-12-31"),
    ("去年三月", "2025-03-01", "2025-03-31"),
    ("3月", "2026-03-01", "2026-03-31"),
]

# recall.text.occasions and occasions_zh: holidays, parts of a period, spans up to today.
MORE = [
    ("What did we chat about the weekend before last?", "2026-03-07", "2026-03-08"),
    ("two weekends ago", "2026-03-07", "2026-03-08"),
    ("the night before last", "2026-03-16", "2026-03-16"),
    ("two Saturdays ago", "2026-03-07", "2026-03-07"),
    ("around Valentine's Day", "2026-02-11", "2026-02-17"),
    ("the week after Easter", "2025-04-21", "2025-04-27"),  # 2026's is still to come
    ("what did I say over the Christmas break?", "2025-12-22", "2025-12-28"),
    ("the day after Thanksgiving", "2025-11-28", "2025-11-28"),
    ("the first week of January", "2026-01-01", "2026-01-07"),
    ("week of Feb 11", "2026-02-09", "2026-02-15"),
    ("between Jan 10 and Jan 20", "2026-01-10", "2026-01-20"),
    ("chat history Dec 26-31", "2025-12-26", "2025-12-31"),
    ("summary of conversations, Jan-Feb", "2026-01-01", "2026-02-28"),
    ("at the start of the month", "2026-03-01", "2026-03-10"),
    ("the second half of last year", "2025-07-01", "2025-12-31"),
    ("past 3 days", "2026-03-15", "2026-03-18"),
    ("the last three weeks", "2026-02-25", "2026-03-18"),
    ("Find what Omar discussed in the past fortnight.", "2026-03-04", "2026-03-18"),
    ("Q4", "2025-10-01", "2025-12-31"),
    ("the previous quarter", "2025-10-01", "2025-12-31"),
    ("late summer", "2025-08-02", "2025-08-31"),
    ("around the 20th", "2026-02-18", "2026-02-22"),
    ("a month or so ago", "2026-02-03", "2026-03-05"),
    ("couple weeks ago we talked about my knee", "2026-03-02", "2026-03-08"),
    ("上个月底", "2026-02-20", "2026-02-28"),
    ("年初", "2026-01-01", "2026-02-28"),
    ("去年年底", "2025-11-01", "2025-12-31"),
    ("前两周", "2026-03-04", "2026-03-18"),
    ("最近两个月", "2026-01-17", "2026-03-18"),
    ("前阵子我跟你说过", "2026-02-11", "2026-03-11"),
    ("国庆前后", "2025-09-28", "2025-10-10"),
    ("上个季度", "2025-10-01", "2025-12-31"),
    ("11月1日到11月7日", "2025-11-01", "2025-11-07"),
    ("暑假", "2025-07-01", "2025-08-31"),
    ("俩月前", "2026-01-03", "2026-02-02"),
    ("春节那几天我跟你说了啥", "2026-02-14", "2026-02-26"),  # 17 Feb 2026, a week's holiday
    ("中秋前后", "2025-10-03", "2025-10-09"),  # 2026's (25 Sep) is still to come
    ("除夕那天", "2026-02-16", "2026-02-16"),
    ("年前那阵子我都跟你提过些什么", "2026-02-10", "2026-02-16"),
    ("三年前", "2023-01-01", "2023-12-31"),  # years ago, not 年前
]
CASES += MORE

# Near-misses: time words that name no window for a memory search.
NEAR_MISSES = [
    "March is a nice name",
    "May I ask you something?",
    "this may be wrong",
    "the last week of work was fine",
    "in the last month of the project we shipped",
    "the last year of school",
    "what will we do next week?",
    "tomorrow I fly to Berlin",
    "how long is a week in Mars days?",
    "remember the summary of our plan",
    "明天见",
    "下周开会",
    "一个月有几天",
    "半年的合同",
    "half a year is a long time",
    "我每个月都去",
    "the marathon was great",
    "summertime sadness is a song",
    "Christmas party ideas for the team",
    "我每周二去游泳",
    "我周二一般干什么？",
    "chats from Feb 30 to Feb 31",
    "13月1日到13月5日的聊天",
]


@pytest.mark.parametrize(("query", "first", "last"), CASES)
def test_resolves(query: str, first: str | None, last: str | None) -> None:
    window = resolve_time(query, NOW)
    if first is None:
        assert window is None
        return
    assert window is not None, query
    assert (
        window.start.date().isoformat(),
        (window.end - timedelta(days=1)).date().isoformat(),
    ) == (
        first,
        last,
    )
    assert window.phrase


@pytest.mark.parametrize("query", NEAR_MISSES)
def test_near_misses_name_no_window(query: str) -> None:
    assert resolve_time(query, NOW) is None


def test_two_expressions_cover_both() -> None:
    window = resolve_time("yesterday or last week", NOW)
    assert window is not None
    assert (window.start.date(), window.end.date()) == (date(2026, 3, 9), date(2026, 3, 18))


def test_now_time_zone_and_naive() -> None:
    # 23:30 on the 18th in UTC-5 is already the 19th in UTC: days follow now's own zone.
    est = datetime(2026, 3, 18, 23, 30, tzinfo=timezone(timedelta(hours=-5)))
    window = resolve_time("yesterday", est)
    assert window is not None and window.start.date() == date(2026, 3, 17)
    naive = resolve_time("yesterday", datetime(2026, 3, 18, 12))
    assert naive is not None and naive.start.tzinfo is not None


def test_default_now_is_the_current_time() -> None:
    window = resolve_time("yesterday")
    assert window is not None
    assert window.end.date() == datetime.now(UTC).date()


def test_parse_bound() -> None:
    assert parse_bound("2026-03-14", "since") == datetime(2026, 3, 14, tzinfo=UTC)
    assert parse_bound("2026-03-14", "until", end=True) == datetime(2026, 3, 15, tzinfo=UTC)
    assert parse_bound("2026-03-14T09:30:00Z", "until", end=True) == datetime(
        2026, 3, 14, 9, 30, tzinfo=UTC
    )
    assert parse_bound(date(2026, 3, 14), "until", end=True) == datetime(2026, 3, 15, tzinfo=UTC)
    assert parse_bound(0, "since") == datetime(1970, 1, 1, tzinfo=UTC)
    with pytest.raises(ValueError, match="ISO 8601"):
        parse_bound("last tuesday", "since")
    with pytest.raises(ValueError, match="since must be"):
        parse_bound(["2026"], "since")
    assert said_on(datetime(2026, 3, 14, 23, 0, tzinfo=timezone(timedelta(hours=-5)))) == (
        "2026-03-15"
    )


@pytest.mark.parametrize(
    "query, asked",
    [
        ("What did we talk about last week?", "What did we talk about last week?"),
        (
            "I went running yesterday. What shoes did I buy last month?",
            "What shoes did I buy last month?",
        ),
        (
            "今天天气真好，适合出去散步。昨天看的电视剧不错。那个工作地是深圳的人，爱好是什么？",
            "那个工作地是深圳的人，爱好是什么？",
        ),
        ("Tell me what I said yesterday.", "Tell me what I said yesterday."),
        ("昨天我说了什么？今天呢？", "昨天我说了什么？今天呢？"),
    ],
)
def test_only_the_asking_sentences_are_read_for_time(query: str, asked: str) -> None:
    assert asking_part(query) == asked


def test_chatter_about_today_before_the_question_names_no_window() -> None:
    settings = Settings()
    now = datetime(2024, 4, 4, 18, tzinfo=UTC)
    noisy = "今天天气真好，适合出去散步。我真正想问的是，那个工作地是深圳的人，爱好是什么？"
    assert time_window(noisy, None, None, now, settings) == (None, None, None)
    asked = "散步的时候想起来了。我昨天说的那个人，爱好是什么？"
    soft = time_window(asked, None, None, now, settings)[2]
    assert soft == (datetime(2024, 4, 3, tzinfo=UTC), datetime(2024, 4, 4, tzinfo=UTC))


def test_a_topic_in_a_leading_sentence_keeps_the_window_soft() -> None:
    now = datetime(2024, 4, 4, 18, tzinfo=UTC)
    query = "I am training for the Berlin marathon. What did we talk about last week?"
    start, end, soft = time_window(query, None, None, now, Settings())
    assert (start, end) == (None, None) and soft is not None
    # Abbreviations and decimals end no sentence: the time word is still read.
    for query in (
        "What did I do yesterday at 3 p.m. with Sam?",
        "Version 3.5 shipped. What broke yesterday?",
    ):
        start, _, soft = time_window(query, None, None, now, Settings())
        assert soft is not None or start is not None  # hard when it names only the time


@pytest.mark.parametrize("value", ["9999-12-31", "0001-01-01T00:00+14:00"])
def test_a_bound_past_the_calendar_is_a_value_error(value: str) -> None:
    """Not an OverflowError, which the server would answer 500."""
    with pytest.raises(ValueError, match="years 1 to 9999"):
        parse_bound(value, "until", end=True)
