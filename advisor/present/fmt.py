"""The one set of formatters: money, durations, GPU-hours, GPU counts, shares, dates.

Short jobs keep their size: a 90-second job reads "2 min" and "0.2 GPU-hours", never "0 h".
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

from advisor.glossary import term
from advisor.money import format_money


def _num(value: Any) -> float | None:
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(x) else x


def money(amount: Any, currency: str | None) -> str:
    x = _num(amount)
    return "—" if x is None else format_money(x, currency or "USD")


def number(value: Any, digits: int | None = None) -> str:
    """Thousands separators; small values keep two significant digits (0.0042 -> "0.0042")."""
    x = _num(value)
    if x is None:
        return "—"
    if digits is None:
        if x == 0 or abs(x) >= 100:
            digits = 0
        elif abs(x) >= 10:
            digits = 1 if x != int(x) else 0
        else:
            digits = max(1, 1 - math.floor(math.log10(abs(x)))) if x != int(x) else 0
    text = f"{x:,.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text and digits > 1 else text


def hours(value: Any, lang: str) -> str:
    """A duration given in hours: seconds, minutes, hours and minutes, hours, or days."""
    h = _num(value)
    if h is None:
        return "—"
    if h < 1 / 60:
        return term("time.seconds", lang, n=max(1, round(h * 3600)))
    if h < 1:
        return term("time.minutes", lang, n=max(1, round(h * 60)))
    if h < 2:
        whole, minutes = int(h), round((h - int(h)) * 60)
        if minutes == 60:
            whole, minutes = whole + 1, 0
        return term("time.hours_minutes", lang, h=whole, m=minutes) if minutes else term("time.hours", lang, n=whole)
    if h < 10:
        return term("time.hours", lang, n=f"{h:.1f}")
    if h < 48:
        return term("time.hours", lang, n=f"{h:,.0f}")
    return term("time.days", lang, n=number(h / 24, 1 if h < 240 else 0))


def gpu_hours(value: Any, lang: str) -> str:
    """GPU-hours with the unit: "9.6 GPU-hours" / "9.6 卡时"."""
    return f"{number(value)} {term('unit.GPU-hours', lang)}"


def gpus(count: Any, gpu: str, lang: str) -> str:
    return term("count.gpus", lang, n=count, gpu=gpu)


def pct(value: Any, digits: int = 0) -> str:
    x = _num(value)
    return "—" if x is None else f"{x * 100:.{digits}f}%"


def date(value: Any) -> str:
    """ISO dates and timestamps to ``YYYY-MM-DD HH:MM`` (the same in both languages)."""
    text = str(value or "")
    m = re.match(r"(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}))?", text)
    if not m:
        return text or "—"
    return m.group(1) + (f" {m.group(2)}" if m.group(2) else "")


def text_of(value: Any, lang: str) -> str:
    """A report's words in ``lang``. Reports hold keys and numbers: ``{"term": key, **values}`` reads
    that glossary entry with its values (words themselves when they are references),
    ``{"join": key, "parts": [...]}`` the worded parts joined by that entry; a ``{en, zh}`` dict
    (a rule's finding) gives its text in ``lang``; anything else is shown as it is."""
    if isinstance(value, dict) and "term" in value:
        return term(str(value["term"]), lang, **worded({k: v for k, v in value.items() if k != "term"}, lang))
    if isinstance(value, dict) and "join" in value:
        return term(str(value["join"]), lang).join(t for t in (text_of(p, lang) for p in value["parts"]) if t)
    if isinstance(value, dict) and ("en" in value or "zh" in value):
        return str(value.get(lang) or value.get("en") or value.get("zh") or "")
    return "" if value is None else str(value)


def worded(values: dict[str, Any], lang: str) -> dict[str, Any]:
    """Values that fill an entry: references worded, the rest as they are (the entry's format spec applies)."""
    return {k: text_of(v, lang) if isinstance(v, dict) else v for k, v in values.items()}


_INTERNAL = re.compile(
    r"\s*\(?\b(?:REQUIREMENTS|CALIBRATION\.md|DESIGN\.md|STYLE\.md)\b[^;:)]*(?:[:)]\s*)?|\s*\[S\d+\]"
    r"|\s*\(?\bCALIBRATION\b\)?"  # the calibration notes
    r"|\s*\(?issue #\d+\)?"  # the project's issue numbers
    r"|\s*(?:/?[\w.*-]+/)*[\w.*-]+\.(?:md|yaml|yml|py|csv|json)\b(?:\s+line\s+\d+)?(?:\s+--\w+)?"  # internal files
    r"|\s*\b(?:in\s+)?(?:knowledge|shared|bench|tests)/[\w/.-]*"  # the project's folders
    r"|\s*\bsearch-index id \d+(?:\s*\([^)]*\))?"
    r"|(?<![\w-])[A-F]\d(?:\s*[,/]\s*[A-F]\d)*\b:?"  # requirement ids (B4, C5/E2)
)


def public_source(text: Any) -> str:
    """A source as a user reads it: internal file names, requirement ids and issue numbers removed."""
    return _public(str(text or ""))


@lru_cache(maxsize=4096)  # sources are data-file texts, read on every report: cleaned once each
def _public(text: str) -> str:
    cleaned = _INTERNAL.sub(" ", text).replace("FITTED", "fitted")
    cleaned = re.sub(r"\(\s*[,;:]?\s*\)|\s+([,;:.)])", r"\1", cleaned)
    cleaned = re.sub(r"([,;:])[,;:]+", r"\1", cleaned)
    cleaned = re.sub(r"\(\s*[,;:]\s*", "(", cleaned)
    cleaned = re.sub(r"\b(on|in|see|with)\s*([;:,)]|$)", r"\2", cleaned)
    cleaned = re.sub(r"\s+([,;:.)])", r"\1", cleaned)
    return re.sub(r"\s{2,}", " ", cleaned).strip(" ;,:") or "—"
