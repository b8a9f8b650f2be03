"""Serving after launch: how many GPUs a daily token volume needs.

Generation costs about 2·N FLOPs per token (N active parameters). A GPU delivers
``serving.mfu`` of its peak while decoding in batches, and traffic averages
``serving.utilization`` of the provisioned peak. Each replica must also hold the weights.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from advisor.engine.memory import usable_gb
from advisor.engine.params import Params
from advisor.units import HOURS_PER_DAY, SECONDS_PER_HOUR


@dataclass(frozen=True)
class ServingNeed:
    tokens_per_second_per_gpu: float
    gpus_per_replica: int
    replicas: int
    gpu_count: int
    weights_gb: float


def serving_need(
    *, active_params_b: float, params_b: float, tokens_per_day: float, gpu: Any, precision: str, p: Params
) -> ServingNeed:
    peak = float(gpu.peak_tflops(precision)) * 1e12
    per_token = float(p("flops.per_param_token.forward")) * active_params_b * 1e9
    tps = peak * float(p("serving.mfu")) / per_token
    weights_gb = params_b * 1e9 * float(p(f"memory.weight_bytes.{precision}")) / 1e9
    per_replica = max(1, math.ceil(weights_gb * 1.2 / float(usable_gb(gpu.memory_gb, p))))
    needed_tps = tokens_per_day / (HOURS_PER_DAY * SECONDS_PER_HOUR) / float(p("serving.utilization"))
    gpus_for_load = max(1, math.ceil(needed_tps / tps))
    replicas = max(1, math.ceil(gpus_for_load / per_replica))
    return ServingNeed(
        tokens_per_second_per_gpu=tps,
        gpus_per_replica=per_replica,
        replicas=replicas,
        gpu_count=replicas * per_replica,
        weights_gb=weights_gb,
    )
