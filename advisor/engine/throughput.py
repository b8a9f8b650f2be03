"""How fast a job runs: model FLOPs utilization (MFU) by card generation, model size, cluster
size, method and software era, and the GPU-hours that follow.

expected MFU = base × generation × size(N, generation) × cluster(n) × era × method
               × [MoE] × [FP8] × [PCIe, n > 1]

- size(N, g)  = (max(N_active, floor) / 7B) ^ size_exponent[g]   (larger models use fast cards
                better; no slope below ``mfu.size_floor_b``, where the fitted runs show none)
                × (min(width, width_floor) / width_floor) ^ width_exponent[g]  (narrow layers:
                width = the narrowest matrix dimension, hidden size or a routed expert's MLP width)
- cluster(n)  = (n / node) ^ −cluster_exponent for n above one node, else 1
- era         = the software stack's year (``mfu.era_factor``; default: today's stack)

``base`` is the MFU of a whole published run (restarts, evaluation and ramp-up included, since
published GPU-hours are wall time × GPUs) for a 7B dense model on one A100 node. The factors
are fitted in log space on ``knowledge/calibration/pretrain_runs.yaml`` (``make bench`` prints
the fit and its cross-validated error). The low–high band comes from the cross-validated
residuals of that fit, by card generation (``mfu.band_by_regime``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from advisor.engine.params import Params
from advisor.engine.xp import of
from advisor.units import SECONDS_PER_HOUR


def _table(gen_table: dict[str, Any], generation: Any, fallback: float) -> Any:
    if isinstance(generation, str):
        return float(gen_table.get(generation, fallback))
    names = np.asarray(generation, dtype=object)
    return np.asarray([float(gen_table.get(g, fallback)) for g in names.ravel()]).reshape(names.shape)


def cluster_factor(gpu_count: Any, p: Params) -> Any:
    node = float(p("memory.gpus_per_node"))
    xp = of(gpu_count)
    n = xp.maximum(xp.asarray(gpu_count, dtype=float), node)
    return (n / node) ** -float(p("mfu.cluster_exponent"))


def size_factor(active_params_b: float, generation: Any, p: Params, width: float | None = None) -> Any:
    table = p("mfu.size_exponent")
    exponent = _table(table, generation, float(table["default"]))
    factor = (max(active_params_b, float(p("mfu.size_floor_b"))) / 7.0) ** exponent
    if width is None:
        return factor
    # matrices narrower than the card's width floor leave its tensor cores idle
    widths = p("mfu.width_exponent")
    floor = float(p("mfu.width_floor"))
    return factor * (min(float(width), floor) / floor) ** _table(widths, generation, float(widths["default"]))


def era_key(era: str | int | None, p: Params) -> str:
    """The ``mfu.era_factor`` row of a software era: a year maps to the latest row not after it."""
    table = p.peek("mfu.era_factor")
    if era is None or str(era).strip().lower() in ("", "current", "today", "now"):
        return "current"
    text = str(era).strip()
    if text in table:
        return text
    years = sorted(int(k) for k in table if k.isdigit())
    try:
        year = int(text)
    except ValueError:
        return "current"
    if not years or year > years[-1]:
        return "current"
    return str(max([y for y in years if y <= year] or [years[0]]))


def expected_mfu(
    *,
    generation: Any,
    gpu_count: Any,
    active_params_b: float,
    method: str,
    moe: bool,
    precision: str,
    nvlink: Any,
    p: Params,
    era: str | int | None = None,
    width: float | None = None,
) -> Any:
    """Expected MFU, measured against the card's peak at ``precision``.

    ``generation`` and ``nvlink`` may be arrays (one entry per configuration)."""
    gen_table = p("mfu.generation_factor")
    gen = _table(gen_table, generation, min(gen_table.values()))
    mfu = float(p("mfu.base")) * gen * cluster_factor(gpu_count, p) * size_factor(active_params_b, generation, p, width)
    mfu = mfu * float(p("mfu.era_factor")[era_key(era, p)])
    mfu = mfu * float(p("mfu.method_factor")[method])
    if moe:
        mfu = mfu * float(p("mfu.moe_factor"))
    if precision == "fp8":
        mfu = mfu * float(p("mfu.fp8_factor"))
    xp = of(gpu_count, nvlink, mfu)
    pcie = xp.logical_and(xp.asarray(gpu_count) > 1, xp.logical_not(xp.asarray(nvlink, dtype=bool)))
    mfu = mfu * xp.where(pcie, float(p("mfu.pcie_factor")), 1.0)
    lo, hi = p("mfu.bounds")
    return xp.clip(mfu, float(lo), float(hi))


def regime(method: str, generation: str, p: Params) -> str:
    """The calibration regime an estimate falls in (the card generation of a pre-training run);
    its band is that regime's cross-validated residual spread."""
    return generation if method == "pretrain" and generation in p.peek("mfu.calibrated_generations") else "uncalibrated"


@lru_cache(maxsize=16)
def _ratios(low: float, high: float) -> tuple[float, float]:
    return float(np.exp(low)), float(np.exp(high))


def mfu_band(expected: Any, p: Params, band_regime: str = "uncalibrated") -> tuple[Any, Any]:
    """(low, high) MFU: the expected value shifted by the regime's cross-validated 80 % interval
    of log(published / estimated GPU-hours). High GPU-hours go with low MFU."""
    p10, p90 = p("mfu.band_by_regime")[band_regime]
    below, above = _ratios(float(p10), float(p90))
    lo, hi = (float(x) for x in p("mfu.bounds"))
    xp = of(expected)
    return xp.clip(expected / above, lo, hi), xp.clip(expected / below, lo, hi)


def compute_gpu_hours(flops: float, time_factor: float, peak_tflops: Any, mfu: Any) -> Any:
    """GPU-hours of compute: FLOPs × time multipliers ÷ (peak × MFU)."""
    peak = of(peak_tflops).asarray(peak_tflops, dtype=float)
    return flops * time_factor / (peak * 1e12 * mfu * SECONDS_PER_HOUR)
