"""Calendar periods for :mod:`.when`: whole days, weeks, months, seasons, read in the zone of
``now``; each a half-open ``(start, end)``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta

__all__ = [
    "HALF_MONTH",
    "MONTHS_EN",
    "SEASONS_EN",
    "Span",
    "WEEKDAYS_EN",
    "day",
    "days",
    "easter",
    "latest",
    "month_start",
    "months",
    "months_ago",
    "months_back",
    "named_month",
    "nth_weekday",
    "on",
    "part",
    "quarter",
    "season",
    "week",
    "weekday",
    "weekend",
    "year",
    "zh_number",
]


#: English month names and abbreviations -> month number.
MONTHS_EN = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4,
    "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
    "september": 9, "sept": 9, "sep": 9, "october": 10, "oct": 10, "november": 11,
    "nov": 11, "december": 12, "dec": 12,
}  # fmt: skip
#: Seasons (northern, meteorological) -> their first month.
SEASONS_EN = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
#: English weekday names -> ``datetime.weekday()``.
WEEKDAYS_EN = {
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4,
    "saturday": 5, "sunday": 6,
}  # fmt: skip
_DIGITS_ZH = {"一": 1, "两": 2, "俩": 2, "二": 2, "三": 3, "仨": 3, "四": 4, "五": 5, "六": 6,
              "七": 7, "八": 8, "九": 9, "十": 10, "半": 0}  # fmt: skip
#: A half-open window ``(start, end)``.
Span = tuple[datetime, datetime]


def day(now: datetime, days_back: int = 0) -> datetime:
    """The start (midnight) of the day ``days_back`` days before ``now``'s."""
    start = now.replace(hour=0, minute=0, second=0, microsecond=0)
    return start - timedelta(days=days_back)


def days(now: datetime, back_from: int, back_to: int) -> tuple[datetime, datetime]:
    """Whole days from ``back_from`` days ago to ``back_to`` days ago, inclusive."""
    return day(now, back_from), day(now, back_to) + timedelta(days=1)


def week(now: datetime, weeks_back: int) -> tuple[datetime, datetime]:
    """Monday to Sunday of the week ``weeks_back`` weeks before ``now``'s."""
    monday = day(now, now.weekday()) - timedelta(weeks=weeks_back)
    return monday, monday + timedelta(weeks=1)


def month_start(year: int, month: int, tz: object) -> datetime:
    """The first instant of ``month`` of ``year`` (a month past 12 or under 1 rolls over)."""
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    return datetime(year, month, 1, tzinfo=tz)  # type: ignore[arg-type]


def months(now: datetime, year: int, month: int, count: int = 1) -> tuple[datetime, datetime]:
    """``count`` calendar months from ``month`` of ``year``."""
    return month_start(year, month, now.tzinfo), month_start(year, month + count, now.tzinfo)


def months_back(now: datetime, n: int) -> tuple[datetime, datetime]:
    """The calendar month ``n`` months before ``now``'s ("last month": 1)."""
    return months(now, now.year, now.month - n)


#: Half a month: "N months ago" is rounded to the nearest month.
HALF_MONTH = 15


def months_ago(now: datetime, n: int) -> tuple[datetime, datetime]:
    """The month of days centred on the same day ``n`` months back (its day clamped to that
    month's length): whoever says "two months ago" rounds to the nearest month."""
    first, after = months_back(now, n)
    same_day = first.replace(day=min(now.day, (after - timedelta(days=1)).day))
    centre = (now.date() - same_day.date()).days
    return days(now, centre + HALF_MONTH, max(centre - HALF_MONTH, 0))


def named_month(now: datetime, month: int, year: int | None) -> tuple[datetime, datetime]:
    """That month of ``year``, else the latest one that has begun."""
    if year is None:
        year = now.year if month <= now.month else now.year - 1
    return months(now, year, month)


def year(now: datetime, years_back: int) -> tuple[datetime, datetime]:
    """The calendar year ``years_back`` years before ``now``'s."""
    return months(now, now.year - years_back, 1, 12)


