"""Decision tools of issue #12, in process: each call < 10 ms (median of repeated calls after a
warm-up; the catalog and rule packs are loaded once, as in a running app)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

TARGET_MS = 10.0


def _median_ms(fn: Callable[[], Any], n: int = 30) -> float:
    fn()
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return statistics.median(out)


def run() -> dict:
    from advisor.tools import (
        check_quote,
        compare_billing,
        compare_own_vs_rent,
        estimate_serving_cost,
        plan_project,
    )

    calls: dict[str, Callable[[], Any]] = {
        "estimate_serving_cost (70B, 100M tokens/day, H100)":
            lambda: estimate_serving_cost(model="llama-3.1-70b", tokens_per_day=1e8, gpu="H100"),
        "estimate_serving_cost (70B, every priced card)":
            lambda: estimate_serving_cost(model="llama-3.1-70b", tokens_per_day=1e8),
        "check_quote (8×H800 node-month, CNY)":
            lambda: check_quote(gpu="H800", price=90000, unit="node_month", currency="CNY"),
        "compare_own_vs_rent (64 H100, base 64 / peak 256)":
            lambda: compare_own_vs_rent(gpu="H100", gpu_count=64, utilization=0.7, base_gpus=64, peak_gpus=256),
        "compare_billing (500 jobs × 20 min × 8 cards)":
            lambda: compare_billing(gpu="A100", gpu_count=8, jobs=500, job_hours=1 / 3, increment="hour"),
        "plan_project (elastic: term settled + switch)":
            lambda: plan_project(model="llama-3.1-70b", gpu="H100", stages=[
                {"stage": "pretrain", "months": 4, "gpu_count": 1000, "term_months": 12, "finished_after_months": 4,
                 "settlement_provider": "runpod"},
                {"stage": "pretrain", "months": 2, "gpu_count": 2000, "billing": "tiered"}]),
    }
    out: dict[str, Any] = {}
    for name, fn in calls.items():
        ms = _median_ms(fn)
        out[f"{name} ms"] = round(ms, 2)
        out[f"{name} < {TARGET_MS:g} ms"] = ms < TARGET_MS
    return out
