"""More Chinese time expressions for :mod:`.when` (read before its own rules, as
:mod:`.occasions` is).

- Holidays, the latest that has begun: on fixed dates 元旦, 圣诞, 国庆 (a week), 情人节,
  五一 / 劳动节, 清明 (5 April, a day either way in the calendar); on the lunar calendar
  春节 / 过年 (a week from the first day), 除夕, 元宵, 端午, 七夕, 中秋, from a table of
  their dates 2015-2040 (computed with the ``lunardate`` package; a year outside it names
  no window); 年前 the week before the Spring Festival. 前后 or 期间 three days either
  side, 前 the week before, 后 the week after.
- Parts of a period: 年初 (January and February), 年中, 年底 / 年末, 上半年, 下半年
  (of 去年 / 今年 when named, else the latest that has begun); 月初, 月中, 月底, 上个月底;
  上个季度, 这个季度; 寒假 (January and February), 暑假 (July and August).
- Spans up to today: 前两周, 过去三天, 最近两个月, 近半个月, 这两周; 前阵子, 前段时间 as
  "a few weeks ago"; 11月1日到11月7日. A bare weekday (周二) is as often a habit ("我周二
  一般去游泳") as a day, and is not read.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from .occasions import Rule, holiday_span
from .periods import Span, days, latest, months, on, part, quarter, zh_number

__all__ = ["RULES"]

_N = r"[\d一两俩二三仨四五六七八九十几半]{1,2}"
_FIXED = {"元旦": (1, 1), "圣诞": (12, 25), "国庆": (10, 1), "情人节": (2, 14), "五一": (5, 1),
          "劳动节": (5, 1), "清明": (4, 5)}  # fmt: skip
_WHEN = {"前后": "", "期间": "", "前": "before", "后": "after"}
# Solar dates (MMDD) of lunar holidays, one per year from _LUNAR_FROM on, computed with
# lunardate 0.3.0 (LunarDate(y, m, d).to_solar_date()): 1/1, 1/15, 5/5, 7/7, 8/15.
_LUNAR_FROM = 2015
_LUNAR = {
    "春节": "0219 0208 0128 0216 0205 0125 0212 0201 0122 0210 0129 0217 0206 0126 0213 0203 "
    "0123 0211 0131 0219 0208 0128 0215 0204 0124 0212",
    "元宵": "0305 0222 0211 0302 0219 0208 0226 0215 0205 0224 0212 0303 0220 0209 0227 0217 "
    "0206 0225 0214 0305 0222 0211 0301 0218 0207 0226",
    "端午": "0620 0609 0530 0618 0607 0625 0614 0603 0622 0610 0531 0619 0609 0528 0616 0605 "
    "0624 0612 0601 0620 0610 0530 0618 0607 0527 0614",
    "七夕": "0820 0809 0828 0817 0807 0825 0814 0804 0822 0810 0829 0819 0808 0826 0816 0805 "
    "0824 0812 0801 0820 0810 0828 0817 0807 0826 0814",
    "中秋": "0927 0915 1004 0924 0913 1001 0921 0910 0929 0917 1006 0925 0915 1003 0922 0912 "
    "1001 0919 0908 0927 0916 1004 0924 0913 1002 0920",
}
_NAMES = {"过年": "春节", "大年初一": "春节", "除夕": "春节", "年三十": "春节", "年前": "春节"}


def _lunar(name: str, year: int) -> date:
    """The solar date of lunar holiday ``name`` in ``year`` (ValueError outside the table)."""
    k = year - _LUNAR_FROM
    table = _LUNAR[name].split()
    if not 0 <= k < len(table):
        raise ValueError(f"no {name} date for {year}")
    return date(year, int(table[k][:2]), int(table[k][2:]))


def _holiday(m: re.Match[str], now: datetime) -> Span:
    name = m.group(1)
    when = _WHEN.get((m.group(2) if m.re.groups > 1 else None) or "", "")
    length = 7 if name in ("国庆", "春节", "过年") else 1  # a week's holiday
    lunar = _NAMES.get(name, name)
    if name in ("除夕", "年三十"):
        when = "day before"
    elif name == "年前":
        when = "before"

    def on_day(year: int) -> date:
        if lunar in _LUNAR:
            return _lunar(lunar, year)
        month, dom = _FIXED[name]
        return date(year, month, dom)

    return holiday_span(on_day, now, when, length)


def _span(m: re.Match[str], now: datetime) -> Span:
    """前两周, 过去三天, 最近两个月, 近半个月: that span up to today."""
    n, unit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    if n == "半":
        return days(now, 15 if unit == "月" else 3, 0)
    count = 3 if n == "几" else max(zh_number(n), 1)  # 几: a few
    return days(now, count * {"天": 1, "月": 30}.get(unit, 7), 0)


def _dates(m: re.Match[str], now: datetime) -> Span:
    """11月1日到11月7日, 11 月 1 日到 7 日: the latest such range that has begun."""
    m1, d1 = int(m.group(1)), int(m.group(2))
    m2, d2 = int(m.group(3) or m1), int(m.group(4))
    start, _ = latest(now, lambda y: (on(y, m1, d1, now), now))
    return start, on(start.year + (m2 < m1), m2, d2, now) + timedelta(days=1)


def _year_part(m: re.Match[str], now: datetime) -> Span:
    named, which = m.group(1) or m.group(3), m.group(2) or m.group(4)
    if named:
        return part(which, *months(now, now.year - (named == "去年"), 1, 12))
    return latest(now, lambda y: part(which, *months(now, y, 1, 12)))


def _month_part(m: re.Match[str], now: datetime) -> Span:
    """月初, 月中: of this month; 月底: of this month once it has come, else of last
    month; 上个月底: of last month."""
    back = 1 if m.group(1) else 0
    span = part(m.group(2), *months(now, now.year, now.month - back))
    if span[0] > now:
        span = part(m.group(2), *months(now, now.year, now.month - back - 1))
    return span


def _break(m: re.Match[str], now: datetime) -> Span:
    first = 1 if m.group(1) == "寒假" else 7
    return latest(now, lambda y: months(now, y, first, 2))


RULES: list[Rule] = [
    (re.compile(r"(元旦|圣诞|国庆|情人节|五一|劳动节|清明|春节|过年|大年初一|除夕|年三十|元宵|端午|"
                r"七夕|中秋)节?(前后|期间|前|后)?"), _holiday),
    # 年前: before the Spring Festival, not "N年前" (years ago) nor 去年 / 前年 / 每年.
    (re.compile(r"(?<![\d一两俩二三仨四五六七八九十几多半去今明每前后当那这同])(年前)(?![年天])"),
     _holiday),
    (re.compile(rf"前({_N})(?:个)?(周|星期|礼拜)|(?:过去|最近|这|近)\s*({_N})\s*(?:个)?"
                r"(天|周|星期|礼拜|月)"), _span),
    (re.compile(r"前阵子|前段时间|前些日子|前一阵"), lambda _m, now: days(now, 35, 7)),
    (re.compile(r"(去年|今年)?年(初|头|中|底|末|尾)|(去年|今年)?(上半|下半)年"), _year_part),
    (re.compile(r"(上个?)?月(初|中|底|末)"), _month_part),
    (re.compile(r"(上个?|这个?|本)季度"),
     lambda m, now: quarter(now, 1 if m.group(1).startswith("上") else 0)),
    (re.compile(r"(寒假|暑假)"), _break),
    (re.compile(r"(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]\s*(?:到|至|-|~)\s*(?:(\d{1,2})\s*月\s*)?"
                r"(\d{1,2})\s*[日号]"), _dates),
]  # fmt: skip
