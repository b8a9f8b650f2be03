"""Golden reports of the decision tools (issue #12) on the fixed test price sheet: a change to the
engine or its data that moves a figure shows up here. Regenerate on purpose with
``UPDATE_GOLDEN=1 pytest tests/engine/test_golden_decisions.py``."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from advisor import tools

GOLDEN = Path(__file__).parent / "golden"
MODULES = ("serving", "quote", "ownership", "billing", "plan")


def _r(x: Any) -> Any:
    if isinstance(x, float):
        return float(f"{x:.6g}")
    if isinstance(x, dict):
        return {k: _r(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_r(v) for v in x]
    return x


def _serving(r: Any) -> dict:
    return {"gpu": r.gpu, "gpu_count": r.gpu_count, "replicas": r.replicas, "batch": r.batch_per_replica,
            "tokens_per_second_per_gpu": r.tokens_per_second_per_gpu, "monthly_cost": r.monthly_cost,
            "billing": r.billing, "cost_per_million_tokens": r.cost_per_million_tokens}


def _quote(r: Any) -> dict:
    m = r.market
    return {"price_per_gpu_hour": r.price_per_gpu_hour, "verdict": r.verdict, "mode": m.mode,
            "market": [m.p10, m.median, m.p90, m.offers], "target": r.target_price}


def _own(r: Any) -> dict:
    h = r.hybrid
    return {"own": r.own.per_used_gpu_hour, "rent": r.rent.per_used_gpu_hour, "break_even": r.break_even_utilization,
            "components": {c.name: c.per_gpu_year for c in r.own_components},
            "hybrid": [h.owned_gpus, h.total, h.all_rent_total, h.all_own_total] if h else None}


def _billing(r: Any) -> dict:
    return {"increments": {x.increment: [x.billed_gpu_hours, x.overpay] for x in r.increments},
            "options": {o.mode: [o.total, o.overpay_gpu_hours, o.available] for o in r.options}}


def _plan(r: Any) -> dict:
    return {"stages": [[s.stage, s.gpu_count, s.billing, s.cost, s.settlement and s.settlement["refund"],
                        s.settlement and s.settlement["carried_used"], s.emergency_premium] for s in r.stages],
            "total": r.total}


CASES = {
    "serve_70b_100m_h100": ("estimate_serving_cost", _serving,
                            dict(model="llama-2-70b", tokens_per_day=1e8, gpu="H100")),
    "quote_h100_2_10_term12": ("check_quote", _quote, dict(gpu="H100", price=2.10, term_months=12)),
    "own_h100_base64_peak256": ("compare_own_vs_rent", _own,
                                dict(gpu="H100", gpu_count=64, utilization=0.7, years=4, base_gpus=64, peak_gpus=256,
                                     price_per_gpu_hour=4.0)),
    "billing_500_jobs_20min": ("compare_billing", _billing,
                               dict(gpu="A100", gpu_count=8, jobs=500, job_hours=1 / 3, increment="hour")),
    "plan_term_settled_runpod": ("plan_project", _plan,
                                 dict(model="llama-2-70b", gpu="H100", stages=[
                                     {"stage": "pretrain", "months": 4, "gpu_count": 100, "term_months": 12,
                                      "finished_after_months": 4, "settlement_provider": "runpod"},
                                     {"stage": "pretrain", "months": 2, "gpu_count": 200, "billing": "tiered"},
                                     {"stage": "finetune", "method": "lora", "tokens_b": 1, "gpu_count": 8,
                                      "emergency": True}])),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str, tiny_catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    for module in MODULES:
        monkeypatch.setattr(f"advisor.tools.{module}.get_catalog", lambda user_prices=None: tiny_catalog)
    tool, snap, args = CASES[name]
    got = _r(json.loads(json.dumps(snap(getattr(tools, tool)(**args)))))
    path = GOLDEN / f"{name}.json"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(json.dumps(got, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert got == json.loads(path.read_text(encoding="utf-8"))
