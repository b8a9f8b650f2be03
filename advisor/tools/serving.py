"""Tool ``estimate_serving_cost``: how many GPUs, and what a month of serving costs (E3).

Memory is the weights plus the KV cache of the batch the latency target allows; decode is
bandwidth bound and prefill compute bound (advisor/engine/serving.py). Every priced card is
tried at tensor-parallel 1, 2, 4 and 8 unless a GPU is named; the cheapest month wins.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, Field, model_validator

from advisor.catalog import get_catalog
from advisor.catalog.market import MARKET_FIELD_DOC, Market
from advisor.engine import billing as billing_mod
from advisor.engine import serving as sv
from advisor.engine.decisions_data import decision_params
from advisor.engine.pricing import cached_quote, quote
from advisor.errors import InputError
from advisor.findings import Assumption, Finding
from advisor.money import CurrencyField
from advisor.numeric import Billions, Count, ToolRequest, validated
from advisor.rules import evaluate_packs
from advisor.tools.facts import clean_facts
from advisor.units import HOURS_PER_DAY, HOURS_PER_MONTH, SECONDS_PER_HOUR

SERVING_PACKS: tuple[str, ...] = ("serving",)


class ServingRequest(ToolRequest):
    """A serving load: the model, the daily volume and the latency it must keep."""

    model: str | None = Field(None, description="Model name from the catalog, e.g. 'llama-3.1-70b'.")
    params_b: Billions = Field(None, description="Parameters in billions when no catalog model is named.")
    tokens_per_day: Count = Field(None, description="Generated (output) tokens per day, e.g. '100M'.")
    requests_per_day: Count = Field(None, description="Requests per day; with output_tokens gives tokens_per_day.")
    prompt_tokens: Count = Field(None, description="Prompt tokens per request.")
    output_tokens: Count = Field(None, description="Output tokens per request.")
    tpot_ms: float | None = Field(None, description="Latency target: milliseconds per output token per user.")
    tokens_per_second_per_user: float | None = Field(None, description="Latency target as tokens/s per user (= 1000 / tpot_ms).")
    gpu: str | None = Field(None, description="GPU to serve on; default: the cheapest card that meets the target.")
    gpus: list[str] | None = Field(None, description="Cards to choose among when no gpu is fixed (the cheapest that meets the target wins).")
    gpu_count: int | None = Field(None, description="GPUs you plan to run; the report says whether they carry the load.")
    precision: Literal["bf16", "fp16", "fp8", "int8", "int4"] = Field("bf16", description="Serving precision or quantisation.")
    average_load: float | None = Field(None, description="Average traffic as a share of the daily peak (0-1).")
    gpu_share: float | None = Field(None, description="A slice of one card you would rent (0-1, e.g. 0.1 = 1/10 card): "
                                    "the report prices that slice and says whether it holds the weights and the load.")
    currency: CurrencyField = Field("USD", description="USD or CNY.")
    provider: str | None = Field(None, description="Price sheet provider, e.g. 'runpod', '腾讯云'.")
    price_per_gpu_hour: float | None = Field(None, description="Your on-demand price per GPU-hour, if known.")
    prices_file: str | None = Field(None, description="User price sheet (CSV) whose prices win.")
    market: Market | None = Field(None, description=MARKET_FIELD_DOC)
    lang: Literal["en", "zh"] = "en"

    @model_validator(mode="after")
    def _volume(self) -> ServingRequest:
        if self.model is None and self.params_b is None:
            raise InputError("model", None, "a model name or params_b (e.g. 70B)")
        if self.tokens_per_day is None and self.requests_per_day is None:
            raise InputError("tokens_per_day", None, "tokens per day (e.g. 100M) or requests_per_day")
        return self


class ServingOption(BaseModel):
    gpu: str
    gpus_per_replica: int
    replicas: int
    gpu_count: int
    batch_per_replica: int
    tokens_per_second_per_gpu: float
    monthly_cost: float


class ServingReport(BaseModel):
    inputs: dict[str, Any]
    currency: str
    gpu: str
    gpu_count: int
    gpus_per_replica: int
    replicas: int
    batch_per_replica: int
    weights_gb: float
    tokens_per_second_per_gpu: float = Field(description="Output tokens/s one GPU delivers at the chosen batch.")
    capacity_tokens_per_day: float = Field(description="Output tokens a day the fleet can serve at the average load.")
    load_share: float = Field(description="Peak traffic as a share of the fleet's capacity.")
    gpu_hours_per_day: float
    gpu_hours_per_month: float
    billing: str = Field(description="The billing mode that suits 24/7 use (cheapest suitable).")
    daily_cost: float
    monthly_cost: float
    cost_per_million_tokens: float
    billing_options: list[billing_mod.BillingOption]
    fractional: dict[str, Any] | None = None
    alternatives: list[ServingOption] = Field(default_factory=list)
    assumptions: list[Assumption]
    findings: list[Finding] = Field(default_factory=list)


def estimate_serving_cost(request: ServingRequest | None = None, **kwargs: Any) -> ServingReport:
    """GPUs, GPU-hours and cost per day and month to serve a daily token volume. Use when the
    user asks what serving or inference after launch costs, or how many cards a daily token or
    request volume needs ('70B at 100M tokens a day', '上线推理要几张卡'). Returns the GPU count,
    cost per month and per million tokens, the billing mode for 24/7 use and a slice when one
    card would idle."""
    req: ServingRequest = validated(ServingRequest, request, kwargs)
    catalog = get_catalog(user_prices=req.prices_file)
    p = decision_params(catalog)
    model = catalog.model(req.model) if req.model else None
    shape = sv.shape_of(model, float(req.params_b or model.params_b), p)  # type: ignore[union-attr]
    output = req.output_tokens or float(p("serving.output_tokens"))
    prompt = req.prompt_tokens or float(p("serving.prompt_tokens"))
    tokens_day = req.tokens_per_day if req.tokens_per_day is not None else float(req.requests_per_day) * output  # type: ignore[arg-type]
    tpot_ms = req.tpot_ms or (1000.0 / req.tokens_per_second_per_user if req.tokens_per_second_per_user else None)
    if tpot_ms is None:
        tpot_ms = float(p("serving.tpot_ms"))
    else:
        p.note("serving.tpot_ms", tpot_ms, "request (latency target)", unit="ms per output token")
    traffic = sv.Traffic(prompt_tokens=prompt, output_tokens=output, tpot_s=tpot_ms / 1000.0)
    load = req.average_load if req.average_load is not None else float(p("serving.utilization"))
    needed = tokens_day / (HOURS_PER_DAY * SECONDS_PER_HOUR) / load  # peak output tokens/s

    named = [req.gpu] if req.gpu else req.gpus or []
    gpus = [catalog.gpu(g) for g in named] or [g for g in catalog.gpus if _priced(catalog, g, req)]
    if not gpus:
        raise InputError("gpu", req.gpu, "a card with a list price, or give price_per_gpu_hour")
    grid = [(g, tp) for g in gpus for tp in sv.TP_CHOICES]
    bw = np.array([g.memory_bandwidth_gb_s for g, _ in grid], dtype=float)
    peak = np.array([sv.compute_peak_tflops(g, req.precision) for g, _ in grid], dtype=float)
    mem = np.array([g.memory_gb for g, _ in grid], dtype=float)
    tp = np.array([t for _, t in grid], dtype=float)
    batch = sv.largest_batch(shape, memory_gb=mem, bandwidth_gb_s=bw, peak_tflops=peak, tp=tp, traffic=traffic,
                             precision=req.precision, p=p)
    ok = batch >= 1
    if not ok.any():
        raise InputError("gpu", req.gpu or "any", f"a card (up to {sv.TP_CHOICES[-1]} per replica) that holds the "
                         f"{shape.params_b:g}B weights and meets {tpot_ms:g} ms per token; try --precision fp8 or int4")
    rate = sv.throughput(shape, bandwidth_gb_s=bw, peak_tflops=peak, tp=tp, batch=np.maximum(batch, 1), traffic=traffic,
                         precision=req.precision, p=p)
    per_gpu = np.where(ok, rate["per_gpu"], 0.0)
    replica_tps = per_gpu * tp
    replicas = np.where(ok, np.ceil(needed / np.maximum(replica_tps, 1e-9) - 1e-9), np.inf)
    replicas = np.maximum(replicas, 1)
    count = replicas * tp
    if req.gpu_count:
        fits_count = ok & (tp <= req.gpu_count)
        ok = fits_count if fits_count.any() else ok
    hourly = np.array([_month_rate(catalog, g, req) for g, _ in grid], dtype=float)
    month = np.where(ok, count * hourly * HOURS_PER_MONTH, np.inf)
    order = np.lexsort((count, month))
    best = int(order[0])
    gpu, tp_best = grid[best]
    n = int(req.gpu_count or count[best])
    if req.gpu_count:
        p.note("serving.gpu_count", n, "request")
    q = quote(catalog, gpu.id, req.currency, p, provider=req.provider, price_per_gpu_hour=req.price_per_gpu_hour,
              market=req.market, lang=req.lang)
    options = billing_mod.compare(HOURS_PER_MONTH, n, q, billing_mod.Context(urgent=True, offpeak_share=0.0), p)
    picked = next(o for o in options if o.recommended)
    monthly = picked.total
    days = float(p("serving.days_per_month"))
    capacity = float(per_gpu[best]) * (n // tp_best) * tp_best * load * HOURS_PER_DAY * SECONDS_PER_HOUR
    report = ServingReport(
        inputs={**req.model_dump(exclude_none=True), "params_b": shape.params_b, "tokens_per_day": tokens_day,
                "prompt_tokens": prompt, "output_tokens": output, "tpot_ms": tpot_ms, "average_load": load,
                "gpu": gpu.id},
        currency=q.currency, gpu=gpu.id, gpu_count=n, gpus_per_replica=tp_best, replicas=max(n // tp_best, 0),
        batch_per_replica=int(batch[best]), weights_gb=float(rate["weights_gb"][best]),
        tokens_per_second_per_gpu=float(per_gpu[best]), capacity_tokens_per_day=capacity,
        load_share=needed / max(float(per_gpu[best]) * (n // tp_best) * tp_best, 1e-9),
        gpu_hours_per_day=n * HOURS_PER_DAY, gpu_hours_per_month=n * HOURS_PER_MONTH, billing=picked.mode,
        daily_cost=monthly / days, monthly_cost=monthly,
        cost_per_million_tokens=monthly / (tokens_day * days) * 1e6, billing_options=options,
        alternatives=[_option(grid, i, replicas, count, batch, per_gpu, month) for i in order[1:4] if np.isfinite(month[i])],
        assumptions=[],
    )
    report.fractional = _fraction(report, needed, gpu, p, picked.unit_price, req.gpu_share)
    sliced = report.fractional or {}
    slice_ok = bool(sliced.get("fits", True) and sliced and n == 1)  # the slice rule's facts
    on_demand = billing_mod.option(options, "on_demand")
    assert on_demand is not None
    by_memory = sv.largest_batch(shape, memory_gb=mem[best:best + 1], bandwidth_gb_s=bw[best:best + 1],
                                 peak_tflops=peak[best:best + 1], tp=tp[best:best + 1],
                                 traffic=sv.Traffic(prompt, output, math.inf), precision=req.precision, p=p)
    facts = {
        "currency": q.currency, "gpu": gpu.id, "gpu_count": n, "gpus_needed": int(count[best]),
        "load_share": report.load_share, "billing_mode": picked.mode, "monthly_cost": monthly,
        "on_demand_monthly_cost": on_demand.total, "billing_saving": on_demand.total - monthly,
        "fraction_of_gpu_needed": sliced["share"] if slice_ok else None,
        "slice": sliced["slice"] if slice_ok else None,
        "latency_bound": bool(batch[best] < by_memory[0]), "tpot_ms": tpot_ms,
        "batch_per_replica": int(batch[best]), "cost_per_million_tokens": report.cost_per_million_tokens,
    }
    report.findings = evaluate_packs(SERVING_PACKS, clean_facts(facts), lang=req.lang)
    p.note("serving.capacity", round(float(per_gpu[best]), 1), f"{gpu.id}, tp {tp_best}, batch {int(batch[best])}, "
           f"{prompt:g} prompt + {output:g} output tokens", unit="output tokens/s per GPU")
    report.assumptions = p.assumptions()
    return report


def _priced(catalog: Any, gpu: Any, req: ServingRequest) -> bool:
    return req.price_per_gpu_hour is not None or cached_quote(catalog, gpu.id, req.currency, req.market, req.lang) is not None


def _month_rate(catalog: Any, gpu: Any, req: ServingRequest) -> float:
    """Per GPU-hour of a 24/7 month: the cheaper of on-demand and the monthly term."""
    if req.price_per_gpu_hour is not None:
        return req.price_per_gpu_hour
    q = cached_quote(catalog, gpu.id, req.currency, req.market, req.lang)
    return math.inf if q is None else min(q.on_demand, q.monthly)


def _option(grid: list[Any], i: int, replicas: Any, count: Any, batch: Any, per_gpu: Any, month: Any) -> ServingOption:
    g, tp = grid[int(i)]
    return ServingOption(gpu=g.id, gpus_per_replica=tp, replicas=int(replicas[i]), gpu_count=int(count[i]),
                         batch_per_replica=int(batch[i]), tokens_per_second_per_gpu=float(per_gpu[i]),
                         monthly_cost=float(month[i]))


def _fraction(r: ServingReport, needed: float, gpu: Any, p: Any, unit_price: float,
              stated: float | None = None) -> dict[str, Any] | None:
    """A slice of one card when a single card would be mostly idle (REQUIREMENTS C4); a slice the user
    states is priced as stated, with whether it holds the weights and the load (``fits``)."""
    share = needed / max(r.tokens_per_second_per_gpu, 1e-9)
    if stated is not None:
        memory = r.weights_gb / (float(gpu.memory_gb) * float(p("memory.usable_share")))
        return {"share": share, "memory_share": memory, "slice": stated, "stated": True,
                "fits": share <= stated and memory <= stated, "monthly_cost": unit_price * stated * HOURS_PER_MONTH}
    if r.gpu_count != 1:
        return None
    if share >= float(p("serving.idle_share_for_slice")):
        return None
    step = float(p("fleet.min_fraction"))
    memory_share = r.weights_gb / (float(gpu.memory_gb) * float(p("memory.usable_share")))
    slice_ = min(1.0, math.ceil(max(share, memory_share, step) / step - 1e-9) * step)
    if slice_ >= 1.0:
        return None
    return {"share": share, "memory_share": memory_share, "slice": slice_,
            "monthly_cost": unit_price * slice_ * HOURS_PER_MONTH}
