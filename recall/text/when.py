"""Relative time expressions in a query, resolved to a window: "last week" -> [start, end).

Pure and offline: ``resolve(query, now)`` reads English and Chinese expressions
("yesterday", "a few days ago", "last week", "in March", "last summer", "two months ago",
"half a year ago", "昨天", "前几天", "上周", "上个月", "半年前", "去年夏天", ...; holidays,
parts of a period and spans up to today in :mod:`.occasions` and :mod:`.occasions_zh`) and
returns the window they name, in ``now``'s time zone (UTC when ``now`` is naive), or None
when the query names no time.
Several expressions give the window that covers them all.

Calendar words mean calendar periods: "last week" is Monday to Sunday of the previous
week, "last month" the previous calendar month, "in March" the latest March that has begun
(this year's, else last year's). Seasons are the northern meteorological ones (summer:
June to August); "last summer" is the latest summer that has ended. "A few days ago",
"the other day" and 前几天 are the week before today; "N days ago" is that day and one day
either side, since people round; for the same reason "N months ago" (两个月前, "half a
year ago") is the month of days centred on that day N months back, not a calendar month
("two months ago" on 28 November reaches from mid-September to mid-October, where the
calendar September missed the fortnight after it).

Near-misses are left alone: a month name needs a preposition or a determiner before it
("March is a nice name", "May I ask" name no time); "the last week of the trip" is a
part of something, not the past week; future words (tomorrow, next week, 明天) are no window
for a memory search.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from .occasions import RULES as _OCCASIONS
from .occasions import Rule
from .occasions_zh import RULES as _OCCASIONS_ZH
from .periods import MONTHS_EN as _MONTHS_EN
from .periods import SEASONS_EN as _SEASONS
from .periods import WEEKDAYS_EN as _WEEKDAYS_EN
from .periods import days as _days
from .periods import months as _months
from .periods import months_ago as _months_ago
from .periods import months_back as _months_back
from .periods import named_month as _named_month
from .periods import season as _season
from .periods import week as _week
from .periods import weekday as _weekday
from .periods import weekend as _weekend
from .periods import year as _year
from .periods import zh_number as _zh_number

__all__ = ["Window", "resolve"]


@dataclass(frozen=True)
class Window:
    """A half-open time window ``[start, end)`` and the words that named it."""

    start: datetime
    end: datetime
    phrase: str


_NUM_EN = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "a couple of": 2, "a couple": 2, "couple of": 2, "couple": 2,
}  # fmt: skip
_SEASONS_ZH = {"春": 3, "夏": 6, "秋": 9, "冬": 12}
_WEEKDAYS_ZH = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}


def _en_month(m: re.Match[str], now: datetime) -> tuple[datetime, datetime]:
    """A named month; "this may be" and "in mar" are words, not months (an empty window)."""
    word, name, year = m.group(1).lower(), m.group(2), m.group(3)
    short = len(name) <= 4 and name not in ("june", "july")
    if not year and name.islower() and short and (name != "may" or word in ("this", "last")):
        return now, now
    return _named_month(now, _MONTHS_EN[name.lower()], int(year) if year else None)


def _season_which(phrase: str) -> str:
    first = phrase.split(maxsplit=1)[0].lower()
    return {"last": "last", "this": "this"}.get(first, "")


def _season_zh(now: datetime, year: str | None, first: int) -> tuple[datetime, datetime]:
    which = {"去年": "prev_year", "今年": "this", "前年": "prev_year"}.get(year or "", "")
    start, end = _season(now, first, which)
    if year == "前年":
        return _months(now, start.year - 1, first, 3)
    return start, end


def _month_zh(now: datetime, year: str | None, month: int) -> tuple[datetime, datetime]:
    back = {"去年": 1, "前年": 2, "今年": 0}.get(year or "")
    return _named_month(now, month, None if back is None else now.year - back)


# --- the rules --------------------------------------------------------------------------
_NUM = (
    r"(\d{1,2}|a couple of|a couple|couple of|couple|an?|one|two|three|four|five|six|seven|eight"
    r"|nine|ten|eleven|twelve)"
)
_MONTH = "|".join(sorted(_MONTHS_EN, key=len, reverse=True))


def _n(m: re.Match[str], group: int = 1) -> int:
    raw = m.group(group).lower()
    return int(raw) if raw.isdigit() else _NUM_EN[raw]


def _en(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_RULES: list[Rule] = [
    # English. "Half a year ago" first: a rule's words are not read again by a later one
    # ("a year ago").
    (_en(r"\bhalf a year (?:or so )?(?:ago|back|earlier)\b"), lambda _m, now: _months_ago(now, 6)),
    (_en(r"\bhalf a month (?:or so )?(?:ago|back|earlier)\b"), lambda _m, now: _days(now, 20, 10)),
    (_en(r"\bthe day before yesterday\b"), lambda _m, now: _days(now, 2, 2)),
    (_en(r"\b(?:yesterday|last night)\b"), lambda _m, now: _days(now, 1, 1)),
    (_en(r"\b(?:today|this morning|this afternoon|tonight|earlier today)\b"),
     lambda _m, now: _days(now, 0, 0)),
    (_en(r"\b(?:a few|several|some) days ago\b|\bthe other day\b|\bfew days back\b"),
     lambda _m, now: _days(now, 7, 1)),
    (_en(rf"\b{_NUM} days? (?:or so )?(?:ago|back|earlier)\b"),
     lambda m, now: _days(now, _n(m) + 1, max(_n(m) - 1, 0))),
    (_en(rf"\b(?:in|over|during|within) the (?:last|past) (?:{_NUM} )?days?\b(?! of\b)"),
     lambda m, now: _days(now, _n(m) if m.group(1) else 1, 0)),
    (_en(rf"\b(?:in|over|during|within) the (?:last|past) (?:{_NUM} )?weeks?\b(?! of\b)"),
     lambda m, now: _days(now, 7 * (_n(m) if m.group(1) else 1), 0)),
    (_en(rf"\b(?:in|over|during|within) the (?:last|past) (?:{_NUM} )?months?\b(?! of\b)"),
     lambda m, now: (_months_back(now, _n(m) if m.group(1) else 1)[0], _days(now, 0, 0)[1])),
    (_en(r"\b(?:a few|several|some) weeks (?:ago|back|earlier)\b"),
     lambda _m, now: _days(now, 35, 7)),
    (_en(rf"\b{_NUM} weeks? (?:or so )?(?:ago|back|earlier)\b"), lambda m, now: _week(now, _n(m))),
    (_en(r"\b(?:the )?week before last\b"), lambda _m, now: _week(now, 2)),
    (_en(r"(?<!\bthe )\blast week\b(?! of\b)"), lambda _m, now: _week(now, 1)),
    (_en(r"\bthis week\b"), lambda _m, now: _week(now, 0)),
    (_en(r"(?<!\bthe )\blast weekend\b|\bover the weekend\b|\bthis past weekend\b"),
     lambda _m, now: _weekend(now)),
    (_en(r"\b(?:a few|several|some) months ago\b"),
     lambda _m, now: (_months_back(now, 5)[0], _months_back(now, 1)[1])),
    (_en(rf"\b{_NUM} months? (?:or so )?(?:ago|back|earlier)\b"),
     lambda m, now: _months_ago(now, _n(m))),
    (_en(r"(?<!\bthe )\blast month\b(?! of\b)"), lambda _m, now: _months_back(now, 1)),
    (_en(r"\bthis month\b"), lambda _m, now: _months_back(now, 0)),
    (_en(rf"\b{_NUM} years? (?:or so )?(?:ago|back|earlier)\b"), lambda m, now: _year(now, _n(m))),
    (_en(r"(?<!\bthe )\blast year\b(?! of\b)"), lambda _m, now: _year(now, 1)),
    (_en(r"\bthis year\b"), lambda _m, now: _year(now, 0)),
    (_en(r"\b(?:in|during|over|since) (?:the )?(spring|summer|autumn|fall|winter),?(?: of)? "
         r"(\d{4})\b"),
     lambda m, now: _months(now, int(m.group(2)), _SEASONS[m.group(1).lower()], 3)),
    (_en(r"\b(?:in|during|since|throughout) (\d{4})\b(?!\s*(?:ms|s|km|m)\b)"),
     lambda m, now: _months(now, int(m.group(1)), 1, 12)),
    (_en(r"\b(?:last|this(?: past)?|in|during|over) (?:the )?(spring|summer|autumn|fall|winter)\b"),
     lambda m, now: _season(now, _SEASONS[m.group(1).lower()], _season_which(m.group(0)))),
    (_en(rf"\b(in|during|since|back in|early|late|mid|last|this)[ -](?:of )?({_MONTH})\b"
         r"(?:,? (\d{4})\b)?"), _en_month),
    (_en(r"\b(?:last|on|this past) (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"),
     lambda m, now: _weekday(now, _WEEKDAYS_EN[m.group(1).lower()])),
    # Chinese.
    (re.compile(r"大前天"), lambda _m, now: _days(now, 3, 3)),
    (re.compile(r"(?<!大)前天"), lambda _m, now: _days(now, 2, 2)),
    (re.compile(r"昨天|昨晚|昨日|昨儿"), lambda _m, now: _days(now, 1, 1)),
    (re.compile(r"今天|今早|今晚|今儿|今日"), lambda _m, now: _days(now, 0, 0)),
    (re.compile(r"前几天|前些天|前两天|这几天|最近几天"), lambda _m, now: _days(now, 7, 1)),
    (re.compile(r"([\d一两俩二三仨四五六七八九十]{1,3})天(?:前|以前|之前)"),
     lambda m, now: _days(now, _zh_number(m.group(1)) + 1, max(_zh_number(m.group(1)) - 1, 0))),
    (re.compile(r"上上(?:个)?(?:周|星期|礼拜)(?![一二三四五六日天])"),
     lambda _m, now: _week(now, 2)),
    (re.compile(r"(?<!上)上(?:个)?(?:周|星期|礼拜)([一二三四五六日天])"),
     lambda m, now: _weekday(now, _WEEKDAYS_ZH[m.group(1)], 1)),
    (re.compile(r"(?<!上)上(?:个)?(?:周|星期|礼拜)(?![一二三四五六日天])"),
     lambda _m, now: _week(now, 1)),
    (re.compile(r"(?:这|本)(?:个)?(?:周|星期|礼拜)(?![一二三四五六日天])"),
     lambda _m, now: _week(now, 0)),
    (re.compile(r"([\d一两俩二三仨四五六七八九十]{1,3})(?:个)?(?:周|星期|礼拜)(?:前|以前|之前)"),
     lambda m, now: _week(now, _zh_number(m.group(1)))),
    (re.compile(r"上上个?月"), lambda _m, now: _months_back(now, 2)),
    (re.compile(r"(?<!上)上个?月"), lambda _m, now: _months_back(now, 1)),
    (re.compile(r"(?:这|本)个?月"), lambda _m, now: _months_back(now, 0)),
    (re.compile(r"个把月(?:前|以前|之前)"), lambda _m, now: _months_ago(now, 1)),
    (re.compile(r"([\d一两俩二三仨四五六七八九十]{1,3})个?(?:多|来)?月(?:前|以前|之前)"),
     lambda m, now: _months_ago(now, _zh_number(m.group(1)))),
    (re.compile(r"半年多?(?:前|以前|之前)"), lambda _m, now: _months_ago(now, 6)),
    (re.compile(r"半个月(?:前|以前|之前)"), lambda _m, now: _days(now, 20, 10)),
    (re.compile(r"几个月(?:前|以前|之前)"),
     lambda _m, now: (_months_back(now, 5)[0], _months_back(now, 1)[1])),
    (re.compile(r"(去年|今年|前年)?([春夏秋冬])(?:天|季)"),
     lambda m, now: _season_zh(now, m.group(1), _SEASONS_ZH[m.group(2)])),
    (re.compile(r"(去年|今年|前年)?(?<![\d十])(十[一二]|[1-9]|1[0-2]|[一二三四五六七八九十])月(?:份)?"),
     lambda m, now: _month_zh(now, m.group(1), _zh_number(m.group(2)))),
    (re.compile(r"(?<![年季天])(?:去年|前年|今年)(?![春夏秋冬\d一二三四五六七八九十])"),
     lambda m, now: _year(now, {"去年": 1, "前年": 2, "今年": 0}[m.group(0)])),
    (re.compile(r"([\d一两俩二三仨四五六七八九十]{1,3})年(?:前|以前|之前)"),
     lambda m, now: _year(now, _zh_number(m.group(1)))),
]  # fmt: skip


# Holidays, parts of a period and spans first: a longer expression owns its words.
_ALL_RULES = (*_OCCASIONS, *_OCCASIONS_ZH, *_RULES)


def resolve(query: str, now: datetime | None = None) -> Window | None:
    """The time window the query's relative expressions name, or None.

    ``now`` (default: the current time, UTC) anchors them; a naive ``now`` is taken as UTC.
    """
    now = datetime.now(UTC) if now is None else now
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    found: list[tuple[datetime, datetime, str]] = []
    taken: list[tuple[int, int]] = []
    for pattern, window in _ALL_RULES:
        for m in pattern.finditer(query):
            # A longer expression already read ("the day before yesterday") owns its words.
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            try:
                start, end = window(m, now)
            except ValueError:  # a date no calendar has ("Feb 30 to Feb 31", 13月1日)
                continue
            if start >= end:
                continue
            taken.append((m.start(), m.end()))
            found.append((start, end, m.group(0).strip()))
    if not found:
        return None
    found.sort(key=lambda f: query.find(f[2]))
    return Window(
        start=min(f[0] for f in found),
        end=max(f[1] for f in found),
        phrase="; ".join(f[2] for f in found),
    )
