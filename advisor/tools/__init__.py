"""The one public API: one function per tool, typed request in, typed report out.

Every face (CLI, UI, offline assistant, LLM agent) calls these functions. Each takes keyword
arguments (or its pydantic request model) and returns a pydantic report whose
``model_dump()`` is the JSON the CLI prints. Modules are imported on first use so that
``import advisor.tools`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "analyze_usage": "advisor.tools.usage",
    "check_quote": "advisor.tools.quote",
    "compare_billing": "advisor.tools.billing",
    "compare_own_vs_rent": "advisor.tools.ownership",
    "estimate_serving_cost": "advisor.tools.serving",
    "estimate_training_cost": "advisor.tools.estimate",
    "plan_project": "advisor.tools.plan",
    "recommend_hardware": "advisor.tools.recommend",
    "review_contract": "advisor.tools.contract",
    "search_knowledge": "advisor.tools.knowledge",
}

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
    "search_knowledge",
)

__all__ = sorted(["TOOL_NAMES", *_WHERE])


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'advisor.tools' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
