"""Dates as callers write them: a deep_recall window's bounds, and the date a hit shows."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from ..jsonlimits import shown

__all__ = ["parse_bound", "said_on"]


def parse_bound(value: object, name: str, *, end: bool = False) -> datetime:
    """``value`` (a datetime, a date, an ISO 8601 string, or epoch seconds) as an aware
    datetime; naive values are taken as UTC.

    With ``end`` a bare date means the end of that day (``until="2026-03-14"`` keeps what
    was said on the 14th), so the result is the first instant after the window. Anything
    else raises ``ValueError`` saying what to pass.
    """
    whole_day = False
    when: datetime
    if isinstance(value, datetime):
        when = value
    elif isinstance(value, date):
        when, whole_day = datetime(value.year, value.month, value.day), True
    elif isinstance(value, int | float) and not isinstance(value, bool):
        try:
            when = datetime.fromtimestamp(float(value), UTC)
        except (OverflowError, OSError, ValueError):
            raise ValueError(f"{name} is not a usable timestamp: {shown(value)}") from None
    elif isinstance(value, str):
        text = value.strip()
        try:
            when = datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            raise ValueError(
                f"{name} must be an ISO 8601 date or date-time such as '2026-03-14' or "
                f"'2026-03-14T09:30:00Z', got {value[:40]!r}"
            ) from None
        whole_day = len(text) == 10
    else:
        raise ValueError(
            f"{name} must be a datetime, a date, an ISO 8601 string or epoch seconds, "
            f"got {type(value).__name__}"
        )
    try:  # 9999-12-31 as an end, or a time before year 1 in UTC: a bad bound, not a crash
        when = when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
        if end and whole_day:
            when += timedelta(days=1)
    except OverflowError:
        raise ValueError(
            f"{name} is outside the dates recall can hold (years 1 to 9999 in UTC): {value!r}; "
            f"leave {name} out for no bound"
        ) from None
    return when


def said_on(when: datetime) -> str:
    """The ISO date a hit or a memory line shows (``2026-03-14``), in UTC."""
    return when.astimezone(UTC).date().isoformat()