def season(now: datetime, first: int, which: str) -> tuple[datetime, datetime]:
    """``which``: "last" (the latest that has ended), "prev_year" (the one that began last
    year), or "" and "this" (the latest that has begun)."""
    year = now.year if month_start(now.year, first, now.tzinfo) <= now else now.year - 1
    if which == "prev_year":
        year = now.year - 1
    start, end = months(now, year, first, 3)
    if which == "last" and end > now:
        start, end = months(now, year - 1, first, 3)
    return start, end


def weekday(now: datetime, weekday: int, weeks_back: int = 0) -> tuple[datetime, datetime]:
    """The latest such weekday before today (or that day of the week ``weeks_back`` ago)."""
    if weeks_back:
        monday, _ = week(now, weeks_back)
        start = monday + timedelta(days=weekday)
        return start, start + timedelta(days=1)
    back = (now.weekday() - weekday) % 7 or 7
    return days(now, back, back)


def weekend(now: datetime) -> tuple[datetime, datetime]:
    """Saturday and Sunday of the latest weekend before today ("last weekend")."""
    back = (now.weekday() - 5) % 7 or 7  # the latest Saturday before today
    if now.weekday() == 6:
        back = 8  # on a Sunday, "last weekend" is the one before this one
    start = day(now, back)
    return start, start + timedelta(days=2)


def on(year: int, month: int, dom: int, now: datetime) -> datetime:
    """Midnight of that date in ``now``'s zone."""
    return datetime(year, month, dom, tzinfo=now.tzinfo)


def latest(now: datetime, span: Callable[[int], Span]) -> Span:
    """``span`` (of a year) of this year if it has begun, else of last year."""
    start, end = span(now.year)
    return (start, end) if start <= now else span(now.year - 1)


def quarter(now: datetime, back: int) -> Span:
    """The calendar quarter ``back`` quarters before ``now``'s."""
    first = 3 * ((now.month - 1) // 3) + 1 - 3 * back
    return months(now, now.year, first, 3)


def part(which: str, start: datetime, end: datetime) -> Span:
    """A part of ``[start, end)``: start / beginning / early (the first third, a week at
    least), middle, end / tail end / late (the last third), first half, second half, first
    week (上半, 下半, 初, 中, 底, 末 the same); of a whole year, by months (the start: January and
    February, the middle: May to July, the end: November and December)."""
    n, which = (end - start).days, which.lower()
    first = "first" in which or which == "上半"
    half = "half" in which or which in ("上半", "下半")
    mid = "mid" in which or which == "中"
    last = "end" in which or "late" in which or which in ("底", "末", "尾")
    if n >= 365:
        if half:
            return months(start, start.year, 1 if first else 7, 6)
        return months(start, start.year, 5 if mid else 11 if last else 1, 3 if mid else 2)
    third = timedelta(days=max(n // 3, 7))
    if half:
        middle = start + timedelta(days=n // 2)
        return (start, middle) if first else (middle, end)
    if "first week" in which:
        return start, start + timedelta(days=7)
    if mid:
        return start + timedelta(days=n // 3), end - timedelta(days=n // 3)
    return (end - third, end) if last else (start, start + third)


def nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    """The ``n``-th ``weekday`` (0: Monday) of the month; n = -1: the last."""
    if n < 0:
        last = date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)
        return last - timedelta(days=(last.weekday() - weekday) % 7)
    first = date(year, month, 1)
    return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))


def easter(year: int) -> date:
    """Western Easter Sunday (the anonymous Gregorian computus)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    ell = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * ell) // 451
    month, dom = divmod(h + ell - 7 * m + 114, 31)
    return date(year, month, dom + 1)


def zh_number(text: str) -> int:
    """A small Chinese or Arabic number: 3, 三, 十二, 二十."""
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (_DIGITS_ZH.get(tens, 1) if tens else 1) * 10 + (_DIGITS_ZH.get(ones, 0))
    return _DIGITS_ZH.get(text, 0)
