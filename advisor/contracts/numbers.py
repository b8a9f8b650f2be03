"""Numbers as contracts write them, normalized once: durations, percentages, money.

Contracts spell the same quantity many ways: "thirty (30) days", "三十日", "one-year
term", "12个月", "200%", "百分之二百", "¥5,000", "USD 5,000", "人民币伍万元". The detectors
read every number through this module so that the rules compare plain values: days,
months, seconds, percent, and money with a currency.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from advisor.money import Money

_CN_DIGITS = {
    "零": 0, "〇": 0, "一": 1, "壹": 1, "二": 2, "贰": 2, "两": 2, "兩": 2, "三": 3, "叁": 3,
    "四": 4, "肆": 4, "五": 5, "伍": 5, "六": 6, "陆": 6, "七": 7, "柒": 7, "八": 8, "捌": 8,
    "九": 9, "玖": 9,
}  # fmt: skip
_CN_SMALL_UNITS = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
_CN_BIG_UNITS = {"万": 10_000, "萬": 10_000, "亿": 100_000_000}
CN_NUMERAL_CHARS = "".join([*_CN_DIGITS, *_CN_SMALL_UNITS, *_CN_BIG_UNITS])

_EN_UNITS = {
    "zero": 0, "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
_EN_WORD = r"(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|and|a|an)"
_EN_NUMBER = rf"(?:{_EN_WORD}(?:[\s-]+{_EN_WORD})*)"


def cn_to_int(text: str) -> int | None:
    """``"三十"`` -> 30, ``"一百八十"`` -> 180, ``"伍万"`` -> 50000, ``"十二"`` -> 12."""
    text = text.strip()
    if not text or any(ch not in CN_NUMERAL_CHARS for ch in text):
        return None
    total, section, digit = 0, 0, None
    for ch in text:
        if ch in _CN_DIGITS:
            digit = _CN_DIGITS[ch]
        elif ch in _CN_SMALL_UNITS:
            section += (1 if digit is None else digit) * _CN_SMALL_UNITS[ch]
            digit = None
        else:
            section += digit or 0
            total = (total + section) * _CN_BIG_UNITS[ch]
            section, digit = 0, None
    return total + section + (digit or 0)


def en_to_int(text: str) -> int | None:
    """``"one hundred eighty"`` -> 180, ``"thirty"`` -> 30, ``"a"`` -> 1."""
    words = [w for w in re.split(r"[\s-]+", text.lower()) if w and w != "and"]
    if not words:
        return None
    total, current = 0, 0
    for w in words:
        if w in _EN_UNITS:
            current += _EN_UNITS[w]
        elif w == "hundred":
            current = max(current, 1) * 100
        elif w == "thousand":
            total += max(current, 1) * 1000
            current = 0
        else:
            return None
    return total + current


def to_number(text: str) -> float | None:
    """A number written with digits, Chinese numerals or English words."""
    s = text.strip().replace(",", "").replace("，", "")
    if re.fullmatch(r"\d+(?:\.\d+)?", s):
        return float(s)
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([万亿千])", s)
    if m:
        return float(m.group(1)) * {"千": 1e3, "万": 1e4, "亿": 1e8}[m.group(2)]
    value = cn_to_int(s)
    if value is None:
        value = en_to_int(s)
    return None if value is None else float(value)


# ---------------------------------------------------------------- durations
_DAY_UNITS = {
    "second": 1 / 86400, "seconds": 1 / 86400, "秒": 1 / 86400, "秒钟": 1 / 86400,
    "minute": 1 / 1440, "minutes": 1 / 1440, "分钟": 1 / 1440, "分": 1 / 1440,
    "hour": 1 / 24, "hours": 1 / 24, "小时": 1 / 24, "个小时": 1 / 24,
    "day": 1, "days": 1, "日": 1, "天": 1, "calendar day": 1, "calendar days": 1,
    "business day": 1.4, "business days": 1.4, "working day": 1.4, "working days": 1.4,
    "工作日": 1.4, "个工作日": 1.4,
    "week": 7, "weeks": 7, "周": 7, "个周": 7, "星期": 7, "个星期": 7,
    "month": 365 / 12, "months": 365 / 12, "个月": 365 / 12, "月": 365 / 12,
    "calendar month": 365 / 12, "calendar months": 365 / 12,
    "year": 365, "years": 365, "年": 365, "个年度": 365, "年度": 365,
    "contract year": 365, "contract years": 365,
}  # fmt: skip
_EN_DUR_UNIT = r"(?:calendar\s+|business\s+|working\s+|contract\s+)?(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)"
_ZH_DUR_UNIT = r"(?:秒钟|秒|分钟|个小时|小时|个工作日|工作日|日|天|个星期|星期|个周|周|个月|个年度|年度|年)"
_DUR_RE = re.compile(
    # "thirty (30) days", "30 days", "thirty days", "one-year", "6-month"
    rf"(?:(?P<w>\b{_EN_NUMBER})\s*)?(?:\(\s*(?P<p>\d+(?:\.\d+)?)\s*\)\s*|(?P<d>\d+(?:\.\d+)?)\s*)?"
    rf"(?:-\s*)?(?P<u>{_EN_DUR_UNIT})\b"
    rf"|(?P<zn>\d+(?:\.\d+)?|[{CN_NUMERAL_CHARS}]+)\s*(?P<zu>{_ZH_DUR_UNIT})",
    re.IGNORECASE,
)
_HALF_YEAR_RE = re.compile(r"half\s+(?:a\s+)?year|半年|six-month|semi-annual", re.IGNORECASE)


@dataclass(frozen=True)
class Duration:
    """A span of time found in text: ``days`` is the normalized length."""

    days: float
    start: int
    end: int
    text: str

    @property
    def months(self) -> float:
        return round(self.days / (365 / 12), 2)

    @property
    def seconds(self) -> float:
        return round(self.days * 86400, 3)


def find_durations(text: str) -> list[Duration]:
    """Every duration in ``text`` with its position, in order."""
    found: list[Duration] = []
    for m in _DUR_RE.finditer(text):
        if m.group("u"):
            unit = re.sub(r"\s+", " ", m.group("u").lower())
            raw = m.group("p") or m.group("d") or m.group("w")
            if raw is None:
                # a bare unit ("days") is not a duration, except "year-to-year", "monthly" handled by callers
                continue
            number = to_number(raw)
            if number is None and m.group("w"):
                # "the thirty days": the word part might contain a leading "the"/"and"
                number = en_to_int(m.group("w").split()[-1])
        else:
            unit = m.group("zu")
            number = to_number(m.group("zn"))
        if number is None or number <= 0:
            continue
        per = _DAY_UNITS.get(unit) or _DAY_UNITS.get(unit.rstrip("s"))
        if per is None:
            continue
        if m.group("zn") and _is_calendar_date(text, m.start(), m.end(), unit, number):
            continue
        found.append(Duration(days=number * per, start=m.start(), end=m.end(), text=m.group(0).strip()))
    for m in _HALF_YEAR_RE.finditer(text):
        found = [d for d in found if d.end <= m.start() or d.start >= m.end()]
        found.append(Duration(days=365 / 2, start=m.start(), end=m.end(), text=m.group(0)))
    return sorted(found, key=lambda d: d.start)


def _is_calendar_date(text: str, start: int, end: int, unit: str, number: float) -> bool:
    """"2024年3月1日" and "每月5日" are dates, not 2024 years, three months or five days."""
    before = text[max(0, start - 1) : start]
    if unit == "年":
        return number >= 1900
    if unit == "月":
        return before == "年" or bool(re.match(r"\s*[\d一二三四五六七八九十]{1,3}\s*[日号]", text[end : end + 4]))
    if unit == "日":
        return before in ("月", "每")
    return False


# ---------------------------------------------------------------- percentages
_PCT_RE = re.compile(
    r"(?P<n>\d+(?:\.\d+)?)\s*(?:%|％|percent\b|per\s+cent\b)"
    rf"|百分之(?P<cn>[\d.{CN_NUMERAL_CHARS}]+)"
    rf"|(?P<x>\d+(?:\.\d+)?|[{CN_NUMERAL_CHARS}]+)\s*倍",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Percent:
    value: float
    start: int
    end: int
    text: str


def find_percents(text: str) -> list[Percent]:
    """``"200%"``, ``"百分之二百"``, ``"两倍"`` (= 200 %), ``"10 percent"``."""
    out: list[Percent] = []
    for m in _PCT_RE.finditer(text):
        if m.group("n"):
            value = float(m.group("n"))
        elif m.group("cn"):
            value = to_number(m.group("cn")) or 0.0
        else:
            times = to_number(m.group("x"))
            value = (times or 0.0) * 100
        if value > 0:
            out.append(Percent(value=value, start=m.start(), end=m.end(), text=m.group(0)))
    return out


# ---------------------------------------------------------------- money
_CUR_PREFIX = {
    "$": "USD", "us$": "USD", "usd": "USD", "u.s.$": "USD",
    "¥": "CNY", "￥": "CNY", "rmb": "CNY", "cny": "CNY", "人民币": "CNY",
}  # fmt: skip
_CUR_SUFFIX = {
    "元": "CNY", "元整": "CNY", "块": "CNY", "人民币": "CNY", "rmb": "CNY", "cny": "CNY", "yuan": "CNY",
    "美元": "USD", "美金": "USD", "usd": "USD", "dollars": "USD", "us dollars": "USD",
    "u.s. dollars": "USD",
}  # fmt: skip
_SCALE = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mm": 1e6, "billion": 1e9, "千": 1e3, "万": 1e4, "亿": 1e8, "百万": 1e6, "千万": 1e7}
_MONEY_RE = re.compile(
    r"(?P<pre>US\$|U\.S\.\s?\$|\$|¥|￥|USD|RMB|CNY|人民币)\s*(?P<pn>\d[\d,]*(?:\.\d+)?|[" + CN_NUMERAL_CHARS + r"]+)"
    r"\s*(?P<ps>million|thousand|billion|mm|百万|千万|万|亿|千|k\b|m\b)?\s*(?P<pst>元整|元|美元)?"
    r"|(?P<sn>\d[\d,]*(?:\.\d+)?|[" + CN_NUMERAL_CHARS + r"]+)\s*(?P<ss>million|thousand|billion|百万|千万|万|亿|千)?\s*"
    r"(?P<suf>元整|元|块|美元|美金|USD|RMB|CNY|yuan|U\.S\.\s+dollars|US\s+dollars|dollars)(?![a-z])",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Amount:
    money: Money
    start: int
    end: int
    text: str


def find_money(text: str) -> list[Amount]:
    """Amounts of money with their currency: ``"$5,000"``, ``"5万元"``, ``"USD 1.2 million"``."""
    out: list[Amount] = []
    for m in _MONEY_RE.finditer(text):
        if m.group("pre"):
            currency = _CUR_PREFIX.get(re.sub(r"\s+", "", m.group("pre").lower()), "USD")
            if m.group("pst") == "美元":
                currency = "USD"
            number, scale = m.group("pn"), m.group("ps")
        else:
            suffix = re.sub(r"\s+", " ", m.group("suf").lower())
            currency = _CUR_SUFFIX.get(suffix, "USD")
            number, scale = m.group("sn"), m.group("ss")
        value = to_number(number)
        if value is None:
            continue
        value *= _SCALE.get((scale or "").lower(), 1.0)
        if value <= 0:
            continue
        money = Money(amount=float(value), currency="CNY" if currency == "CNY" else "USD")
        out.append(Amount(money, m.start(), m.end(), m.group(0).strip()))
    return out
