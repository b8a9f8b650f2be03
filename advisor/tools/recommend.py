"""Tool ``recommend_hardware``: which cards, how many, and on which billing plan?"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, Field, model_validator

from advisor.catalog import get_catalog
from advisor.catalog.capacity import capacity_for
from advisor.catalog.market import equivalents, find_market, without_hashes
from advisor.engine.estimate import resolve_workload
from advisor.engine.models import EstimateRequest
from advisor.engine.params import Params
from advisor.engine.pricing import cached_quote, note_market, resolve_market
from advisor.engine.sweep import SWEEP_MODES, pareto, sweep
from advisor.errors import InputError
from advisor.findings import Assumption, Finding
from advisor.glossary import term
from advisor.money import CURRENCIES, convert
from advisor.numeric import validated
from advisor.progress import Progress, step
from advisor.rules import evaluate_packs
from advisor.tools.estimate import estimate_training_cost
from advisor.units import HOURS_PER_DAY


class RecommendRequest(EstimateRequest):
    """The workload of an estimate, without a GPU: the tool chooses it."""

    max_gpus: int | None = Field(None, description="Largest GPU count to consider; default 16384.")
    gpus: list[str] | None = Field(None, description="Candidate GPU names; default every card with a price.")
    exclude_gpus: list[str] | None = Field(None, description="GPU names never to recommend (\"no H100s\", \"不要 4090\").")
    billing_modes: list[Literal["on_demand", "daily", "monthly", "yearly", "spot"]] | None = Field(
        None, description="Billing modes to consider; default all except spot unless the work is interruptible.")
    top_k: int = Field(10, description="How many options to return.")
    gpu_counts: list[int] | None = Field(
        None, description="GPU counts to consider (e.g. [8, 16, 24, 32]); default 1, 2, 4, then doubling 8-GPU nodes.")

    @model_validator(mode="after")
    def _no_fixed_gpu(self) -> RecommendRequest:
        if self.gpu is not None or self.gpu_count is not None:
            raise InputError("gpu", self.gpu or self.gpu_count,
                             "no fixed GPU: recommend chooses it (limit the candidates with gpus=[...])")
        return self


class OfferRef(BaseModel):
    """A concrete offer a buyer can order for an option, and how many instances it takes."""

    provider: str
    sku: str
    region: str
    price_per_gpu_hour: float = Field(description="In the report's currency (converted when `converted`).")
    currency: str
    converted: bool
    as_of: str
    instance_gpus: int
    instances: int = Field(description="Instances of `sku` for the option's GPU count.")
    max_cluster_gpus: int | None = Field(None, description="Largest cluster the provider documents; None = unknown.")
    capacity: dict[str, Any] = Field(default_factory=dict, description="What is known about capacity (a word reference).")
    source: str


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
    offers: list[OfferRef] = Field(default_factory=list, description="Cheapest concrete offers of this card.")
    findings: list[Finding] = Field(default_factory=list, description="Interconnect / licence findings of this option.")
    within_known_capacity: bool = Field(
        True, description="Some provider states a cluster this large, or lists an instance this large.")
    capacity_note: dict[str, Any] = Field(
        default_factory=dict, description="Why the count is not known to be rentable, a word reference (empty when it is).")


class RecommendReport(BaseModel):
    inputs: dict[str, Any]
    evaluated: int = Field(description="Configurations priced (GPU × count × precision × layout × billing mode).")
    feasible: int
    options: list[Option] = Field(description="Best option per card type first (cheapest first), then count variants.")
    pareto: list[Option] = Field(description="Cost-vs-time front: no other option is both cheaper and faster.")
    cheapest: Option | None
    fastest: Option | None = Field(
        description="Fastest option the job can keep busy and a provider is known to rent (stated cluster size or "
                    "listed instance); when no option is, the fastest one, with its capacity note.")
    excluded: dict[str, int]
    unpriced_gpus: list[str]
    max_useful_gpus: dict[str, int] = Field(default_factory=dict, description="Per card: most GPUs the job keeps busy.")
    assumptions: list[Assumption]
    findings: list[Finding] = Field(default_factory=list)


def recommend_hardware(request: RecommendRequest | None = None, *, progress: Progress | None = None,
                       **kwargs: Any) -> RecommendReport:
    """Rank every card × count × precision × billing mode that fits and meets the deadline;
    the best option per card type comes first, each with the offers that can be ordered.
    ``progress``: a sink for the sweep's steps (:mod:`advisor.progress`)."""
    req: RecommendRequest = validated(RecommendRequest, request, kwargs)
    step(progress, term("progress.sweep", req.lang), 0, 3)
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
        w, catalog, p, currency=req.currency, gpus=_candidates(catalog, req), max_gpus=req.max_gpus, deadline_hours=deadline,
        budget=req.budget, optimizer=req.optimizer or "adamw", flash=req.flash_attention, modes=modes,
        interruptible=req.interruptible, market=req.market, lang=req.lang, counts=req.gpu_counts,
    )
    step(progress, term("progress.offers", req.lang, n=f"{res.evaluated:,}"), 1, 3)
    limits = _provider_limits(catalog, res)
    picks, front_idx, fastest_idx = select(res, req.top_k, limits, tie=float(p("recommend.cost_tie_share")))
    options = _distinct(catalog, [_option(res, i, req.currency, catalog, req) for i in picks], req)
    front = [_option(res, i, req.currency, catalog, req, offers=False) for i in front_idx[:20]]
    fastest = _option(res, fastest_idx, req.currency, catalog, req) if fastest_idx is not None else None
    cheapest = options[0] if options else None  # the cheapest card, at its fewest-GPU near-cheapest count
    excluded = {} if not res.evaluated else {
        "beyond_scaling_limit": int((~res.scalable).sum()) if res.scalable is not None else 0,
        "does_not_fit": int((~res.fits & _scalable(res)).sum()),
        "misses_deadline": int((res.fits & _scalable(res) & ~res.meets).sum()),
        "over_budget": int((res.fits & _scalable(res) & res.meets & ~res.in_budget).sum()),
    }
    _note_prices(p, catalog, [*options, *([fastest] if fastest else [])], req)
    p.note("scaling.max_data_parallel", res.max_data_parallel,
           "global batch / micro-batch (scaling.* defaults): more replicas than this would sit idle",
           unit="data-parallel replicas")
    inputs = req.model_dump(exclude_none=True)
    inputs.update(filled, deadline_hours=deadline, billing_modes=list(modes))
    report = RecommendReport(
        inputs=inputs, evaluated=res.evaluated, feasible=int(res.feasible.sum()) if res.evaluated else 0,
        options=options, pareto=front, cheapest=cheapest, fastest=fastest, excluded=excluded,
        unpriced_gpus=res.unpriced, max_useful_gpus=_useful(res), assumptions=p.assumptions(),
    )
    if report.cheapest is not None:
        # The advice that applies to the chosen option: budget, risk and billing findings.
        step(progress, term("progress.check", req.lang), 2, 3)
        c = report.cheapest
        chosen = estimate_training_cost(
            **{k: v for k, v in req.model_dump(exclude_none=True).items()
               if k not in ("max_gpus", "gpus", "exclude_gpus", "billing_modes", "top_k", "gpu_counts", "billing")},
            gpu=c.gpu, gpu_count=c.gpu_count, precision=c.precision, billing=c.billing,
        )
        report.findings = chosen.findings
    step(progress, term("progress.done", req.lang), 3, 3)
    return report


