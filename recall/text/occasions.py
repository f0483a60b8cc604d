"""More English time expressions for :mod:`.when`: holidays, parts of a period, spans.

Read before :mod:`.when`'s own rules, so that a longer expression owns its words ("the
weekend before last" is not "last weekend" plus a stray word). Each rule is a pattern and a
function of the match and ``now`` giving a half-open window (:mod:`.periods`); an empty one
is no window. Chinese ones are in :mod:`.occasions_zh`.

- Holidays, the latest that has begun (a few days' grace): Christmas, New Year's (Eve),
  Halloween, Valentine's Day, the Fourth of July, St Patrick's Day, Easter, Thanksgiving
  (US), Labor Day, Memorial Day. A talk is tied to the nearest holiday, so a holiday is
  three days either side of it; "the week before / after" it those seven days, "the day
  before / after" it that day. "Christmas party ideas" names no time. Moving holidays that
  need a calendar table (Ramadan, a bank holiday) are not read.
- Parts of a period: "the start / middle / end / tail end / first half / second half /
  first week of the month / the year / last month / <month>", "early / mid / late
  <season>", "Q3", "the previous quarter", "the week of Oct 14", "Jan-Feb", "Jan 10 to
  Jan 20", "Dec 26-31", "around the 20th".
- Spans up to today: "past 3 days", "the last three weeks", "previous 30 days", "the past
  fortnight", "over the past few days", "the past quarter"; and "the weekend before
  last", "two weekends ago", "the night before last", "two Saturdays ago".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta

from .periods import (
    MONTHS_EN,
    SEASONS_EN,
    WEEKDAYS_EN,
    Span,
    days,
    easter,
    latest,
    months,
    nth_weekday,
    on,
    part,
    quarter,
    weekday,
    weekend,
)

__all__ = ["RULES", "Rule", "holiday_span"]

#: A pattern and the window of one of its matches, read against ``now``.
Rule = tuple["re.Pattern[str]", Callable[[re.Match[str], datetime], Span]]

_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "couple of": 2, "a couple of": 2, "couple": 2, "few": 3, "a few": 3,
}  # fmt: skip
_NUM = (
    r"(\d{1,3}|a couple of|couple of|couple|a few|few|an?|one|two|three|four|five|six|seven"
    r"|eight|nine|ten|eleven|twelve)"
)
_MONTH = "|".join(sorted(MONTHS_EN, key=len, reverse=True))
_UNIT_DAYS = {"day": 1, "week": 7, "fortnight": 14, "month": 30}
_HOLIDAYS: dict[str, Callable[[int], date]] = {
    "christmas": lambda y: date(y, 12, 25),
    "xmas": lambda y: date(y, 12, 25),
    "new year": lambda y: date(y, 1, 1),
    "halloween": lambda y: date(y, 10, 31),
    "valentine": lambda y: date(y, 2, 14),
    "fourth of july": lambda y: date(y, 7, 4),
    "independence day": lambda y: date(y, 7, 4),
    "st patrick": lambda y: date(y, 3, 17),
    "easter": easter,
    "thanksgiving": lambda y: nth_weekday(y, 11, 3, 4),
    "labor day": lambda y: nth_weekday(y, 9, 0, 1),
    "memorial day": lambda y: nth_weekday(y, 5, 0, -1),
}
_HOLIDAY = (
    r"christmas|xmas|new year'?s?(?: eve| day)?|halloween|valentine'?s(?: day)?|"
    r"(?:the )?(?:4th|fourth) of july|independence day|st\.? patrick'?s(?: day)?|easter|"
    r"thanksgiving|labou?r day|memorial day"
)


def _num(text: str) -> int:
    text = text.lower()
    return int(text) if text.isdigit() else _NUMBERS[text]


def _en(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def holiday_span(on_day: Callable[[int], date], now: datetime, when: str, length: int = 1) -> Span:
    """The latest holiday ``on_day(year)`` of ``length`` days that has begun (three days'
    grace), three days either side; ``when`` "before" / "after": the week before or
    after it; "day before" / "day after": that day."""
    d = on_day(now.year)
    start = datetime(d.year, d.month, d.day, tzinfo=now.tzinfo)
    if start - timedelta(days=3) > now:
        d = on_day(now.year - 1)
        start = datetime(d.year, d.month, d.day, tzinfo=now.tzinfo)
    if "day" in when:
        start += timedelta(days=-1 if "before" in when else 1)
        return start, start + timedelta(days=1)
    if "before" in when:
        return start - timedelta(days=7), start
    if "after" in when:
        end = start + timedelta(days=length)
        return end, end + timedelta(days=7)
    return start - timedelta(days=3), start + timedelta(days=length + 3)


def _holiday(m: re.Match[str], now: datetime) -> Span:
    phrase = m.group("h").lower().replace(".", "").replace("4th", "fourth")
    key = next(k for k in _HOLIDAYS if k in phrase.replace("labour", "labor"))
    on_day = _HOLIDAYS[key]
    if key == "new year" and "eve" in phrase:
        on_day = _new_years_eve
    return holiday_span(on_day, now, (m.group("w") or "").lower())


def _new_years_eve(year: int) -> date:
    return date(year, 12, 31)


def _part_of(m: re.Match[str], now: datetime) -> Span:
    which, what = m.group("p"), m.group("of").lower()
    if what in ("the month", "this month", "last month"):
        return part(which, *months(now, now.year, now.month - (what == "last month")))
    if what in ("the year", "this year", "last year"):
        return part(which, *months(now, now.year - (what == "last year"), 1, 12))
    month = MONTHS_EN[what]
    return part(which, *latest(now, lambda y: months(now, y, month)))


def _week_of(m: re.Match[str], now: datetime) -> Span:
    month, dom = MONTHS_EN[m.group(1).lower()], int(m.group(2))
    start, _ = latest(now, lambda y: (on(y, month, dom, now), now))
    monday = start - timedelta(days=start.weekday())
    return monday, monday + timedelta(days=7)


def _dates(m: re.Match[str], now: datetime) -> Span:
    """Whole days from one date to another ("Jan 10 to Jan 20", "Dec 26-31"), the latest
    such range that has begun."""
    m1, d1, d2 = MONTHS_EN[m.group(1).lower()], int(m.group(2)), int(m.group(4))
    m2 = MONTHS_EN[m.group(3).lower()] if m.group(3) else m1
    start, _ = latest(now, lambda y: (on(y, m1, d1, now), now))
    return start, on(start.year + (m2 < m1), m2, d2, now) + timedelta(days=1)


def _month_range(m: re.Match[str], now: datetime) -> Span:
    """Two months and those between ("Jan-Feb"), the latest such run that has begun."""
    m1, m2 = MONTHS_EN[m.group(1).lower()], MONTHS_EN[m.group(2).lower()]
    return latest(now, lambda y: (months(now, y, m1)[0], months(now, y, m1 + (m2 - m1) % 12)[1]))


def _rolling(m: re.Match[str], now: datetime) -> Span:
    """The past N days / weeks / fortnights / months up to today (a month: 30 days)."""
    n = _num(m.group(1) or m.group(2) or "1")  # "the past week" is one
    return days(now, n * _UNIT_DAYS[m.group(3).lower().rstrip("s")], 0)


def _quarter_en(m: re.Match[str], now: datetime) -> Span:
    """A quarter: "Q3" the latest third quarter that has begun, "the previous / last
    quarter" the calendar quarter before this one, "the past quarter" the last 91 days."""
    if m.group(2):
        first = 3 * int(m.group(2)) - 2
        return latest(now, lambda y: months(now, y, first, 3))
    return days(now, 91, 0) if m.group(1).lower() == "past" else quarter(now, 1)


