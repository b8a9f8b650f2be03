"""Failures and checkpoints: the GPU time a run loses to interruptions.

The job's mean time between failures shrinks with its GPU count (M = per-GPU MTBF / n).
The checkpoint interval defaults to Young/Daly, τ = √(2·δ·M), with δ the time to write one
checkpoint. Each interruption loses on average half an interval of work plus the restart;
writing checkpoints costs δ/τ of the run.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from advisor.engine.params import Params
from advisor.engine.xp import of


class FailureOverhead(NamedTuple):
    job_mtbf_hours: float
    checkpoint_write_hours: float
    optimal_interval_hours: float
    interval_hours: float
    expected_interruptions: float
    overhead_wall_hours: float  # added to the run's wall time


def write_hours(ckpt_gb: Any, gpu_count: Any, p: Params) -> Any:
    xp = of(ckpt_gb, gpu_count)
    seconds = xp.asarray(ckpt_gb, dtype=float) / (float(p("checkpoint.write_gb_per_s")) * xp.asarray(gpu_count, dtype=float))
    return xp.maximum(seconds / 3600.0, float(p("checkpoint.min_write_minutes")) / 60.0)


def young_daly(write_h: Any, mtbf_h: Any) -> Any:
    xp = of(write_h, mtbf_h)
    return xp.sqrt(2.0 * xp.asarray(write_h) * xp.asarray(mtbf_h))


def overhead(
    compute_wall_hours: Any,
    gpu_count: Any,
    ckpt_gb: float,
    p: Params,
    *,
    interval_hours: float | None = None,
) -> Any:
    """Extra wall hours from failures and checkpoint writes (array-friendly).

    Returns (extra_wall_hours, job_mtbf, write_hours, interval, interruptions)."""
    xp = of(compute_wall_hours, gpu_count, ckpt_gb)
    n = xp.asarray(gpu_count, dtype=float)
    mtbf = float(p("failures.gpu_mtbf_hours")) / n
    delta = write_hours(ckpt_gb, n, p)
    tau = young_daly(delta, mtbf) if interval_hours is None else xp.full_like(mtbf, float(interval_hours))
    wall = xp.asarray(compute_wall_hours, dtype=float)
    writes = wall * delta / tau
    interruptions = (wall + writes) / mtbf
    lost = interruptions * (xp.minimum(tau, wall) / 2.0 + float(p("failures.restart_hours")))
    return writes + lost, mtbf, delta, tau, interruptions


def failure_overhead(
    compute_wall_hours: float,
    gpu_count: int,
    ckpt_gb: float,
    p: Params,
    interval_hours: float | None = None,
) -> FailureOverhead:
    extra, mtbf, delta, tau, k = overhead(compute_wall_hours, gpu_count, ckpt_gb, p, interval_hours=interval_hours)
    optimal = float(young_daly(delta, mtbf))
    return FailureOverhead(
        job_mtbf_hours=float(mtbf),
        checkpoint_write_hours=float(delta),
        optimal_interval_hours=optimal if math.isfinite(optimal) else 0.0,
        interval_hours=float(tau),
        expected_interruptions=float(k),
        overhead_wall_hours=float(extra),
    )
