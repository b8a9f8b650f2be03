"""Which presenter renders which tool's report. A JSON dump is validated back into its report
model first, so no face reads a report through dict keys.

The report and presenter modules are imported when first needed (lazy, for cold-start time:
``advisor estimate`` must not load the contract reader or the usage engine)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import cache
from typing import Any, get_type_hints

from pydantic import BaseModel

from advisor.glossary import term
from advisor.present.common import assumptions, findings, lang_of, price_line
from advisor.present.view import View

Presenter = Callable[[Any, str], View]
PRESENTERS: tuple[str, ...] = (
    "estimate_training_cost", "compare_billing", "recommend_hardware", "plan_project", "review_contract",
    "analyze_usage", "estimate_serving_cost", "check_quote", "compare_own_vs_rent", "price_history", "budget_status",
)


def presenter(tool: str) -> Presenter:  # noqa: C901 - one plain branch per tool, every import visible
    """The presenter of ``tool``; its first parameter's annotation is the report model."""
    # lazy: cold-start time (each tool loads only its own report and presenter modules)
    render: Presenter
    if tool == "estimate_training_cost":
        from advisor.present.estimate import present_estimate as render
    elif tool == "compare_billing":
        from advisor.present.billing import present_billing as render
    elif tool == "recommend_hardware":
        from advisor.present.recommend import present_recommend as render
    elif tool == "plan_project":
        from advisor.present.plan import present_plan as render
    elif tool == "review_contract":
        from advisor.present.contract import present_contract as render
    elif tool == "analyze_usage":
        from advisor.present.usage import present_usage as render
    elif tool == "estimate_serving_cost":
        from advisor.present.serving import present_serving as render
    elif tool == "check_quote":
        from advisor.present.quote import present_quote as render
    elif tool == "compare_own_vs_rent":
        from advisor.present.ownership import present_own as render
    elif tool == "price_history":
        from advisor.present.prices import present_history as render
    elif tool == "budget_status":
        from advisor.present.budget import present_budget as render
    else:
        raise KeyError(f"no presenter for tool {tool!r}")
    return render


@cache
def report_model(tool: str) -> type[BaseModel]:
    """The report model ``tool``'s presenter takes (its first parameter's annotation)."""
    render = presenter(tool)
    return get_type_hints(render)[next(iter(inspect.signature(render).parameters))]  # type: ignore[no-any-return]


def typed(tool: str, report: BaseModel | dict[str, Any]) -> BaseModel:
    """The report as its pydantic model (a JSON dump is validated back)."""
    model = report_model(tool)
    if isinstance(report, model):
        return report
    return model.model_validate(report.model_dump() if isinstance(report, BaseModel) else report)


def present(tool: str, report: BaseModel | dict[str, Any], lang: str | None = None) -> View:
    """The view of one tool's report in ``lang`` (default: the report's request language)."""
    r = typed(tool, report)
    lang = lang_of(r, lang)
    v = presenter(tool)(r, lang)
    items = getattr(r, "assumptions", None) or []
    v.tool, v.lang, v.title = tool, lang, term(f"tool.{tool}", lang)
    v.findings = v.findings or findings(getattr(r, "findings", None) or [], lang)
    v.assumptions = v.assumptions or assumptions(items, lang)
    v.priced = v.priced or price_line(items, lang)
    return v
