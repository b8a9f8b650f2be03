"""Golden breakdowns (Infracost habit): the cost components of fixed jobs on a fixed price sheet.

A change to the engine or its defaults that moves a figure shows up here line by line.
Regenerate on purpose with ``UPDATE_GOLDEN=1 pytest tests/engine/test_golden.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from advisor.engine.estimate import estimate
from advisor.engine.models import EstimateRequest

GOLDEN = Path(__file__).parent / "golden"
CASES = {
    "lora_8b_8xa100": dict(model="llama-3.1-8b", method="lora", samples=50_000, tokens_per_sample=800, gpu="A100",
                           gpu_count=8),
    "pretrain_70b_256xh100_monthly": dict(model="llama-2-70b", method="pretrain", tokens_b=300, gpu="H100",
                                          gpu_count=256, billing="monthly"),
    "qlora_8b_4090_cny_price": dict(model="llama-3.1-8b", method="qlora", tokens_b=0.2, gpu="4090", gpu_count=1,
                                    price_per_gpu_hour=2.5, currency="CNY", idle_wait_hours=10),
}


def _snapshot(report) -> dict:
    def r(x: float) -> float:
        return float(f"{x:.6g}")

    return {
        "gpu_hours": {k: r(v) for k, v in report.gpu_hours.model_dump().items()},
        "memory_per_gpu_gb": r(report.memory.per_gpu_gb),
        "layout": report.memory.layout.model_dump(),
        "components": [
            {"name": c.name, "quantity": r(c.quantity), "unit": c.unit, "unit_price": r(c.unit_price), "amount": r(c.amount)}
            for c in report.cost.components
        ],
        "total": r(report.cost.total),
        "billing": {o.mode: r(o.total) for o in report.billing},
    }


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_breakdown(tiny_catalog, name: str) -> None:
    snap = _snapshot(estimate(EstimateRequest(**CASES[name]), tiny_catalog))
    path = GOLDEN / f"{name}.json"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(json.dumps(snap, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; run with UPDATE_GOLDEN=1"
    assert snap == json.loads(path.read_text(encoding="utf-8"))
