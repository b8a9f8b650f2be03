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
from dataclasses import dataclass

from advisor.usage.defaults import UsageDefaults
from advisor.usage.models import UsageSummary


@dataclass(frozen=True)
class SummaryNumbers:
    gpu_hours: float
    busy_gpu_hours: float
    total_cost: float
    waste_cost: float
    target_saving: float
    gpus_needed_at_target: int


def summary_numbers(gpu_count: int, avg_utilization: float, price_per_gpu_hour: float, period_hours: float, target: float) -> SummaryNumbers:
    """The summary-mode figures (see the module docstring for the formulas)."""
    gpu_hours = gpu_count * period_hours
    cost = gpu_hours * price_per_gpu_hour
    needed = math.ceil(round(gpu_count * avg_utilization / target, 9)) if avg_utilization > 0 else 0
    return SummaryNumbers(
        gpu_hours=gpu_hours,
        busy_gpu_hours=gpu_hours * avg_utilization,
        total_cost=cost,
        waste_cost=cost * (1.0 - avg_utilization),
        target_saving=cost * max(0.0, 1.0 - avg_utilization / target),
        gpus_needed_at_target=min(gpu_count, needed),
    )


def summarize(
    *,
    gpu_count: int,
    avg_utilization: float,
    price_per_gpu_hour: float,
    period_hours: float,
    currency: str,
    defaults: UsageDefaults,
) -> tuple[UsageSummary, SummaryNumbers]:
    """The report summary for summary mode, and its numbers."""
    target = defaults.number("utilization.target")
    n = summary_numbers(gpu_count, avg_utilization, price_per_gpu_hour, period_hours, target)
    summary = UsageSummary(
        gpu_count=gpu_count,
        avg_utilization=avg_utilization,
        target_utilization=target,
        period_hours=period_hours,
        gpu_hours=n.gpu_hours,
        busy_gpu_hours=n.busy_gpu_hours,
        idle_gpu_hours=n.gpu_hours - n.busy_gpu_hours,
        idle_cost=n.waste_cost,
        waste_cost=n.waste_cost,
        target_saving=n.target_saving,
        gpus_needed_at_target=n.gpus_needed_at_target,
        total_cost=n.total_cost,
        price_per_gpu_hour=price_per_gpu_hour,
        currency=currency,
    )
    return summary, n
