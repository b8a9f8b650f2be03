"""Which presenter renders which tool's report. A JSON dump is validated back into its report
model first, so no face reads a report through dict keys.

The report and presenter modules are imported when first needed (lazy, for cold-start time:
``advisor estimate`` must not load the contract reader or the usage engine)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from advisor.present.common import lang_of, price_line
from advisor.present.view import View

Presenter = Callable[[Any, str], View]


def _estimate() -> tuple[type[BaseModel], Presenter]:
    from advisor.engine.models import EstimateReport  # lazy: cold-start time
    from advisor.present.estimate import present_estimate

    return EstimateReport, present_estimate


def _billing() -> tuple[type[BaseModel], Presenter]:
    from advisor.present.billing import present_billing  # lazy: cold-start time
    from advisor.tools.billing import BillingReport

    return BillingReport, present_billing


def _recommend() -> tuple[type[BaseModel], Presenter]:
    from advisor.present.recommend import present_recommend  # lazy: cold-start time
    from advisor.tools.recommend import RecommendReport

    return RecommendReport, present_recommend


def _plan() -> tuple[type[BaseModel], Presenter]:
    from advisor.present.plan import present_plan  # lazy: cold-start time
    from advisor.tools.plan import PlanReport

    return PlanReport, present_plan


def _contract() -> tuple[type[BaseModel], Presenter]:
    from advisor.present.contract import present_contract  # lazy: cold-start time
    from advisor.tools.contract import ContractReport

    return ContractReport, present_contract


def _usage() -> tuple[type[BaseModel], Presenter]:
    from advisor.present.usage import present_usage  # lazy: cold-start time
    from advisor.tools.usage import UsageReport

    return UsageReport, present_usage


def _serving() -> tuple[type[BaseModel], Presenter]:
    from advisor.present.serving import present_serving  # lazy: cold-start time
    from advisor.tools.serving import ServingReport

    return ServingReport, present_serving


def _quote() -> tuple[type[BaseModel], Presenter]:
    from advisor.present.quote import present_quote  # lazy: cold-start time
    from advisor.tools.quote import QuoteReport

    return QuoteReport, present_quote


def _own() -> tuple[type[BaseModel], Presenter]:
    from advisor.present.ownership import present_own  # lazy: cold-start time
    from advisor.tools.ownership import OwnVsRentReport

    return OwnVsRentReport, present_own


def _history() -> tuple[type[BaseModel], Presenter]:
    from advisor.present.prices import present_history  # lazy: cold-start time
    from advisor.tools.price_history import PriceHistoryReport

    return PriceHistoryReport, present_history


def _budget() -> tuple[type[BaseModel], Presenter]:
    from advisor.ledger.report import BudgetStatusReport  # lazy: cold-start time
    from advisor.present.budget import present_budget

    return BudgetStatusReport, present_budget


PRESENTERS: dict[str, Callable[[], tuple[type[BaseModel], Presenter]]] = {
    "estimate_training_cost": _estimate,
    "compare_billing": _billing,
    "recommend_hardware": _recommend,
    "plan_project": _plan,
    "review_contract": _contract,
    "analyze_usage": _usage,
    "estimate_serving_cost": _serving,
    "check_quote": _quote,
    "compare_own_vs_rent": _own,
    "price_history": _history,
    "budget_status": _budget,
}


def typed(tool: str, report: BaseModel | dict[str, Any]) -> BaseModel:
    """The report as its pydantic model (a JSON dump is validated back)."""
    model, _ = PRESENTERS[tool]()
    if isinstance(report, model):
        return report
    return model.model_validate(report.model_dump() if isinstance(report, BaseModel) else report)


def present(tool: str, report: BaseModel | dict[str, Any], lang: str | None = None) -> View:
    """The view of one tool's report in ``lang`` (default: the report's request language)."""
    if tool not in PRESENTERS:
        raise KeyError(f"no presenter for tool {tool!r}")
    model, render = PRESENTERS[tool]()
    r = typed(tool, report)
    lang = lang_of(r, lang)
    v = render(r, lang)
    if v.priced is None:
        v.priced = price_line(getattr(r, "assumptions", None) or [], lang)
    return v
