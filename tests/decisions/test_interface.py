"""Issue #12 item 9: the tool names and fixed request/report fields scripts and checks call."""

from __future__ import annotations

import pytest

from advisor import tools
from advisor.tools.langchain import openai_tool, request_model

FIXED = {
    "estimate_serving_cost": ({"model", "params_b", "tokens_per_day", "gpu", "gpu_count", "currency"},
                              {"gpu_count", "monthly_cost"}),
    "check_quote": ({"gpu", "price", "unit", "gpu_count", "term_months", "currency"},
                    {"price_per_gpu_hour", "market", "verdict"}),
    "compare_own_vs_rent": ({"gpu", "gpu_count", "utilization", "years", "currency"}, {"break_even_utilization"}),
    "compare_billing": ({"jobs", "job_hours", "hours_per_day", "days", "increment"}, set()),
}


@pytest.mark.parametrize("name", sorted(FIXED))
def test_fixed_fields_exist_and_reach_the_llm_schema(name: str) -> None:
    assert name in tools.TOOL_NAMES
    request, report = FIXED[name]
    assert request <= set(request_model(name).model_fields)
    assert request <= set(openai_tool(name)["function"]["parameters"]["properties"])
    import typing

    returned = typing.get_type_hints(getattr(tools, name))["return"]
    assert report <= set(returned.model_fields)


def test_report_fields_of_the_fixed_interface() -> None:
    s = tools.estimate_serving_cost(model="llama-3.1-8b", tokens_per_day=1e7, gpu="A100")
    q = tools.check_quote(gpu="A100", price=1.5)
    o = tools.compare_own_vs_rent(gpu="A100")
    b = tools.compare_billing(gpu="A100", jobs=3, job_hours=0.5, increment="minute")
    assert s.gpu_count >= 1 and s.monthly_cost > 0
    assert q.verdict in ("below", "at", "above") and {"p10", "median", "p90", "offers"} <= set(q.market.model_dump())
    assert hasattr(o, "break_even_utilization")
    assert all(hasattr(x, "overpay_gpu_hours") and hasattr(x, "overpay") for x in b.options)
    stage = request_model("plan_project").model_fields["stages"]
    assert stage is not None
    from advisor.tools.plan import StageSpec

    assert {"stage", "term_months", "finished_after_months"} <= set(StageSpec.model_fields)
