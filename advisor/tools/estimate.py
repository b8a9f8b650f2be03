"""Tool ``estimate_training_cost``: what should this training or fine-tuning run cost?"""

from __future__ import annotations

from typing import Any

from advisor.catalog import get_catalog
from advisor.engine.estimate import estimate_job
from advisor.engine.models import EstimateReport, EstimateRequest
from advisor.numeric import validated
from advisor.rules import evaluate_packs
from advisor.tools.facts import estimate_facts

ESTIMATE_PACKS: tuple[str, ...] = ("sizing", "billing", "fleet", "risk", "budget")

__all__ = ["EstimateReport", "EstimateRequest", "estimate_training_cost"]


def estimate_training_cost(request: EstimateRequest | None = None, **kwargs: Any) -> EstimateReport:
    """Price one job: FLOPs, memory fit, GPU-hours, wall time, cost with a range, every billing
    mode, the assumptions behind each number and the rules' findings."""
    req: EstimateRequest = validated(EstimateRequest, request, kwargs)
    catalog = get_catalog(user_prices=req.prices_file)
    report, w = estimate_job(req, catalog)
    report.findings = evaluate_packs(ESTIMATE_PACKS, estimate_facts(report, req, catalog, w), lang=req.lang)
    return report
