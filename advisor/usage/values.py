"""Cell values of telemetry logs: numbers with units, "not available" markers, timestamps.

nvidia-smi writes ``45 %``, ``19818 MiB``, ``631.95 W``, ``[N/A]`` and
``[Not Supported]``; with ``--format=csv,nounits`` the units are dropped. The SQL reader
(:mod:`advisor.usage.readers.smi_sql`) applies the same rules to large logs; this module is
the Python side, used for text captures and Prometheus files.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime


class BadValue(ValueError):
    """A cell that is neither a number (with its unit) nor a "not available" marker."""


def is_missing(text: str | None) -> bool:
    """Empty, ``[N/A]``, ``[Not Supported]``, ``N/A``: the GPU did not report the value."""
    if text is None:
        return True
    s = text.strip()
    return s == "" or s.startswith("[") or s.upper() in ("N/A", "NA")


def number(text: str | None, unit: str | None) -> float | None:
    """``"45 %"`` (unit ``%``) -> 45.0; missing markers -> None; anything else -> BadValue."""
    if is_missing(text):
        return None
    s = str(text).strip()
    if unit and s.endswith(unit):
        s = s[: -len(unit)].strip()
    try:
        value = float(s)
    except ValueError as exc:
        raise BadValue(f"{str(text).strip()!r} is not a number") from exc
    if not math.isfinite(value):
        raise BadValue(f"{str(text).strip()!r} is not a finite number")
    return value


def timestamp(text: str | None) -> float:
    """A log timestamp -> epoch seconds, reading naive times as UTC (the log's clock kept).

    Accepts nvidia-smi's ``2026/07/14 08:12:38.696`` and ISO 8601 forms, like the SQL reader
    (which casts the text with '/' replaced by '-').
    """
    s = (text or "").strip()
    try:
        parsed = datetime.fromisoformat(s.replace("/", "-").replace("Z", "+00:00"))
    except ValueError as exc:
        raise BadValue(f"{s!r} is not a timestamp (expected YYYY/MM/DD HH:MM:SS.mmm)") from exc
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.timestamp()


def iso(epoch_s: float | None) -> str | None:
    """Epoch seconds -> ``YYYY-MM-DDTHH:MM:SS`` (the samples' own clock), for reports."""
    if epoch_s is None:
        return None
    return datetime.fromtimestamp(float(epoch_s), tz=UTC).strftime("%Y-%m-%dT%H:%M:%S")


def day(epoch_day: float | int) -> str:
    """A day number since 1970-01-01 -> ``YYYY-MM-DD``."""
    return datetime.fromtimestamp(int(epoch_day) * 86400, tz=UTC).strftime("%Y-%m-%d")
