"""Tool ``plan_project``: the cost of a whole project, stage by stage (REQUIREMENTS A2).

Stages: validation (a small run first, C2), pre-training, fine-tuning and serving. Training
stages are priced by the estimate engine; serving by the serving model. Each stage gets the
billing mode that suits it (B1) and its share of the total.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from advisor.catalog import get_catalog
from advisor.catalog.market import MARKET_FIELD_DOC, Market
from advisor.engine.estimate import estimate
from advisor.engine.models import EstimateReport, EstimateRequest
from advisor.engine.params import Params
from advisor.engine.pricing import quote
from advisor.errors import InputError
from advisor.findings import Assumption, Finding
from advisor.money import CurrencyField
from advisor.numeric import Billions, Count, ToolRequest, validated
from advisor.rules import evaluate_packs
from advisor.tools import plan_elastic
from advisor.tools.serving import estimate_serving_cost
from advisor.units import HOURS_PER_DAY

PLAN_PACKS: tuple[str, ...] = ("budget",)

StageName = Literal["validation", "pretrain", "finetune", "serving"]


class StageSpec(BaseModel):
    """One stage. Training stages take the estimate fields; serving takes tokens per day and days."""

    model_config = ConfigDict(extra="allow")

    stage: StageName
    tokens_per_day: Count = None
    days: float | None = None
    months: float | None = Field(None, description="A stage defined by time: gpu_count cards for this many months.")
    term_months: float | None = Field(None, description="Prepaid or committed term of the stage, in months.")
    finished_after_months: float | None = Field(None, description="When the work ends (default: when the stage's work is done).")
    settlement_provider: str | None = Field(None, description="Whose terms settle an unused term (default: the stage's provider).")
    emergency: bool = Field(False, description="Capacity bought at short notice (carries the emergency premium).")
    lead_time_days: float | None = Field(None, description="Notice given to the provider; below emergency.lead_time_days it is an emergency.")


class PlanRequest(ToolRequest):
    model: str | None = Field(None, description="Model name from the catalog.")
    params_b: Billions = Field(None, description="Parameters in billions when no catalog model is named.")
    currency: CurrencyField = "USD"
    market: Market | None = Field(None, description=MARKET_FIELD_DOC)
    gpu: str | None = Field(None, description="Default GPU for the stages.")
    pretrain_tokens_b: Billions = Field(None, description="Pre-training tokens in billions; adds a pre-training stage.")
    finetune_tokens_b: Billions = Field(
        None, description="Fine-tuning tokens in billions (all epochs); adds a fine-tuning stage.")
    finetune_method: Literal["full", "lora", "qlora"] = Field("lora", description="Method of the fine-tuning stage.")
    serving_tokens_per_day: Count = Field(
        None, description="Tokens generated per day after launch; adds a serving stage.")
    serving_days: float = Field(180, description="Days of serving to price.")
    stages: list[StageSpec] | None = Field(None, description="Explicit stages; overrides the fields above.")
    budget: float | None = Field(None, description="Budget for the whole project, in `currency`.")
    approval_threshold: float | None = Field(None, description="Spend above which approval is needed.")
    prices_file: str | None = None
    lang: Literal["en", "zh"] = "en"


class StageCost(BaseModel):
    stage: str
    gpu: str
    gpu_count: int
    gpu_hours: float
    wall_hours: float
    billing: str
    recommended_billing: str | None
    cost: float
    low: float
    high: float
    share: float
    compute_cost: float | None = None  # the picked billing option's total (GPU time only)
    on_demand_cost: float | None = None  # the same GPU time on on-demand
    term_unit_prices: dict[str, float] = Field(default_factory=dict)  # per GPU-hour of monthly / yearly terms
    settlement: dict[str, Any] | None = None
    emergency_premium: float | None = None
    planned_cost: float | None = None  # what the stage costs when planned ahead (emergency stages)


class PlanReport(BaseModel):
    inputs: dict[str, Any]
    currency: str
    stages: list[StageCost]
    total: float
    low: float
    high: float
    assumptions: list[Assumption]
    findings: list[Finding] = Field(default_factory=list)


_TRAIN_BILLING = {"validation": "on_demand", "pretrain": "monthly", "finetune": "on_demand"}


def _default_stages(req: PlanRequest, p: Params) -> list[StageSpec]:
    stages: list[StageSpec] = []
    main = req.pretrain_tokens_b or req.finetune_tokens_b
    if main is None and req.serving_tokens_per_day is None:
        raise InputError("stages", None, "pretrain_tokens_b, finetune_tokens_b, serving_tokens_per_day or a stages list")
    if main is not None:
        method = "pretrain" if req.pretrain_tokens_b else req.finetune_method
        stages.append(StageSpec(stage="validation", method=method, tokens_b=main * float(p("plan.validation_token_share")),
                                gpu_count=int(p("plan.validation_gpus"))))
    if req.pretrain_tokens_b:
        stages.append(StageSpec(stage="pretrain", method="pretrain", tokens_b=req.pretrain_tokens_b))
    if req.finetune_tokens_b:
        stages.append(StageSpec(stage="finetune", method=req.finetune_method, tokens_b=req.finetune_tokens_b))
    if req.serving_tokens_per_day:
        stages.append(StageSpec(stage="serving", tokens_per_day=req.serving_tokens_per_day, days=req.serving_days))
    return stages


def _sized_validation(specs: list[StageSpec], p: Params) -> list[StageSpec]:
    """An explicit validation stage given neither data nor time ("validation on 8 H100, then pretrain
    300B tokens"): the default share of the main training stage's tokens, as in the default plan."""
    main = next((s for s in specs if s.stage in ("pretrain", "finetune") and (s.model_extra or {}).get("tokens_b")), None)
    for s in specs:
        extra = s.model_extra or {}
        if s.stage == "validation" and main is not None and not s.months and not any(
                extra.get(k) for k in ("tokens_b", "dataset_tokens_b", "samples")):
            main_extra = main.model_extra or {}
            s.tokens_b = float(main_extra["tokens_b"]) * float(p("plan.validation_token_share"))  # type: ignore[attr-defined]
            if "method" not in extra:
                s.method = main_extra.get("method") or ("pretrain" if main.stage == "pretrain" else "lora")  # type: ignore[attr-defined]
    return specs


def plan_project(request: PlanRequest | None = None, **kwargs: Any) -> PlanReport:
    """Cost every stage of a project and each stage's share of the total."""
    req: PlanRequest = validated(PlanRequest, request, kwargs)
    catalog = get_catalog(user_prices=req.prices_file)
    p = Params(catalog.defaults)
    if req.model is None and req.params_b is None:
        raise InputError("model", None, "a model name or params_b")
    specs = _sized_validation(req.stages, p) if req.stages else _default_stages(req, p)
    costs: list[StageCost] = []
    assumptions: dict[str, Assumption] = {a.name: a for a in p.assumptions()}

    for spec in specs:
        if spec.stage == "serving":
            sc, used = _serving(spec, req, catalog)
        elif spec.months:
            fields, used = plan_elastic.capacity_stage(spec, req, catalog)
            sc = StageCost(**fields)
        else:
            sc, used = _training(spec, req, catalog)
        costs.append(sc)
        assumptions.update({a.name: a for a in used})
    elastic_facts, elastic_used = plan_elastic.apply(specs, costs, catalog, req.lang)
    assumptions.update({a.name: a for a in elastic_used})
    total = sum(c.cost for c in costs)
    for c in costs:
        c.share = c.cost / total if total else 0.0
    report = PlanReport(
        inputs=req.model_dump(exclude_none=True), currency=req.currency, stages=costs, total=total,
        low=sum(c.low for c in costs), high=sum(c.high for c in costs), assumptions=list(assumptions.values()),
    )
    dominant = max(costs, key=lambda c: c.cost)
    facts = {
        "stage_count": len(costs), "dominant_stage": dominant.stage, "dominant_stage_share": round(dominant.share, 6),
        "cost_total": total, "currency": req.currency,
        "has_validation_run": any(c.stage == "validation" for c in costs),
    }
    if req.budget:
        facts.update(budget=req.budget, budget_ratio=total / req.budget, budget_ratio_high=report.high / req.budget)
    if req.approval_threshold:
        facts.update(approval_threshold=req.approval_threshold, approval_ratio=total / req.approval_threshold)
    report.findings = evaluate_packs(PLAN_PACKS, facts, lang=req.lang)
    if elastic_facts:
        report.findings += evaluate_packs(plan_elastic.ELASTIC_PACKS, {**elastic_facts, "currency": req.currency}, lang=req.lang)
    return report


def _training(spec: StageSpec, req: PlanRequest, catalog: Any) -> tuple[StageCost, list[Assumption]]:
    fields = {k: v for k, v in (spec.model_extra or {}).items() if v is not None}
    if fields.get("billing") == "tiered":  # volume tiers apply to every mode (billing.tiers)
        fields["billing"] = "on_demand"
    fields.setdefault("billing", _TRAIN_BILLING[spec.stage])
    fields.setdefault("method", "pretrain" if spec.stage == "pretrain" else "lora")
    fields.setdefault("gpu", req.gpu)
    fields.setdefault("model", req.model)
    if req.model is None:
        fields.setdefault("params_b", req.params_b)
    r: EstimateReport = estimate(validated(EstimateRequest, None, {**fields, "currency": req.currency,
                                                                   "market": req.market, "lang": req.lang,
                                                                   "prices_file": req.prices_file}), catalog)
    recommended = next((o.mode for o in r.billing if o.recommended), None)
    by = {o.mode: o for o in r.billing}
    picked = by.get(r.inputs["billing"]) or by["on_demand"]
    return StageCost(
        stage=spec.stage, gpu=r.gpu.name, gpu_count=r.gpu.count,
        gpu_hours=r.gpu_hours.expected, wall_hours=r.wall_hours.expected, billing=r.inputs["billing"],
        recommended_billing=recommended, cost=r.cost.total, low=r.cost.low, high=r.cost.high, share=0.0,
        compute_cost=picked.total, on_demand_cost=by["on_demand"].total,
        term_unit_prices={m: by[m].unit_price for m in ("monthly", "yearly") if m in by},
    ), r.assumptions


def _serving(spec: StageSpec, req: PlanRequest, catalog: Any) -> tuple[StageCost, list[Assumption]]:
    p = Params(catalog.defaults)
    extra = spec.model_extra or {}
    if not spec.tokens_per_day:
        raise InputError("stages.serving.tokens_per_day", None, "tokens generated per day, e.g. 50M")
    days = spec.days or req.serving_days
    need = estimate_serving_cost(model=req.model, params_b=None if req.model else req.params_b,
                                 tokens_per_day=spec.tokens_per_day, gpu=extra.get("gpu") or req.gpu,
                                 gpu_count=extra.get("gpu_count"), currency=req.currency, prices_file=req.prices_file,
                                 provider=extra.get("provider"), price_per_gpu_hour=extra.get("price_per_gpu_hour"),
                                 market=req.market, lang=req.lang)
    gpu = catalog.gpu(need.gpu)
    n = need.gpu_count
    q = quote(catalog, gpu.id, req.currency, p, provider=extra.get("provider"),
              price_per_gpu_hour=extra.get("price_per_gpu_hour"), market=req.market, lang=req.lang)
    fields = plan_elastic.held("serving", gpu.id, n, days * HOURS_PER_DAY, q, p, extra.get("billing"),
                               "on_demand, daily, monthly, yearly or spot")
    return StageCost(**fields), [*need.assumptions, *p.assumptions()]
