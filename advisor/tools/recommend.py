"""Tool ``recommend_hardware``: which cards, how many, and on which billing plan?"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from advisor.catalog import get_catalog
from advisor.engine.estimate import resolve_workload
from advisor.engine.models import EstimateRequest, validated
from advisor.engine.params import Params
from advisor.engine.sweep import SWEEP_MODES, pareto, sweep
from advisor.errors import InputError
from advisor.findings import Assumption, Finding
from advisor.units import HOURS_PER_DAY

_WORKLOAD_FIELDS = (
    "model", "params_b", "active_params_b", "method", "tokens_b", "dataset_tokens_b", "epochs", "samples",
    "tokens_per_sample", "seq_len", "micro_batch_size", "flash_attention", "optimizer", "lora_rank",
    "lora_targets", "chunked_loss", "currency", "prices_file", "lang",
)


class RecommendRequest(EstimateRequest):
    """The workload of an estimate, without a GPU: the tool chooses it."""

    model_config = ConfigDict(extra="forbid")

    max_gpus: int | None = Field(None, description="Largest GPU count to consider; default 16384.")
    gpus: list[str] | None = Field(None, description="Candidate GPU names; default every card with a price.")
    billing_modes: list[Literal["on_demand", "daily", "monthly", "yearly", "spot"]] | None = Field(
        None, description="Billing modes to consider; default all except spot unless the work is interruptible.")
    top_k: int = Field(10, description="How many options to return.")

    @model_validator(mode="after")
    def _no_fixed_gpu(self) -> RecommendRequest:
        if self.gpu is not None or self.gpu_count is not None:
            raise InputError("gpu", self.gpu or self.gpu_count,
                             "no fixed GPU: recommend chooses it (limit the candidates with gpus=[...])")
        return self


class Option(BaseModel):
    gpu: str
    gpu_count: int
    precision: str
    billing: str
    total: float
    currency: str
    wall_hours: float
    gpu_hours: float
    per_gpu_gb: float
    gpu_memory_gb: float
    mfu: float
    unit_price: float


class RecommendReport(BaseModel):
    inputs: dict[str, Any]
    evaluated: int = Field(description="Configurations priced (GPU × count × precision × layout × billing mode).")
    feasible: int
    options: list[Option]
    pareto: list[Option] = Field(description="Cost-vs-time front: no other option is both cheaper and faster.")
    cheapest: Option | None
    fastest: Option | None
    excluded: dict[str, int]
    unpriced_gpus: list[str]
    assumptions: list[Assumption]
    findings: list[Finding] = Field(default_factory=list)
    summary: dict[str, str] = Field(default_factory=dict)


def recommend_hardware(request: RecommendRequest | None = None, **kwargs: Any) -> RecommendReport:
    """Rank every card × count × precision × billing mode that fits and meets the deadline."""
    req: RecommendRequest = validated(RecommendRequest, request, kwargs)
    catalog = get_catalog(user_prices=req.prices_file)
    p = Params(catalog.defaults)
    w, filled = resolve_workload(req, catalog, p)
    modes = tuple(req.billing_modes) if req.billing_modes else tuple(
        m for m in SWEEP_MODES if m != "spot" or req.interruptible)
    deadline = req.deadline_hours
    if deadline is None:
        deadline = float(p("estimate.target_wall_days")) * HOURS_PER_DAY
        p.note("deadline_hours", deadline, "no deadline given: estimate.target_wall_days", unit="hours")
    res = sweep(
        w, catalog, p, currency=req.currency, gpus=req.gpus, max_gpus=req.max_gpus, deadline_hours=deadline,
        budget=req.budget, optimizer=req.optimizer or "adamw", flash=req.flash_attention, modes=modes,
        interruptible=req.interruptible, market=req.market, lang=req.lang,
    )
    feasible = np.flatnonzero(res.feasible) if res.evaluated else np.asarray([], dtype=int)
    order = feasible[np.lexsort((res.wall_hours[feasible], res.total[feasible]))] if feasible.size else feasible
    options = _unique([_option(res, i, req.currency) for i in order], req.top_k)
    front = [_option(res, feasible[i], req.currency) for i in pareto(res.total[feasible], res.wall_hours[feasible])] \
        if feasible.size else []
    fastest = None
    if feasible.size:
        fastest = _option(res, feasible[np.lexsort((res.total[feasible], res.wall_hours[feasible]))[0]], req.currency)
    excluded = {} if not res.evaluated else {
        "does_not_fit": int((~res.fits).sum()),
        "misses_deadline": int((res.fits & ~res.meets).sum()),
        "over_budget": int((res.fits & res.meets & ~res.in_budget).sum()),
    }
    inputs = req.model_dump(exclude_none=True)
    inputs.update(filled, deadline_hours=deadline, billing_modes=list(modes))
    report = RecommendReport(
        inputs=inputs, evaluated=res.evaluated, feasible=int(feasible.size), options=options, pareto=front[:20],
        cheapest=options[0] if options else None, fastest=fastest, excluded=excluded,
        unpriced_gpus=res.unpriced, assumptions=p.assumptions(),
    )
    report.summary = _summary(report)
    if report.cheapest is not None:
        # The advice that applies to the chosen option: budget, risk and billing findings.
        from advisor.tools.estimate import estimate_training_cost

        c = report.cheapest
        chosen = estimate_training_cost(
            **{k: v for k, v in req.model_dump(exclude_none=True).items()
               if k not in ("max_gpus", "gpus", "billing_modes", "top_k")},
            gpu=c.gpu, gpu_count=c.gpu_count, precision=c.precision, billing=c.billing,
        )
        report.findings = chosen.findings
    return report


def _option(res: Any, i: int, currency: str) -> Option:
    return Option(
        gpu=str(res.gpu[i]), gpu_count=int(res.count[i]), precision=str(res.precision[i]), billing=str(res.mode[i]),
        total=float(res.total[i]), currency=currency, wall_hours=float(res.wall_hours[i]),
        gpu_hours=float(res.gpu_hours[i]), per_gpu_gb=float(res.per_gpu_gb[i]), gpu_memory_gb=float(res.memory_gb[i]),
        mfu=float(res.mfu[i]), unit_price=float(res.unit_price[i]),
    )


def _unique(options: list[Option], k: int) -> list[Option]:
    """Best option per (gpu, count), so the list shows different hardware, not the same twice."""
    seen: set[tuple[str, int]] = set()
    out = []
    for o in options:
        key = (o.gpu, o.gpu_count)
        if key not in seen:
            seen.add(key)
            out.append(o)
        if len(out) >= k:
            break
    return out


def _summary(r: RecommendReport) -> dict[str, str]:
    from advisor.money import format_money

    if not r.cheapest:
        return {
            "en": f"No option fits and meets the deadline among {r.evaluated:,} configurations; "
                  "relax the deadline, raise max_gpus or use QLoRA.",
            "zh": f"在 {r.evaluated:,} 种配置中没有既放得下又能按时完成的方案；请放宽截止时间、增加卡数上限或改用 QLoRA。",
        }
    c = r.cheapest
    money = format_money(c.total, c.currency)
    return {
        "en": f"Cheapest: {c.gpu_count}× {c.gpu} ({c.precision}, {c.billing.replace('_', '-')}) for {money}, "
              f"{c.wall_hours:,.1f} h; {r.feasible:,} of {r.evaluated:,} configurations qualify.",
        "zh": f"最省钱：{c.gpu_count} 张 {c.gpu}（{c.precision}，{c.billing}）共 {money}，约 {c.wall_hours:,.1f} 小时；"
              f"{r.evaluated:,} 种配置中 {r.feasible:,} 种满足条件。",
    }
