"""Units, in one place: counts with suffixes, bytes, hours.

GB is 10**9 bytes and GiB is 2**30 bytes; they are different and only converted here.
"""

from __future__ import annotations

import math
import re

from advisor.errors import InputError

HOURS_PER_DAY = 24.0
HOURS_PER_MONTH = 730.0  # 8760 / 12, the convention cloud price sheets use
HOURS_PER_YEAR = 8760.0
SECONDS_PER_HOUR = 3600.0
BYTES_PER_GB = 1e9
BYTES_PER_GIB = float(2**30)

_SUFFIX = {
    "": 1.0,
    "k": 1e3,
    "K": 1e3,
    "m": 1e6,
    "M": 1e6,
    "b": 1e9,
    "B": 1e9,
    "g": 1e9,
    "G": 1e9,
    "t": 1e12,
    "T": 1e12,
    "千": 1e3,
    "万": 1e4,
    "百万": 1e6,
    "千万": 1e7,
    "亿": 1e8,
    "十亿": 1e9,
    "百亿": 1e10,
    "千亿": 1e11,
    "万亿": 1e12,
}
_WORDS = {
    "thousand": 1e3,
    "million": 1e6,
    "mn": 1e6,
    "billion": 1e9,
    "bn": 1e9,
    "trillion": 1e12,
}
_SIZE_RE = re.compile(
    r"^\s*([+-]?(?:\d+(?:[.,]\d+)*|\.\d+)(?:e[+-]?\d+)?)\s*"
    r"(thousand|million|billion|trillion|mn|bn|百万|千万|十亿|百亿|千亿|万亿|[kKmMbBgGtT千万亿])?\s*$"
)
ACCEPTED_SIZE = "a positive number, optionally with a suffix: 300M, 7B, 1.5T, 50k, 5万, 1亿"


def parse_count(text: str | float | int, field: str = "size", *, allow_zero: bool = False) -> float:
    """Parse ``"7B"``, ``"1.5T"``, ``"50k"``, ``"5万"`` or a number into a plain count.

    Raises :class:`InputError` naming ``field`` for anything else, and for values that are
    negative, zero (unless ``allow_zero``), infinite or NaN.
    """
    if isinstance(text, bool):
        raise InputError(field, text, ACCEPTED_SIZE)
    if isinstance(text, int | float):
        value = float(text)
    else:
        m = _SIZE_RE.match(str(text).replace("_", ""))
        if not m:
            raise InputError(field, text, ACCEPTED_SIZE)
        number = m.group(1).replace(",", "")
        suffix = m.group(2) or ""
        scale = _WORDS.get(suffix.lower(), _SUFFIX.get(suffix, 1.0))
        value = float(number) * scale
    return check_positive(value, field, allow_zero=allow_zero, accepted=ACCEPTED_SIZE)


def parse_billions(text: str | float | int, field: str = "size") -> float:
    """Like :func:`parse_count` but returns billions. A bare number is taken as billions.

    ``"7B"`` -> 7.0, ``"300M"`` -> 0.3, ``7`` -> 7.0, ``"70亿"`` -> 7.0.
    """
    if isinstance(text, int | float) and not isinstance(text, bool):
        return check_positive(float(text), field, accepted=ACCEPTED_SIZE)
    s = str(text).strip()
    if re.fullmatch(r"[+-]?(\d+(\.\d+)?|\.\d+)", s):
        return check_positive(float(s), field, accepted=ACCEPTED_SIZE)
    return parse_count(s, field) / 1e9


def check_positive(
    value: float, field: str, *, allow_zero: bool = False, accepted: str = "a positive number"
) -> float:
    if not math.isfinite(value) or value < 0 or (value == 0 and not allow_zero):
        raise InputError(field, value, accepted)
    return value


def gb_to_gib(gb: float) -> float:
    return gb * BYTES_PER_GB / BYTES_PER_GIB


def gib_to_gb(gib: float) -> float:
    return gib * BYTES_PER_GIB / BYTES_PER_GB
