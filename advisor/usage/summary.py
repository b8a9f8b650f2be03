"""Summary mode: the waste arithmetic for a question without files.

"We run 16 GPUs at 40 % for a month at $2.50 an hour" is enough to say what the idle
capacity costs and what reaching the 85 % target would save:

- GPU-hours = GPUs × hours; cost = GPU-hours × price
- waste = cost × (1 - utilization): paid time that did no work
- target saving = cost × max(0, 1 - utilization / target): the same work at the target
  utilization needs that much less GPU time
- GPUs needed at the target = ceil(GPUs × utilization / target)
"""

from __future__ import annotations

import math

from advisor.usage.models import UsageSummary


def summary_numbers(gpu_count: int, avg_utilization: float, price_per_gpu_hour: float, period_hours: float, target: float,
                    currency: str | None = None) -> UsageSummary:
    """The report summary of summary mode (see the module docstring for the formulas)."""
    gpu_hours = gpu_count * period_hours
    busy = gpu_hours * avg_utilization
    cost = gpu_hours * price_per_gpu_hour
    waste = cost * (1.0 - avg_utilization)
    needed = math.ceil(round(gpu_count * avg_utilization / target, 9)) if avg_utilization > 0 else 0
    return UsageSummary(gpu_count=gpu_count, avg_utilization=avg_utilization, target_utilization=target,
                        period_hours=period_hours, gpu_hours=gpu_hours, busy_gpu_hours=busy, idle_gpu_hours=gpu_hours - busy,
                        idle_cost=waste, waste_cost=waste, target_saving=cost * max(0.0, 1.0 - avg_utilization / target),
                        gpus_needed_at_target=min(gpu_count, needed), total_cost=cost,
                        price_per_gpu_hour=price_per_gpu_hour, currency=currency)
