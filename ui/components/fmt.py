"""Formatting of figures for people: money with its currency, hours, shares, mode names."""

from __future__ import annotations

from typing import Any

from advisor.money import format_money
from ui.i18n import t


def money(amount: Any, currency: str | None) -> str:
    try:
        value = float(amount)
    except (TypeError, ValueError):
        return "—"
    return format_money(value, currency or "USD")


def number(value: Any, digits: int = 0) -> str:
    try:
        x = float(value)
    except (TypeError, ValueError):
        return "—"
    if digits == 0 and abs(x) < 10 and x != int(x):
        digits = 1
    return f"{x:,.{digits}f}"


def hours(value: Any, lang: str) -> str:
    """``36`` -> "36 h"; two days and more also in days."""
    try:
        h = float(value)
    except (TypeError, ValueError):
        return "—"
    if h >= 48:
        return t("card.days", lang, d=number(h / 24, 1))
    return t("card.hours", lang, h=number(h, 1 if h < 10 else 0))


def pct(value: Any) -> str:
    try:
        return f"{float(value) * 100:.0f}%"
    except (TypeError, ValueError):
        return "—"


def mode_label(mode: str, lang: str) -> str:
    key = f"mode.{mode}"
    label = t(key, lang)
    return mode.replace("_", " ") if label == key else label


def method_label(method: str, lang: str) -> str:
    key = f"method.{method}"
    label = t(key, lang)
    return method if label == key else label


def text_of(value: Any, lang: str) -> str:
    """A ``{en, zh}`` dict -> the text in ``lang``; anything else as it is."""
    if isinstance(value, dict) and ("en" in value or "zh" in value):
        return str(value.get(lang) or value.get("en") or value.get("zh") or "")
    return "" if value is None else str(value)
