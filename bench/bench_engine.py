"""Cost-engine benchmarks: cold CLI start, one in-process estimate, a recommend sweep.

Targets (issue "Cost engine foundation"): cold `advisor estimate --json` < 1 s wall,
in-process estimate < 5 ms, a sweep of at least 50,000 configurations < 300 ms.
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
    estimate_training_cost(req)
    tool_ms = _timed(lambda: estimate_training_cost(req), 50)

    sweep_kwargs = dict(model="llama-3.1-70b", method="full", tokens_b=10, max_gpus=16384)
    first = recommend_hardware(**sweep_kwargs)
    sweep_ms = _timed(lambda: recommend_hardware(**sweep_kwargs), 20)
    return {
        "cold_cli_estimate_s_median": round(statistics.median(cold), 3),
        "cold_cli_estimate_s_max": round(max(cold), 3),
        "engine_estimate_ms_median": round(statistics.median(engine_ms), 3),
        "engine_estimate_ms_p95": round(sorted(engine_ms)[int(0.95 * len(engine_ms))], 3),
        "tool_estimate_with_rules_ms_median": round(statistics.median(tool_ms), 3),
        "recommend_configurations": first.evaluated,
        "recommend_sweep_ms_median": round(statistics.median(sweep_ms), 2),
        "recommend_sweep_ms_max": round(max(sweep_ms), 2),
    }


if __name__ == "__main__":
    for k, v in run().items():
        print(f"{k:40s} {v}")