def _candidates(catalog: Any, req: RecommendRequest) -> list[str] | None:
    """The cards to sweep: ``gpus`` (or every card) less ``exclude_gpus``; an exclusion that leaves none is an error."""
    if not req.exclude_gpus:
        return req.gpus
    out = {catalog.gpu(g).id for g in req.exclude_gpus}
    left = [g.id for g in ([catalog.gpu(x) for x in req.gpus] if req.gpus else catalog.gpus) if g.id not in out]
    if not left:
        raise InputError("exclude_gpus", req.exclude_gpus, "cards to leave out that leave at least one to choose")
    return left


def _distinct(catalog: Any, options: list[Option], req: Any) -> list[Option]:
    """Drop an option that repeats an equivalent card's option (``market.equivalents``: same
    count, precision and billing) when its price is borrowed: the card has no offer of its own in
    the report's market, so the two rows would be one market counted twice."""

    home, _, _ = resolve_market(catalog, req.currency, req.market, req.lang)
    shape = {(o.gpu, o.gpu_count, o.precision, o.billing) for o in options}
    out = []
    for o in options:
        own = any(not x.negotiated for x in catalog.offers(gpu=o.gpu, currency=home))
        twin = any((t, o.gpu_count, o.precision, o.billing) in shape for t in equivalents(catalog, o.gpu))
        if twin and not own:
            continue
        out.append(o)
    return out