def _season_part(m: re.Match[str], now: datetime) -> Span:
    """A part of a season ("late summer": the last third of the latest summer begun)."""
    first = SEASONS_EN[m.group(2).lower()]
    return part(m.group(1), *latest(now, lambda y: months(now, y - (first == 12), first, 3)))


def _dom(m: re.Match[str], now: datetime) -> Span:
    """A day of the month ("around the 20th"): this month's if it has come, else last
    month's, two days either side."""
    dom = int(m.group(1))
    if not 1 <= dom <= 28:  # a day every month has
        return now, now
    first = months(now, now.year, now.month - (dom > now.day))[0]
    at = first + timedelta(days=dom - 1)
    return at - timedelta(days=2), at + timedelta(days=3)


def _weekends_ago(m: re.Match[str], now: datetime) -> Span:
    """That many weekends back ("two weekends ago", "the weekend before last"; "last
    weekend" is one)."""
    n = _num(m.group(1)) if m.re.groups else 2
    start = weekend(now)[0] - timedelta(weeks=n - 1)
    return start, start + timedelta(days=2)


def _weekdays_ago(m: re.Match[str], now: datetime) -> Span:
    """A weekday weeks back ("two Saturdays ago": the Saturday before last)."""
    start, end = weekday(now, WEEKDAYS_EN[m.group(2).lower().rstrip("s")])
    back = timedelta(weeks=_num(m.group(1)) - 1)
    return start - back, end - back


