"""Cost-engine benchmarks: cold CLI start, one in-process estimate, a recommend sweep.

Targets (issue "Cost engine foundation"): cold `advisor estimate --json` < 1 s wall,
in-process estimate < 5 ms, a sweep of at least 50,000 configurations < 300 ms.
Issue #13: one estimate_training_cost call (rules and alternatives) <= 1.5 ms and one engine
estimate <= 0.3 ms median; wall-clock and CPU-time medians are both printed, with the load
average, since the machine may be shared.
Issue #14: recommend's core (sweep + top-k selection in numpy, before any pydantic row) over
at least 50,000 configurations <= 20 ms; a sweep of at least 1,000,000 configurations (every
whole 8-GPU node up to 2,048 GPUs) <= 400 ms.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ADVISOR = Path(sys.executable).with_name("advisor")
ESTIMATE_ARGS = ["estimate", "--model", "llama-3.1-8b", "--method", "lora", "--samples", "50k",
                 "--tokens-per-sample", "800", "--gpu", "a100", "--gpus", "8", "--json"]


def _timed(fn, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def _cpu_ms(fn, batches: int, per_batch: int = 10) -> list[float]:
    """CPU milliseconds per call (process time, in batches): on a shared, loaded machine the
    wall-clock median also counts time spent waiting for a core; this counts only the work."""
    out = []
    for _ in range(batches):
        t = time.process_time()
        for _ in range(per_batch):
            fn()
        out.append((time.process_time() - t) * 1000 / per_batch)
    return out


def run() -> dict:
    from advisor.catalog import get_catalog
    from advisor.engine.estimate import estimate
    from advisor.engine.models import EstimateRequest
    from advisor.tools import estimate_training_cost, recommend_hardware

    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    cold = []
    for _ in range(5):
        t = time.perf_counter()
        subprocess.run([str(ADVISOR), *ESTIMATE_ARGS], check=True, capture_output=True, env=env)
        cold.append(time.perf_counter() - t)

    catalog = get_catalog()
    req = EstimateRequest(model="llama-3.1-8b", method="lora", samples=50_000, tokens_per_sample=800, gpu="A100",
                          gpu_count=8)
    estimate(req, catalog)
    engine_ms = _timed(lambda: estimate(req, catalog), 200)
    engine_cpu = _cpu_ms(lambda: estimate(req, catalog), 20)
    estimate_training_cost(req)
    tool_ms = _timed(lambda: estimate_training_cost(req), 50)
    tool_cpu = _cpu_ms(lambda: estimate_training_cost(req), 10)

    sweep_kwargs = dict(model="llama-3.1-70b", method="full", tokens_b=10, max_gpus=16384)
    first = recommend_hardware(**sweep_kwargs)
    sweep_ms = _timed(lambda: recommend_hardware(**sweep_kwargs), 20)
    core_ms, core_n = _recommend_core(catalog, None)
    million_ms, million_n = _recommend_core(catalog, [1, 2, 4, *range(8, 2049, 8)])
    return {
        "recommend_core_configurations": core_n,
        "recommend_core_ms_median (target <= 20)": round(core_ms, 2),
        "sweep_1m_configurations": million_n,
        "sweep_1m_ms_median (target <= 400)": round(million_ms, 2),
        "cold_cli_estimate_s_median": round(statistics.median(cold), 3),
        "cold_cli_estimate_s_max": round(max(cold), 3),
        "engine_estimate_ms_median": round(statistics.median(engine_ms), 3),
        "engine_estimate_ms_p95": round(sorted(engine_ms)[int(0.95 * len(engine_ms))], 3),
        "engine_estimate_cpu_ms_median (target <= 0.3)": round(statistics.median(engine_cpu), 3),
        "tool_estimate_with_rules_ms_median": round(statistics.median(tool_ms), 3),
        "tool_estimate_with_rules_cpu_ms_median (target <= 1.5)": round(statistics.median(tool_cpu), 3),
        "load_average_1min": round(os.getloadavg()[0], 2),
        "recommend_configurations": first.evaluated,
        "recommend_sweep_ms_median": round(statistics.median(sweep_ms), 2),
        "recommend_sweep_ms_max": round(max(sweep_ms), 2),
    }


def _recommend_core(catalog, counts) -> tuple[float, int]:
    """Median ms of sweep + select (the numpy part of recommend) and the configurations."""
    from advisor.engine.estimate import resolve_workload
    from advisor.engine.params import Params
    from advisor.engine.sweep import sweep
    from advisor.tools.recommend import RecommendRequest, _provider_limits, select

    req = RecommendRequest(model="llama-3.1-70b", method="full", tokens_b=10)
    p = Params(catalog.defaults)
    w, _ = resolve_workload(req, catalog, p)

    def once():
        res = sweep(w, catalog, p, currency="USD", deadline_hours=720.0, max_gpus=16384, counts=counts)
        select(res, 10, _provider_limits(catalog, res))
        return res

    n = once().evaluated
    return statistics.median(_timed(once, 15)), n


if __name__ == "__main__":
    for k, v in run().items():
        print(f"{k:40s} {v}")
