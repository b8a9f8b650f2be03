"""Hardware recommendation: price every option first, then choose (SkyPilot's optimizer habit).

One vectorized pass covers GPU types × GPU counts × precisions × parallel layouts × billing
modes. Options that do not fit in memory, miss the deadline or exceed the budget are dropped;
the rest are ranked by total cost, and the cost-versus-time Pareto front is returned.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from advisor.catalog.capacity import capacity_for
from advisor.engine import failures, memory, throughput
from advisor.engine.estimate import has_nvlink
from advisor.engine.params import Params
from advisor.engine.pricing import cached_quote
from advisor.engine.workload import Workload, model_flops, recompute_factor
from advisor.units import HOURS_PER_DAY, HOURS_PER_MONTH, HOURS_PER_YEAR

SWEEP_MODES: tuple[str, ...] = ("on_demand", "daily", "monthly", "yearly", "spot")


@dataclass
class SweepResult:
    gpu: np.ndarray  # object array of ids
    count: np.ndarray
    precision: np.ndarray
    mode: np.ndarray
    total: np.ndarray
    wall_hours: np.ndarray
    gpu_hours: np.ndarray
    per_gpu_gb: np.ndarray
    memory_gb: np.ndarray
    mfu: np.ndarray
    fits: np.ndarray
    meets: np.ndarray
    in_budget: np.ndarray
    unit_price: np.ndarray
    evaluated: int
    unpriced: list[str]
    scalable: np.ndarray | None = None  # the job can keep this many GPUs busy (global batch)
    max_data_parallel: int = 0
    gpu_code: np.ndarray | None = None  # index into gpu_ids, for integer grouping
    gpu_ids: tuple[str, ...] = ()

    @property
    def feasible(self) -> np.ndarray:
        ok = self.fits & self.meets & self.in_budget
        return ok if self.scalable is None else ok & self.scalable


@lru_cache(maxsize=64)
def _layouts(counts: tuple[int, ...], node: int, heads: int) -> tuple[np.ndarray, ...]:
    """Every (count, tp, zero, checkpointing) combination that is valid (read-only arrays)."""
    rows = []
    for n in counts:
        for tp in (1, 2, 4, 8):
            if tp > min(n, node) or n % tp or heads % tp:
                continue
            dp = n // tp
            for zero in (0, 1, 2, 3) if dp > 1 else (0,):
                for ckpt in (False, True):
                    rows.append((n, tp, dp, zero, ckpt))
    arr = np.asarray(rows, dtype=float)
    out = (arr[:, 0].astype(int), arr[:, 1], arr[:, 2], arr[:, 3].astype(int), arr[:, 4].astype(bool))
    for a in out:
        a.flags.writeable = False
    return out


@lru_cache(maxsize=64)
def _starts(counts: tuple[int, ...], node: int, heads: int) -> np.ndarray:
    """Index of the first layout of each GPU count in ``_layouts`` (layouts are grouped by count)."""
    n_l = _layouts(counts, node, heads)[0]
    out = np.flatnonzero(np.concatenate(([True], n_l[1:] != n_l[:-1])))
    out.flags.writeable = False
    return out


def max_data_parallel(w: Workload, p: Params) -> int:
    """How many data-parallel replicas the job keeps busy: the global batch (defaults
    ``scaling.*``) over the sequences one replica takes per micro-step. More GPUs than
    replicas × tensor-parallel degree would sit idle or force a larger batch than the recipe."""
    if w.method == "pretrain":
        sequences = float(p("scaling.global_batch_tokens.pretrain")) / max(w.seq_len, 1)
    else:
        sequences = float(p("scaling.global_batch_sequences.finetune"))
    return max(1, int(sequences // max(w.micro_batch, 1)))


def sweep(
    w: Workload,
    catalog: Any,
    p: Params,
    *,
    currency: str,
    gpus: list[str] | None = None,
    max_gpus: int | None = None,
    deadline_hours: float | None = None,
    budget: float | None = None,
    optimizer: str = "adamw",
    flash: bool = True,
    modes: tuple[str, ...] = SWEEP_MODES,
    precisions: tuple[str, ...] = ("bf16", "fp8"),
    interruptible: bool = False,
    market: str | None = None,
    lang: str = "en",
    counts: list[int] | None = None,
    fallback: bool = True,
) -> SweepResult:
    """Evaluate every configuration; arrays hold one entry per (gpu, count, precision, mode).
    ``counts`` lists the GPU counts to try (default: 1, 2, 4, then doubling whole nodes).
    ``fallback``: a card that has none of ``precisions`` is tried in fp16 (False: left out)."""
    max_gpus = int(max_gpus or p("estimate.max_gpus"))
    node = int(p("memory.gpus_per_node"))
    if counts:
        counts = sorted({int(c) for c in counts if 0 < int(c) <= max_gpus}) or [1]
    counts_key = tuple(int(c) for c in counts or memory.candidate_counts(max_gpus, p))
    counts = np.asarray(counts_key)  # type: ignore[assignment]
    n_l, tp_l, dp_l, zero_l, ckpt_l = _layouts(counts_key, node, w.shape.heads)
    max_dp = max_data_parallel(w, p)
    busy = dp_l <= max_dp  # layouts whose replicas all get a share of the global batch
    flops = model_flops(w, p)
    card_ids = tuple(catalog.gpu(g).id for g in gpus) if gpus else tuple(c.id for c in catalog.gpus)
    ckpt_gb = memory.checkpoint_gb(w, p)
    write_h = failures.write_hours(ckpt_gb, counts, p)
    out: dict[str, list[Any]] = {k: [] for k in (
        "gpu", "count", "precision", "mode", "total", "wall", "ghours", "mem", "cap", "mfu", "fits", "price",
        "busy", "code")}
    evaluated = 0
    starts = _starts(counts_key, node, w.shape.heads)
    count_busy = np.logical_or.reduceat(busy, starts)
    table = _card_table(catalog, card_ids, currency, market, lang, tuple(precisions), fallback)
    unpriced = list(table.unpriced)
    k = counts.size  # type: ignore[union-attr]
    # Volume tiers (billing.tiers) only when billing.apply_volume_tiers, and then only up to the
    # largest cluster a provider of the card states; 0 = no tier discount for the card.
    tiers_on = bool(p("billing.apply_volume_tiers"))
    for prec, cols in table.groups.items():
        group = cols.group
        par = memory.Parallel(tp=tp_l, dp=dp_l, zero=zero_l, checkpointing=ckpt_l, flash=flash)
        per_gpu = memory.breakdown(w, prec, optimizer, par, p).per_gpu_gb
        limits = cols.memory_gb[:, None] * float(p("memory.usable_share"))
        # Per count: does any layout fit, can one fit without recomputation, least memory used.
        # Memory does not depend on the card, so each count's leanest busy layout (with and
        # without recomputation) decides for every card at once.
        least = np.minimum.reduceat(np.where(busy, per_gpu, np.inf), starts)
        fit_any = least[None, :] <= limits
        fit_fast = np.minimum.reduceat(np.where(busy & ~ckpt_l, per_gpu, np.inf), starts)[None, :] <= limits
        best_mem = np.where(fit_any, least[None, :], (np.minimum.reduceat(per_gpu, starts) + 1e6) % 1e6)
        evaluated += len(cols.ids) * per_gpu.size * len(modes)
        factor = np.where(fit_fast, 1.0, recompute_factor(w.method, True, p))
        if w.method == "qlora":
            factor = factor * float(p("qlora.slowdown"))
        mfu = throughput.expected_mfu(
            generation=cols.generation, gpu_count=counts[None, :],  # type: ignore[call-overload, index]
            active_params_b=w.active_params_b, method=w.method, moe=w.is_moe, precision=prec,
            nvlink=cols.nvlink, p=p, width=w.shape.width,
        )
        compute = flops * factor / (cols.peaks * 1e12 * mfu * 3600.0)
        extra, *_ = failures.overhead(compute / counts, counts, ckpt_gb, p)
        wall = compute / counts + extra
        ghours = wall * counts
        ids = np.repeat(cols.ids, k)
        caps = np.repeat(cols.memory_gb, k)
        prices = {m: cols.prices[m] for m in modes}
        tier_cap = np.asarray([[float(capacity_for(catalog, str(g)).stated or 0)] for g in cols.ids]) if tiers_on else None
        for mode in modes:
            total, mode_wall = _mode_cost(mode, wall, counts, prices[mode], p, write_h, tier_cap)  # type: ignore[arg-type]
            out["gpu"].append(ids)
            out["count"].append(np.tile(counts, len(group)))  # type: ignore[arg-type]
            out["precision"].append(np.full(ids.size, prec, dtype=object))
            out["mode"].append(np.full(ids.size, mode, dtype=object))
            out["total"].append(total.ravel())
            out["wall"].append(mode_wall.ravel())
            out["ghours"].append(ghours.ravel())
            out["mem"].append(best_mem.ravel())
            out["cap"].append(caps)
            out["mfu"].append(mfu.ravel())  # card by count already, as wall is
            out["fits"].append((fit_any & ((mode != "spot") | interruptible)).ravel())
            out["busy"].append(np.tile(count_busy, len(group)))
            out["code"].append(np.repeat(cols.codes, k))
            out["price"].append((total / np.maximum(_billed_hours(mode, mode_wall) * counts, 1e-12)).ravel())
    if not out["gpu"]:
        empty = np.asarray([], dtype=float)
        return SweepResult(*(empty,) * 13, evaluated=0, unpriced=unpriced, max_data_parallel=max_dp)  # type: ignore[arg-type, call-arg]
    cat = {k: v[0] if len(v) == 1 else np.concatenate(v) for k, v in out.items()}
    meets = np.ones_like(cat["fits"]) if deadline_hours is None else cat["wall"] <= deadline_hours
    in_budget = np.ones_like(cat["fits"]) if budget is None else cat["total"] <= budget
    return SweepResult(
        gpu=cat["gpu"], count=cat["count"], precision=cat["precision"], mode=cat["mode"], total=cat["total"],
        wall_hours=cat["wall"], gpu_hours=cat["ghours"], per_gpu_gb=cat["mem"], memory_gb=cat["cap"], mfu=cat["mfu"],
        fits=cat["fits"].astype(bool), meets=np.asarray(meets, dtype=bool), in_budget=np.asarray(in_budget, dtype=bool),
        unit_price=cat["price"], evaluated=evaluated, unpriced=unpriced,
        scalable=cat["busy"].astype(bool), max_data_parallel=max_dp,
        gpu_code=cat["code"], gpu_ids=card_ids,
    )


@dataclass(frozen=True)
class _Cards:
    """The priced cards of one precision, as columns (read-only)."""

    group: tuple[tuple[Any, Any], ...]  # (card, quote)
    ids: np.ndarray
    codes: np.ndarray  # index into the sweep's card list
    generation: np.ndarray  # (cards, 1) object
    nvlink: np.ndarray  # (cards, 1) bool
    peaks: np.ndarray  # (cards, 1) TFLOPS at the precision
    memory_gb: np.ndarray
    prices: dict[str, np.ndarray]  # mode -> (cards, 1) price per GPU-hour


@dataclass(frozen=True)
class _CardTable:
    groups: dict[str, _Cards]
    unpriced: tuple[str, ...]


def _card_table(catalog: Any, ids: tuple[str, ...], currency: str, market: str | None, lang: str,
                precisions: tuple[str, ...], fallback: bool = True) -> _CardTable:
    """Card columns per catalog and pricing inputs (what a sweep reads from cards and quotes)."""
    memo = catalog.memo("sweep")
    key = (ids, currency, market, lang, precisions, fallback)
    hit = memo.get(key)
    if hit is not None:
        return hit  # type: ignore[no-any-return]
    cards = [catalog.gpu(g) for g in ids]
    unpriced: list[str] = []
    by_precision: dict[str, list[tuple[Any, Any]]] = {}
    for card in cards:
        q = cached_quote(catalog, card.id, currency, market, lang)
        if q is None:
            unpriced.append(card.id)
            continue
        chosen = [pr for pr in precisions if pr in card.precisions]
        if not chosen and fallback and "fp16" in card.precisions:
            chosen = ["fp16"]
        for prec in chosen:
            by_precision.setdefault(prec, []).append((card, q))
    code = {c.id: i for i, c in enumerate(cards)}
    groups = {}
    for prec, group in by_precision.items():
        cols = _Cards(
            group=tuple(group),
            ids=np.asarray([c.id for c, _ in group], dtype=object),
            codes=np.asarray([code[c.id] for c, _ in group]),
            generation=np.asarray([[c.generation] for c, _ in group], dtype=object),
            nvlink=np.asarray([[has_nvlink(c)] for c, _ in group]),
            peaks=np.asarray([[c.peak_tflops(prec)] for c, _ in group]),
            memory_gb=np.asarray([float(c.memory_gb) for c, _ in group]),
            prices={m: np.asarray([[_mode_price(m, q)] for _, q in group]) for m in SWEEP_MODES},
        )
        for arr in (cols.ids, cols.codes, cols.generation, cols.nvlink, cols.peaks, cols.memory_gb, *cols.prices.values()):
            arr.flags.writeable = False
        groups[prec] = cols
    table = memo[key] = _CardTable(groups=groups, unpriced=tuple(unpriced))
    return table


def _billed_hours(mode: str, wall: np.ndarray) -> np.ndarray:
    step = {"daily": HOURS_PER_DAY, "monthly": HOURS_PER_MONTH, "yearly": HOURS_PER_YEAR}.get(mode)
    return np.ceil(wall / step - 1e-9) * step if step else wall


def _mode_price(mode: str, q: Any) -> float:
    return float({"on_demand": q.on_demand, "daily": q.daily, "monthly": q.monthly, "yearly": q.yearly,
                  "spot": q.spot}[mode])


def _mode_cost(mode: str, wall: np.ndarray, counts: np.ndarray, price: np.ndarray, p: Params,
               write_h: np.ndarray, tier_cap: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Total cost and wall hours of each count under ``mode``. Volume-tier discounts apply only
    to counts within ``tier_cap`` (per card: the largest cluster a provider states; 0 = none;
    None: no tiers at all)."""
    keep: Any = 1.0
    if tier_cap is not None:
        disc = np.zeros(counts.size)
        for n, d in sorted((int(n), float(d)) for n, d in p("billing.tiers")):
            disc = np.where(counts >= n, d, disc)
        keep = 1.0 - np.where(counts[None, :] <= tier_cap, disc[None, :], 0.0)
    if mode == "spot":
        nodes = np.maximum(1, np.ceil(counts / float(p("memory.gpus_per_node"))))
        rate = float(p("billing.spot_interruptions_per_hour")) * nodes
        tau = np.sqrt(2 * write_h / rate)
        restart = float(p("billing.spot_restart_hours"))
        spot_wall = wall * (1 + write_h / tau) * (1 + rate * (np.minimum(tau, wall) / 2 + restart))
        return spot_wall * counts * price * keep, spot_wall
    return _billed_hours(mode, wall) * counts * price * keep, wall


def pareto(cost: np.ndarray, time: np.ndarray) -> np.ndarray:
    """Indices of options no other option beats on both cost and time, cheapest first."""
    order = np.lexsort((time, cost))
    front, best = [], math.inf
    for i in order:
        if time[i] < best - 1e-9:
            front.append(i)
            best = time[i]
    return np.asarray(front, dtype=int)