def _note_prices(p: Params, catalog: Any, options: list[Option], req: Any) -> None:
    """Which market, offers and dates priced each card of the report (assumptions)."""
    if not options:
        return
    home, choice, why = resolve_market(catalog, req.currency, req.market, req.lang)
    note_market(p, home, choice, req.currency, why)
    fx = catalog.fx
    fx_text = f"1 {fx.base} = {fx.rate} {fx.quote} ({fx.as_of})" if home != req.currency else ""
    for gpu in dict.fromkeys(o.gpu for o in options):
        q = cached_quote(catalog, gpu, req.currency, req.market, req.lang)
        if q is not None:
            m = q.market
            described = {"market": m.words()} if m is not None else {}
            p.note(f"price_per_gpu_hour.{gpu}", round(q.on_demand, 4), q.source, unit=f"{req.currency} per GPU-hour",
                   key=("source.price_per_gpu_hour.market" + (".converted" if m.currency != req.currency else ""))
                   if m is not None else None, rate=fx_text, **described)
            if q.stale and m is not None:
                p.note(f"price.stale.{gpu}", ", ".join(m.stale_providers),
                       f"offers dated more than {m.stale_after_months} months ago (market.stale_after_months)",
                       key="source.price.stale", months=m.stale_after_months)


def _scalable(res: Any) -> np.ndarray:
    return res.scalable if res.scalable is not None else np.ones_like(res.fits)


def _useful(res: Any) -> dict[str, int]:
    if not res.evaluated or res.scalable is None:
        return {}
    out: dict[str, int] = {}
    for i, gpu in enumerate(res.gpu_ids):
        mask = (res.gpu_code == i) & res.scalable
        if mask.any():
            out[gpu] = int(res.count[mask].max())
    return out


def _provider_limits(catalog: Any, res: Any) -> dict[str, float]:
    """Per card: the most GPUs a provider listing it is known to rent: the largest cluster one
    documents, else the largest listed instance (``advisor.catalog.capacity``)."""

    return {str(g): float(capacity_for(catalog, str(g)).known or np.inf) for g in (res.gpu_ids if res.evaluated else ())}


def select(
    res: Any, k: int, limits: dict[str, float] | None = None, tie: float = 0.0
) -> tuple[list[int], np.ndarray, int | None]:
    """Row indices of the options (best per card type by cost, then count variants, ``k`` in
    all), the Pareto front and the fastest option, all within scaling and provider limits.
    Per card, rows within ``tie`` (a share) of its cheapest total count as equally cheap and
    the one with the fewest GPUs is shown first. Works on the sweep's arrays only; no
    pydantic rows are built here."""
    if not res.evaluated:
        return [], np.asarray([], dtype=int), None
    ok = res.feasible
    codes = res.gpu_code
    rentable = np.ones_like(ok)
    if limits:
        cap = np.asarray([limits.get(g, np.inf) for g in res.gpu_ids])
        rentable = res.count <= cap[codes]
    feasible = np.flatnonzero(ok)
    if not feasible.size:
        return [], feasible, None
    order = feasible[np.lexsort((res.wall_hours[feasible], res.total[feasible]))]
    card = codes[order]
    _, first_card = np.unique(card, return_index=True)
    floor = np.full(len(res.gpu_ids), np.inf)
    floor[card[first_card]] = res.total[order[first_card]]
    close = order[res.total[order] <= floor[card] * (1 + tie)]  # as cheap as the card gets
    close = close[np.lexsort((res.total[close], res.count[close], codes[close]))]
    _, first_close = np.unique(codes[close], return_index=True)
    best = close[first_close]  # fewest GPUs among each card's cheapest rows
    best = best[np.argsort(res.total[best], kind="stable")]
    pair = card * (int(res.count.max()) + 1) + res.count[order]
    _, first_pair = np.unique(pair, return_index=True)
    variants = order[np.sort(first_pair)]
    picked = list(best[:k])
    if len(picked) < k:
        chosen = set(picked)
        picked += [int(i) for i in variants if int(i) not in chosen][: k - len(picked)]
    # Headlines (front, fastest) only from counts a provider is known to rent, when there are any.
    known = feasible[rentable[feasible]] if rentable[feasible].any() else feasible
    front = known[pareto(res.total[known], res.wall_hours[known])]
    fastest = int(known[np.lexsort((res.total[known], res.wall_hours[known]))[0]])
    return [int(i) for i in picked], front, fastest


