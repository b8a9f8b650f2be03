"""How fast a job runs: model FLOPs utilization (MFU) by card generation, model size, cluster
size and method, and the GPU-hours that follow.

expected MFU = base × generation × cluster(n) × size(N) × method × [MoE] × [FP8] × [PCIe, n > 1]

- cluster(n) = max(floor, 1 − decline · log2(n / node)) for n above one node, else 1
- size(N)    = 1 + slope · log10(N_active / 7B), kept within ±15 %
The low–high band multiplies the expected MFU by ``mfu.band``. All constants are in
``knowledge/catalog/defaults.yaml`` with the published runs they were calibrated on.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from advisor.engine.params import Params
from advisor.units import SECONDS_PER_HOUR


def cluster_factor(gpu_count: Any, p: Params) -> Any:
    node = float(p("memory.gpus_per_node"))
    n = np.maximum(np.asarray(gpu_count, dtype=float), node)
    return np.maximum(float(p("mfu.cluster_floor")), 1.0 - float(p("mfu.cluster_decline")) * np.log2(n / node))


def size_factor(active_params_b: float, p: Params) -> float:
    raw = 1.0 + float(p("mfu.size_slope")) * np.log10(max(active_params_b, 1e-3) / 7.0)
    return float(np.clip(raw, 0.85, 1.15))


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
) -> Any:
    """Expected MFU, measured against the card's peak at ``precision``.

    ``generation`` and ``nvlink`` may be arrays (one entry per configuration).
    """
    gen_table = p("mfu.generation_factor")
    fallback = min(gen_table.values())
    if isinstance(generation, str):
        gen: Any = float(gen_table.get(generation, fallback))
    else:
        names = np.asarray(generation, dtype=object)
        gen = np.asarray([float(gen_table.get(g, fallback)) for g in names.ravel()]).reshape(names.shape)
    mfu = float(p("mfu.base")) * gen * cluster_factor(gpu_count, p) * size_factor(active_params_b, p)
    mfu = mfu * float(p("mfu.method_factor")[method])
    if moe:
        mfu = mfu * float(p("mfu.moe_factor"))
    if precision == "fp8":
        mfu = mfu * float(p("mfu.fp8_factor"))
    multi = np.asarray(gpu_count) > 1
    pcie = np.logical_not(np.asarray(nvlink, dtype=bool))
    mfu = mfu * np.where(multi & pcie, float(p("mfu.pcie_factor")), 1.0)
    lo, hi = p("mfu.bounds")
    return np.clip(mfu, float(lo), float(hi))


def mfu_band(expected: Any, p: Params) -> tuple[Any, Any]:
    low, high = p("mfu.band")
    lo, hi = p("mfu.bounds")
    return np.clip(expected * float(low), lo, hi), np.clip(expected * float(high), lo, hi)


def compute_gpu_hours(flops: float, time_factor: float, peak_tflops: Any, mfu: Any) -> Any:
    """GPU-hours of compute: FLOPs × time multipliers ÷ (peak × MFU)."""
    return flops * time_factor / (np.asarray(peak_tflops, dtype=float) * 1e12 * mfu * SECONDS_PER_HOUR)
