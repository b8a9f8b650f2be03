"""Units, in one place: counts with suffixes, bytes, hours.

GB is 10**9 bytes and GiB is 2**30 bytes; they are different and only converted here.
"""

from __future__ import annotations

import math

from advisor.errors import InputError

HOURS_PER_DAY = 24.0
HOURS_PER_MONTH = 730.0  # 8760 / 12, the convention cloud price sheets use
HOURS_PER_YEAR = 8760.0
SECONDS_PER_HOUR = 3600.0
BYTES_PER_GB = 1e9
BYTES_PER_GIB = float(2**30)

# Numbers written by people (7B, 70亿, ７Ｂ, 7,000,000,000) are parsed in one place.
from advisor.numeric import (  # noqa: E402  (re-exported: the product's one number parser)
    ACCEPTED_SIZE,
    check_bounds,
    normalize_number_text,
    parse_billions,
    parse_count,
    parse_fraction,
    parse_number,
    parse_price,
)

__all__ = ["ACCEPTED_SIZE", "BYTES_PER_GB", "BYTES_PER_GIB", "HOURS_PER_DAY", "HOURS_PER_MONTH", "HOURS_PER_YEAR",
           "SECONDS_PER_HOUR", "check_bounds", "check_positive", "gb_to_gib", "gib_to_gb", "normalize_number_text",
           "parse_billions", "parse_count", "parse_fraction", "parse_number", "parse_price"]


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