def _option(res: Any, i: int, currency: str, catalog: Any, req: Any, *, offers: bool = True) -> Option:
    gpu, count = str(res.gpu[i]), int(res.count[i])
    option = Option(
        gpu=gpu, gpu_count=count, precision=str(res.precision[i]), billing=str(res.mode[i]),
        total=float(res.total[i]), currency=currency, wall_hours=float(res.wall_hours[i]),
        gpu_hours=float(res.gpu_hours[i]), per_gpu_gb=float(res.per_gpu_gb[i]), gpu_memory_gb=float(res.memory_gb[i]),
        mfu=float(res.mfu[i]), unit_price=float(res.unit_price[i]),
    )

    cap = capacity_for(catalog, gpu)
    if count > cap.known:
        option.within_known_capacity = False
        option.capacity_note = cap.words(count)
    if offers:
        option.offers = offers_for(catalog, gpu, count, currency, market=req.market, lang=req.lang)
        option.findings = _option_findings(catalog, option, req)
    return option


def offers_for(
    catalog: Any, gpu: str, count: int, currency: str, *, market: str | None = None, lang: str = "en", limit: int = 3
) -> list[OfferRef]:
    """The cheapest concrete offers of ``gpu`` itself (no equivalent card), from the market
    that prices the report, else from the other currency's, converted; with the instances
    ``count`` GPUs take and what is known of the provider's capacity."""

    home, _, _ = resolve_market(catalog, currency, market, lang)
    rows: list[Any] = []
    for cur in (home, *[c for c in CURRENCIES if c != home]):
        m = find_market(gpu, cur, catalog=catalog)
        rows = [r for r in m.rows if r.gpu == gpu and not r.converted] if m else []
        if rows:
            break

    def known(r: Any) -> Any:  # the largest cluster the provider documents, if any
        return getattr(catalog.providers.get(r.provider), "max_cluster_gpus", None)

    def case(r: Any) -> str:  # one instance holds the count, a stated cluster does, is too small, or nothing is known
        return "one" if count <= r.gpu_count else "unknown" if known(r) is None else \
            "within" if count <= known(r).value else "over"

    # Beyond one node, providers known to rent the count come first; within a node, cheapest first.
    node = int(catalog.defaults.value("memory.gpus_per_node"))
    rows = sorted(rows, key=lambda r: count > node and case(r) not in ("one", "within"))  # stable: cheapest first in a group
    out = []
    for r in rows[:limit]:
        rate = None if r.native_currency == currency else catalog.fx
        known_r, instances = known(r), -(-count // r.gpu_count)
        text = {"term": f"recommend.instances.{case(r)}", "n": instances, "gpus": r.gpu_count, "provider": r.provider,
                "limit": f"{int(known_r.value):,}" if known_r is not None else "", "source": known_r.source if known_r is not None else ""}
        out.append(OfferRef(
            provider=r.provider, sku=r.sku, region=r.region,
            price_per_gpu_hour=convert(r.native_price, r.native_currency, currency, rate),  # type: ignore[arg-type]
            currency=currency, converted=rate is not None, as_of=without_hashes(r.as_of), instance_gpus=r.gpu_count,
            instances=instances, max_cluster_gpus=int(known_r.value) if known_r is not None else None, capacity=text,
            source=r.citation,
        ))
    return out


def _option_findings(catalog: Any, option: Option, req: Any) -> list[Finding]:
    """Interconnect and licence findings of one option (the fleet pack on the option's facts)."""
    gpu = catalog.gpu(option.gpu)
    if gpu.tier not in ("consumer", "workstation") or option.gpu_count < 2:
        return []

    facts = {
        "gpu": gpu.id, "gpu_tier": gpu.tier, "gpu_vendor": gpu.vendor, "gpu_count": option.gpu_count,
        "gpu_memory_gb": float(gpu.memory_gb), "gpus_per_node": int(catalog.defaults.value("memory.gpus_per_node")),
        "interconnect": gpu.interconnect,
    }
    return [f for f in evaluate_packs(("fleet",), facts, lang=req.lang) if f.category in ("interconnect", "licence")]

