"""Helpers shared by the rules tests (a module with a unique name, so that it never clashes
with another directory's conftest)."""

from __future__ import annotations

import copy
from typing import Any

VALID_RULE: dict[str, Any] = {
    "id": "demo.overkill",
    "category": "right_sizing",
    "severity": "warning",
    "requirement": ["C1"],
    "source": "REQUIREMENTS C1",
    "when": {
        "all": [
            {"fact": "cheaper_gpu_saving", "operator": "gt", "value": 0},
            {"any": [{"fact": "gpu_tier", "operator": "in", "value": ["flagship"]}, {"fact": "gpu_count", "operator": "gte", "value": 8}]},
        ]
    },
    "savings": "cheaper_gpu_saving",
    "evidence": ["cheaper_gpu"],
    "text": {
        "en": {"title": "Use {cheaper_gpu}", "detail": "Saves {cheaper_gpu_saving:money} over {wall_hours:h}.", "recommendation": "Switch to {cheaper_gpu}."},
        "zh": {"title": "改用 {cheaper_gpu}", "detail": "在 {wall_hours:h}内可省 {cheaper_gpu_saving:money}。", "recommendation": "换用 {cheaper_gpu}。"},
    },
}


def valid_rule(**changes: Any) -> dict[str, Any]:
    rule = copy.deepcopy(VALID_RULE)
    rule.update(changes)
    return rule
