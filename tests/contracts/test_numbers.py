"""Numbers as contracts write them: durations, percentages and money, normalized."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from advisor.contracts.numbers import (
    cn_to_int,
    en_to_int,
    find_durations,
    find_money,
    find_percents,
)

_DIGITS = "零一二三四五六七八九"


def to_chinese(n: int) -> str:
    """Test oracle: 1..99999 written the usual way (十二, 一百零五, 三万零八十)."""
    units = [(10000, "万"), (1000, "千"), (100, "百"), (10, "十")]
    out, zero = "", False
    for value, name in units:
        q, n = divmod(n, value)
        if q:
            if zero:
                out += "零"
            out += ("" if (value == 10 and not out and q == 1) else _DIGITS[q]) + name
            zero = False
        elif out:
            zero = True
    if n:
        out += ("零" if zero else "") + _DIGITS[n]
    return out


@given(st.integers(min_value=1, max_value=99999))
def test_chinese_numerals_round_trip(n: int) -> None:
    assert cn_to_int(to_chinese(n)) == n


@pytest.mark.parametrize(("text", "value"), [("三十", 30), ("十二", 12), ("一百八十", 180), ("伍万", 50000), ("两", 2), ("壹佰贰拾", 120)])
def test_chinese_numerals(text: str, value: int) -> None:
    assert cn_to_int(text) == value


@pytest.mark.parametrize(("text", "value"), [("thirty", 30), ("one hundred eighty", 180), ("twenty-four", 24), ("a", 1)])
def test_english_numbers(text: str, value: int) -> None:
    assert en_to_int(text) == value


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("thirty (30) days' prior written notice", 30),
        ("三十日", 30),
        ("一百八十天", 180),
        ("ninety (90)-day period", 90),
        ("two weeks", 14),
        ("5 business days", 7),
        ("half a year", 182.5),
    ],
)
def test_durations_in_days(text: str, days: float) -> None:
    assert find_durations(text)[0].days == pytest.approx(days)


@pytest.mark.parametrize(("text", "months"), [("12个月", 12), ("successive one-year terms", 12), ("six (6) months", 6), ("2年", 24)])
def test_durations_in_months(text: str, months: float) -> None:
    assert find_durations(text)[0].months == pytest.approx(months)


def test_dates_are_not_durations() -> None:
    assert find_durations("自2024年3月1日起，每月5日前付款") == []


def test_seconds() -> None:
    assert find_durations("2 minutes notice")[0].seconds == pytest.approx(120)
    assert find_durations("提前30秒通知")[0].seconds == pytest.approx(30)


@pytest.mark.parametrize(("text", "pct"), [("200%", 200), ("百分之二百", 200), ("两倍", 200), ("10 percent", 10), ("99.9％", 99.9)])
def test_percentages(text: str, pct: float) -> None:
    assert find_percents(text)[0].value == pytest.approx(pct)


@pytest.mark.parametrize(
    ("text", "amount", "currency"),
    [
        ("¥5,000", 5000, "CNY"),
        ("USD 5,000", 5000, "USD"),
        ("人民币伍万元整", 50000, "CNY"),
        ("5万元", 50000, "CNY"),
        ("$1.2 million", 1_200_000, "USD"),
        ("$0.09/GB", 0.09, "USD"),
        ("5,000 美元", 5000, "USD"),
        ("RMB 50,000", 50000, "CNY"),
        ("960,000 元", 960000, "CNY"),
    ],
)
def test_money(text: str, amount: float, currency: str) -> None:
    found = find_money(text)[0].money
    assert found.amount == pytest.approx(amount)
    assert found.currency == currency
    assert isinstance(found.amount, float)
