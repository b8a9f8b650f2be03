"""Rules-engine benchmark: one estimate's facts against every pack of domain `estimate`.

Target (issue "Rules engine"): median < 2 ms per evaluation (all estimate packs, findings
rendered in both languages). Also reports p95, the first (registering) evaluation, and the
time of a pack set with no findings.

Run: ``python -m bench rules`` or ``python bench/bench_rules.py``.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

# A month of on-demand pre-training (34B, 2T tokens) on 256 H100s, as the cost engine's
# facts describe it: it fires about nine findings across the packs, a heavy case.
FACTS: dict[str, Any] = {
    "method": "pretrain", "params_b": 34.0, "active_params_b": 34.0, "tokens_b": 2000.0, "seq_len": 4096,
    "gpu": "H100-SXM", "gpu_tier": "flagship", "gpu_memory_gb": 80.0, "gpu_count": 256, "precision": "bf16",
    "zero_stage": 3, "gradient_checkpointing": False, "per_gpu_gb": 68.06, "fits": True, "memory_utilization": 0.85,
    "min_gpus_to_fit": 16, "fits_with_zero3": True, "fits_with_qlora": True, "mfu": 0.381, "gpu_hours": 307252.4,
    "wall_hours": 1200.2, "wall_days": 50.0, "currency": "USD", "cost_total": 527391.8, "cost_low": 432647.3,
    "cost_high": 675582.1, "compute_cost": 514156.0, "storage_cost": 1984.0, "egress_cost": 6.12, "energy_cost": 0.0,
    "failure_cost": 11245.6, "price_per_gpu_hour": 1.9, "price_source": "list", "billing_mode": "on_demand",
    "cheapest_billing_mode": "monthly", "cheapest_billing_total": 447390.7, "billing_saving": 78011.0,
    "billing_saving_share": 0.148, "monthly_breakeven_hours": 511.0, "monthly_cheaper": True, "yearly_cheaper": False,
    "offpeak_saving": 0.0, "spot_saving": -273655.3, "spot_used": False, "per_task_available": False,
    "gpus_to_next_tier": 768, "next_tier_discount": 0.15, "next_tier_saving": 29189.0, "job_mtbf_hours": 195.3,
    "expected_interruptions": 6.11, "checkpoint_interval_hours": 1.0, "optimal_checkpoint_interval_hours": 2.55,
    "checkpoint_interval_ratio": 0.39, "has_checkpoint_plan": True, "has_validation_run": True,
    "parallel_experiments": 1, "urgent": False, "interruptible": False, "storage_retention_days": 30.0,
    "storage_retained_cost": 743.9, "storage_retained_share": 0.0014, "egress_gb": 68.0, "idle_cost": 0.0,
}
TARGET_MS = 2.0


def _median_ms(fn: Any, n: int) -> tuple[float, float]:
    times = []
    for _ in range(n):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def run(n: int = 2000) -> dict[str, Any]:
    from advisor.rules import evaluate_packs, load_packs, packs_for_domain

    packs = packs_for_domain("estimate")
    rules = sum(len(p.rules) for name, p in load_packs().items() if name in packs)
    started = time.perf_counter()
    findings = evaluate_packs(packs, FACTS)
    first_ms = (time.perf_counter() - started) * 1000
    median, p95 = _median_ms(lambda: evaluate_packs(packs, FACTS), n)
    quiet_median, _ = _median_ms(lambda: evaluate_packs(packs, {"currency": "USD"}), n)
    return {
        "packs": ", ".join(packs),
        "rules evaluated per call": rules,
        "findings per call": len(findings),
        "first evaluation (registers rulesets) ms": round(first_ms, 2),
        "median ms per evaluation": round(median, 3),
        "p95 ms per evaluation": round(p95, 3),
        "median ms, facts firing nothing": round(quiet_median, 3),
        f"median under target ({TARGET_MS} ms)": median < TARGET_MS,
    }


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:44s} {value}")
