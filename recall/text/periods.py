"""Calendar periods for :mod:`.when`: whole days, weeks, months, seasons, read in the zone of
``now``; each a half-open ``(start, end)``."""

from __future__ import annotations

from datetime import datetime, timedelta

__all__ = [
    "HALF_MONTH",
    "day",
    "days",
    "month_start",
    "months",
    "months_ago",
    "months_back",
    "named_month",
    "season",
    "week",
    "weekday",
    "weekend",
    "year",
]


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
