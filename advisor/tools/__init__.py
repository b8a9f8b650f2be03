"""The one public API: one function per tool, typed request in, typed report out.

Every face (CLI, UI, offline assistant, LLM agent) calls these functions. Each takes keyword
arguments (or its pydantic request model) and returns a pydantic report whose
``model_dump()`` is the JSON the CLI prints. Modules are imported on first use so that
``import advisor.tools`` stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

TOOL_NAMES: tuple[str, ...] = (
    "estimate_training_cost",
    "recommend_hardware",
    "compare_billing",
    "plan_project",
    "estimate_serving_cost",
    "check_quote",
    "compare_own_vs_rent",
    "review_contract",
    "analyze_usage",
    "budget_status",
    "search_knowledge",
)

__all__ = sorted(["TOOL_NAMES", "report_json", *TOOL_NAMES])


def __getattr__(name: str) -> Any:  # noqa: C901 - one plain branch per tool, so every import is visible
    # Lazy imports, for cold-start time: `import advisor.tools` must not load every engine.
    tool: Callable[..., Any]
    if name == "estimate_training_cost":
        from advisor.tools.estimate import estimate_training_cost as tool
    elif name == "recommend_hardware":
        from advisor.tools.recommend import recommend_hardware as tool
    elif name == "compare_billing":
        from advisor.tools.billing import compare_billing as tool
    elif name == "plan_project":
        from advisor.tools.plan import plan_project as tool
    elif name == "estimate_serving_cost":
        from advisor.tools.serving import estimate_serving_cost as tool
    elif name == "check_quote":
        from advisor.tools.quote import check_quote as tool
    elif name == "compare_own_vs_rent":
        from advisor.tools.ownership import compare_own_vs_rent as tool
    elif name == "review_contract":
        from advisor.tools.contract import review_contract as tool
    elif name == "analyze_usage":
        from advisor.tools.usage import analyze_usage as tool
    elif name == "budget_status":
        from advisor.tools.budget import budget_status as tool
    elif name == "search_knowledge":
        from advisor.tools.knowledge import search_knowledge as tool
    else:
        raise AttributeError(f"module 'advisor.tools' has no attribute {name!r}")
    return tool


def report_json(name: str, args: dict[str, Any]) -> dict[str, Any]:
    """Call tool ``name`` with ``args`` and return its report as JSON-ready data (the guides'
    worked examples are computed through this)."""
    if name not in TOOL_NAMES:
        # lazy: cold start (importing this module stays cheap)
        from advisor.errors import InputError

        raise InputError("tool", name, "one of " + ", ".join(TOOL_NAMES))
    report = __getattr__(name)(**args)
    data: dict[str, Any] = report.model_dump(mode="json")
    return data
