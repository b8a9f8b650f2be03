"""Timestamp outliers in telemetry: rows whose clock cannot be right never become spend.

One stray row (a 1970 timestamp from an unset clock, a row a year away, a host on another
clock) stretches a GPU's observed period, and with it its sampling interval and its billed
hours, by years. Before any hour is counted, rows are excluded when:

1. their time is before ``usage_time.earliest_plausible`` or more than
   ``usage_time.max_future_days`` after the analysis runs (``knowledge/limits.yaml``), when
   other rows are plausible (a log whose clock was never set still has right durations);
2. they lie outside the main stretch of their file's timeline: a file's sample times are
   split wherever consecutive times are more than ``usage_time.min_gap_hours`` apart, and only
   the stretch with the most rows is kept (ties: the latest). Files are judged separately:
   two logs of different months are both real.

The excluded rows are marked ``skip = 'timestamp_outlier'`` (so the accounting of rows read
and used still holds), and :class:`TimeOutliers` says how many, which, and how many hours of
observed period they would have added.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime

from advisor.limits import usage_time
from advisor.usage import queries as Q
from advisor.usage.engine import Engine

SKIP_TIME_OUTLIER = "timestamp_outlier"


@dataclass
class TimeOutliers:
    """Rows left out of the analysis because their timestamps cannot be right."""

    rows: int = 0
    excluded_hours: float = 0.0  # observed period the rows would have added
    reasons: dict[str, int] = field(default_factory=dict)
    examples: list[str] = field(default_factory=list)  # "host/gpu at 1970-01-01T00:00:00Z (reason)"


def _epoch(day: str) -> float:
    return datetime.fromisoformat(str(day)).replace(tzinfo=UTC).timestamp()


def _iso(t: float) -> str:
    try:
        return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (OverflowError, OSError, ValueError):
        return f"{t:g} s"


def exclude_time_outliers(engine: Engine, now: float | None = None) -> TimeOutliers:
    """Mark outlier rows in ``samples`` and describe them (no rows: nothing to do)."""
    rules = usage_time()
    out = TimeOutliers()
    span = engine.one("SELECT MIN(t) AS t0, MAX(t) AS t1, COUNT(*) AS n FROM samples WHERE skip IS NULL")
    if not span or not span.get("n"):
        return out
    earliest = _epoch(rules["earliest_plausible"])
    latest = (now or time.time()) + float(rules["max_future_days"]) * 86400
    plausible = {r["src"] for r in engine.rows(Q.PLAUSIBLE_SOURCES, {"lo": earliest, "hi": latest})}
    for src in sorted(plausible):  # a log whose clock was never set at all still has right durations
        engine.execute(Q.MARK_OUTSIDE, {"reason": SKIP_TIME_OUTLIER + ":implausible_date", "src": src, "lo": earliest,
                                        "hi": latest})
    by_file: dict[int, list[dict]] = {}
    for segment in engine.rows(Q.TIME_SEGMENTS, {"gap": float(rules["min_gap_hours"]) * 3600}):
        by_file.setdefault(int(segment["src"]), []).append(segment)
    for src, segments in by_file.items():
        if len(segments) > 1:
            main = max(segments, key=lambda s: (s["n"], s["t1"]))
            engine.execute(Q.MARK_OUTSIDE, {"reason": SKIP_TIME_OUTLIER + ":outside_main_period", "src": src,
                                            "lo": main["t0"], "hi": main["t1"]})
    marked = engine.rows(Q.OUTLIER_COUNTS, {"p": SKIP_TIME_OUTLIER + ":%"})
    if not marked:
        return out
    out.reasons = {r["skip"].split(":", 1)[1]: int(r["n"]) for r in marked}
    out.rows = sum(out.reasons.values())
    kept = engine.one("SELECT MIN(t) AS t0, MAX(t) AS t1 FROM samples WHERE skip IS NULL")
    if kept.get("t0") is not None:
        out.excluded_hours = max(0.0, (float(span["t1"]) - float(span["t0"]) - (kept["t1"] - kept["t0"])) / 3600)
    else:
        out.excluded_hours = (float(span["t1"]) - float(span["t0"])) / 3600
    examples = engine.rows(Q.OUTLIER_EXAMPLES, {"p": SKIP_TIME_OUTLIER + ":%"})
    out.examples = [f"{r['instance']}/{r['gpu_id']} at {_iso(float(r['t']))} "
                    f"({r['skip'].split(':', 1)[1].replace('_', ' ')})" for r in examples]
    # The rows are no longer samples: the same skip reason for every one of them.
    engine.execute(Q.OUTLIER_REASON, {"reason": SKIP_TIME_OUTLIER, "p": SKIP_TIME_OUTLIER + ":%"})
    return out
