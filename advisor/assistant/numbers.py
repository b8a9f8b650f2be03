"""Figures in free text, for the grounding check: ``$1,234.5``, ``12k``, ``3.5万``, ``50%``,
``¥8``, ``1.2e21`` — each with the values it may stand for and how precisely it was written.

Not figures (masked before reading, documented in docs/LLM.md "Number grounding"):

- digits inside names: ``H100``, ``A100-80GB``, ``Llama-3-8B``, ``Qwen2.5-72B``, ``ZeRO-3``, ``bf16``;
- paths, links and anchors: ``knowledge/guides/en/03-right-sizing.md#...``, ``https://...``;
- dates: ``2024-06-01``, ``2024年6月``, ``as of 2024``;
- list and section markers: ``1.`` / ``2)`` / ``3、`` at the start of a line, ``[1]``, ``第2``,
  ``#1``, ``Step 2``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SCALE = {
    "k": 1e3, "thousand": 1e3, "千": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "b": 1e9, "bn": 1e9,
    "billion": 1e9, "t": 1e12, "trillion": 1e12, "万": 1e4, "亿": 1e8, "万亿": 1e12, "百万": 1e6, "千万": 1e7,
    "%": 0.01,
}  # fmt: skip

_MASKS = [
    re.compile(r"https?://\S+"),
    re.compile(r"\]\([^)]*\)"),  # markdown link targets
    re.compile(r"(?<![\w./-])[\w./-]+(?:#[\w-]*)?"),  # paths (blanked only with a file extension, see _mask)
    re.compile(r"#[\w-]*\d[\w-]*"),  # anchors, "#1"
    re.compile(r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)*(?<=[A-Za-z0-9])", re.A),  # names
    re.compile(r"(?<!\d)(?:19|20)\d{2}(?:[-/.]\d{1,2}){1,2}(?!\d)"),  # dates
    re.compile(r"(?<!\d)(?:19|20)\d{2}\s*年(?:\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*日)?)?"),
    re.compile(r"(?:as\s+of|since|until|截至|截止)\s*(?:19|20)\d{2}(?!\d)", re.I),
    re.compile(r"^\s*(?:[-*]\s*)?\d{1,2}\s*[.)、](?!\d)", re.M),  # list markers
    re.compile(r"\[\d{1,2}\]"),
    re.compile(r"第\s*\d+"),
    re.compile(r"(?:step|option|stage|phase|section|guide)\s+\d{1,2}(?!\d)", re.I),
]
_NAME_HAS_DIGIT = re.compile(r"\d")
_FILE_EXT = re.compile(r"\.(?:md|txt|pdf|docx|csv|yaml|yml|json|parquet)(?![A-Za-z0-9])", re.I)

_NUMBER = re.compile(
    r"(?P<cur>US\$|\$|¥|￥|RMB\s*|CNY\s*|USD\s*)?"
    r"(?<![\d.,])(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?P<exp>[eE][+-]?\d+)?"
    r"\s*(?P<suf>万亿|百万|千万|亿|万|千|thousand|million|billion|trillion|bn|mn|[kKmMbBtT](?![A-Za-z])|%)?",
)


@dataclass(frozen=True)
class Figure:
    """A number as written: ``text``, its ``values`` (plain and scaled), and ``tol`` — half a
    unit in the last displayed place for each value (see :func:`read_figures`)."""

    text: str
    start: int
    values: tuple[float, ...]
    tols: tuple[float, ...]


def _mask(text: str) -> str:
    """``text`` with the non-figures blanked (same length, so offsets stay valid)."""
    out = text
    for pattern in _MASKS:
        def blank(m: re.Match[str], pattern: re.Pattern[str] = pattern) -> str:
            text = m.group(0)
            if pattern.pattern.startswith("(?<![A-Za-z0-9])[A-Za-z]") and not _NAME_HAS_DIGIT.search(text):
                return text  # a plain word keeps its place (it may end a figure: "12 k")
            if pattern.pattern.startswith("(?<![\\w./-])") and not _FILE_EXT.search(text):
                return text  # not a file path
            return " " * len(m.group(0))

        out = pattern.sub(blank, out)
    return out


def _half_unit(digits: str) -> float:
    """Half a unit in the last displayed place. ``12.5`` -> 0.05; ``12,000`` -> 500 (an integer's
    trailing zeros are read as rounding, down to two significant figures)."""
    plain = digits.replace(",", "")
    if "." in plain:
        return 0.5 * 10 ** -len(plain.split(".")[1])
    stripped = plain.rstrip("0")
    zeros = len(plain) - len(stripped)
    zeros = min(zeros, max(0, len(plain) - 2))
    return 0.5 * 10**zeros


def read_figures(text: str) -> list[Figure]:
    """Every figure in ``text``, in order."""
    masked = _mask(text)
    found: list[Figure] = []
    for m in _NUMBER.finditer(masked):
        digits = m.group("n")
        base = float(digits.replace(",", ""))
        half = _half_unit(digits)
        if m.group("exp"):
            factor = 10 ** int(m.group("exp")[1:])
            base, half = base * factor, half * factor
        suffix = (m.group("suf") or "").strip()
        scale = _SCALE.get(suffix.lower() if suffix.isascii() else suffix, 1.0)
        values, tols = [base], [half]
        if scale != 1.0:
            values.append(base * scale)
            tols.append(half * scale)
        found.append(Figure(text=m.group(0).strip(), start=m.start(), values=tuple(values), tols=tuple(tols)))
    return found


def numbers_in(obj: object, *, key: str = "") -> list[float]:
    """Every number in a JSON-like value: numeric leaves, and the figures written in its strings
    (report summaries, finding texts). Fractions also count as percentages, hours also as days."""
    out: list[float] = []
    if isinstance(obj, bool) or obj is None:
        return out
    if isinstance(obj, int | float):
        v = float(obj)
        out.append(v)
        if 0 < abs(v) <= 1.5:
            out.append(v * 100)
        if "hours" in key:
            out.extend((v / 24, v / (24 * 7)))
        return out
    if isinstance(obj, str):
        for f in read_figures(obj):
            out.extend(f.values)
        return out
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.extend(numbers_in(v, key=str(k)))
        return out
    if isinstance(obj, list | tuple):
        for v in obj:
            out.extend(numbers_in(v, key=key))
    return out


def close(value: float, known: float, tol: float = 0.0, rel: float = 0.01) -> bool:
    """Equal within ``rel`` of the known value, or within ``tol`` (displayed precision)."""
    return abs(value - known) <= max(rel * abs(known), tol, 1e-9)