def _some(m: re.Match[str], now: datetime) -> Span:
    """A loose span up to today: "over the past few days" (three), "the past couple of
    weeks" (two), "the past fortnight"."""
    if m.group(3):
        return days(now, 14, 0)
    unit = _UNIT_DAYS[m.group(2).lower().rstrip("s")]
    return days(now, (3 if m.group(1).lower() == "few" else 2) * unit, 0)


# "in the past 3 days" is .when's own rule (it ends the span today as this one does).
_NOT_AFTER = "".join(rf"(?<!\b{w} )(?<!\b{w} the )" for w in ("in", "over", "during", "within"))
_WEEKDAY = "mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?"

RULES: list[Rule] = [
    (_en(rf"(?:\b(?P<w>the (?:week|day) (?:before|after)) )?\b(?P<h>{_HOLIDAY})"
         r"(?! (?:party|parties|dinner|card|gift|present|list|sale)s?\b)"), _holiday),
    (_en(r"\b(?:the )?(?P<p>start|beginning|middle|end|tail end|first half|second half|"
         r"first week) of (?P<of>the month|this month|last month|the year|this year|"
         rf"last year|{_MONTH})\b"), _part_of),
    (_en(rf"\bweek of ({_MONTH})\.? (\d{{1,2}})(?:st|nd|rd|th)?\b"), _week_of),
    (_en(rf"\b({_MONTH})\.? (\d{{1,2}})(?:st|nd|rd|th)?\s*(?:-|–|to|and|through|until)\s*"
         rf"(?:({_MONTH})\.? )?(\d{{1,2}})(?:st|nd|rd|th)?\b"), _dates),
    (_en(rf"\b({_MONTH})\s*[-–]\s*({_MONTH})\b"), _month_range),
    (_en(r"\b(?:in |over |during |within )?(?:the )?(?:past|last|previous) "
         r"(?:(few|couple of) (days|weeks|months)|(fortnight))\b"), _some),
    (_en(_NOT_AFTER + rf"\b(?:the )?(?:(?:past|previous) (?:{_NUM} )?|last {_NUM} )"
         r"(days?|weeks?|fortnights?|months?)\b(?! of\b)"), _rolling),
    (_en(r"\b(?:the )?(past|previous|last) quarter\b|\bq([1-4])\b"), _quarter_en),
    (_en(r"\b(early|late|mid)[ -](spring|summer|autumn|fall|winter)\b"), _season_part),
    (_en(r"\b(?:around|on|by) the (\d{1,2})(?:st|nd|rd|th)\b"), _dom),
    (_en(r"\b(?:the )?weekend before last\b"), _weekends_ago),
    (_en(rf"\b{_NUM} weekends? ago\b"), _weekends_ago),
    (_en(r"\b(?:the )?night before last\b"), lambda _m, now: days(now, 2, 2)),
    (_en(rf"\b{_NUM} ({_WEEKDAY}) ago\b"), _weekdays_ago),
]  # fmt: skip
