"""Hardware recommendation: price every option first, then choose (SkyPilot's optimizer habit).

One vectorized pass covers GPU types × GPU counts × precisions × parallel layouts × billing
modes. Options that do not fit in memory, miss the deadline or exceed the budget are dropped;
the rest are ranked by total cost, and the cost-versus-time Pareto front is returned.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from advisor.engine import failures, memory, throughput
from advisor.engine.estimate import has_nvlink
from advisor.engine.params import Params
from advisor.engine.pricing import quote
from advisor.engine.workload import Workload, model_flops, recompute_factor
from advisor.errors import AdvisorError
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

    @property
    def feasible(self) -> np.ndarray:
        return self.fits & self.meets & self.in_budget


def _layouts(counts: np.ndarray, node: int, heads: int) -> tuple[np.ndarray, ...]:
    """Every (count, tp, zero, checkpointing) combination that is valid."""
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
    return arr[:, 0].astype(int), arr[:, 1], arr[:, 2], arr[:, 3].astype(int), arr[:, 4].astype(bool)


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
) -> SweepResult:
    """Evaluate every configuration; arrays hold one entry per (gpu, count, precision, mode)."""
    max_gpus = int(max_gpus or p("estimate.max_gpus"))
    node = int(p("memory.gpus_per_node"))
    counts = np.asarray(memory.candidate_counts(max_gpus, p))
    n_l, tp_l, dp_l, zero_l, ckpt_l = _layouts(counts, node, w.shape.heads)
    flops = model_flops(w, p)
    cards = [catalog.gpu(g) for g in gpus] if gpus else list(catalog.gpus)
    ckpt_gb = memory.checkpoint_gb(w, p)
    write_h = failures.write_hours(ckpt_gb, counts, p)
    out: dict[str, list[Any]] = {k: [] for k in (
        "gpu", "count", "precision", "mode", "total", "wall", "ghours", "mem", "cap", "mfu", "fits", "price")}
    unpriced: list[str] = []
    evaluated = 0
    mem_cache: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for card in cards:
        try:
            q = quote(catalog, card.id, currency, Params(catalog.defaults))
        except AdvisorError:
            unpriced.append(card.id)
            continue
        card_precisions = [pr for pr in precisions if pr in card.precisions] or (
            ["fp16"] if "fp16" in card.precisions else [])
        for prec in card_precisions:
            if prec not in mem_cache:
                par = memory.Parallel(tp=tp_l, dp=dp_l, zero=zero_l, checkpointing=ckpt_l, flash=flash)
                mem_cache[prec] = (memory.breakdown(w, prec, optimizer, par, p).per_gpu_gb, ckpt_l)
            per_gpu, ckpt = mem_cache[prec]
            ok = per_gpu <= float(memory.usable_gb(card.memory_gb, p))
            # Per count: does any layout fit, and can it fit without recomputation?
            fit_any = np.array([ok[n_l == n].any() for n in counts])
            fit_fast = np.array([(ok & ~ckpt)[n_l == n].any() for n in counts])
            best_mem = np.array([per_gpu[(n_l == n) & ok].min() if ok[n_l == n].any() else per_gpu[n_l == n].min()
                                 for n in counts])
            evaluated += per_gpu.size * len(modes)
            factor = np.where(fit_fast, 1.0, recompute_factor(w.method, True, p))
            if w.method == "qlora":
                factor = factor * float(p("qlora.slowdown"))
            mfu = throughput.expected_mfu(
                generation=card.generation, gpu_count=counts, active_params_b=w.active_params_b, method=w.method,
                moe=w.is_moe, precision=prec, nvlink=has_nvlink(card), p=p,
            )
            compute = flops * factor / (card.peak_tflops(prec) * 1e12 * mfu * 3600.0)
            extra, *_ = failures.overhead(compute / counts, counts, ckpt_gb, p)
            wall = compute / counts + extra
            ghours = wall * counts
            for mode in modes:
                total, mode_wall = _mode_cost(mode, wall, counts, q, p, write_h)
                out["gpu"].append(np.full(counts.size, card.id, dtype=object))
                out["count"].append(counts)
                out["precision"].append(np.full(counts.size, prec, dtype=object))
                out["mode"].append(np.full(counts.size, mode, dtype=object))
                out["total"].append(total)
                out["wall"].append(mode_wall)
                out["ghours"].append(ghours)
                out["mem"].append(best_mem)
                out["cap"].append(np.full(counts.size, float(card.memory_gb)))
                out["mfu"].append(mfu)
                out["fits"].append(fit_any & ((mode != "spot") | interruptible))
                out["price"].append(total / np.maximum(_billed_hours(mode, wall) * counts, 1e-12))
    if not out["gpu"]:
        empty = np.asarray([], dtype=float)
        return SweepResult(*(empty,) * 13, evaluated=0, unpriced=unpriced)  # type: ignore[arg-type]
    cat = {k: np.concatenate(v) for k, v in out.items()}
    meets = np.ones_like(cat["fits"]) if deadline_hours is None else cat["wall"] <= deadline_hours
    in_budget = np.ones_like(cat["fits"]) if budget is None else cat["total"] <= budget
    return SweepResult(
        gpu=cat["gpu"], count=cat["count"], precision=cat["precision"], mode=cat["mode"], total=cat["total"],
        wall_hours=cat["wall"], gpu_hours=cat["ghours"], per_gpu_gb=cat["mem"], memory_gb=cat["cap"], mfu=cat["mfu"],
        fits=cat["fits"].astype(bool), meets=np.asarray(meets, dtype=bool), in_budget=np.asarray(in_budget, dtype=bool),
        unit_price=cat["price"], evaluated=evaluated, unpriced=unpriced,
    )


def _billed_hours(mode: str, wall: np.ndarray) -> np.ndarray:
    step = {"daily": HOURS_PER_DAY, "monthly": HOURS_PER_MONTH, "yearly": HOURS_PER_YEAR}.get(mode)
    return np.ceil(wall / step - 1e-9) * step if step else wall


def _mode_cost(mode: str, wall: np.ndarray, counts: np.ndarray, q: Any, p: Params,
               write_h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Total cost and wall hours of each count under ``mode`` (tier discounts included)."""
    steps = sorted((int(n), float(d)) for n, d in p("billing.tiers"))
    disc = np.zeros(counts.size)
    for n, d in steps:
        disc = np.where(counts >= n, d, disc)
    keep = 1.0 - disc
    if mode == "spot":
        nodes = np.maximum(1, np.ceil(counts / float(p("memory.gpus_per_node"))))
        rate = float(p("billing.spot_interruptions_per_hour")) * nodes
        tau = np.sqrt(2 * write_h / rate)
        restart = float(p("billing.spot_restart_hours"))
        spot_wall = wall * (1 + write_h / tau) * (1 + rate * (np.minimum(tau, wall) / 2 + restart))
        return spot_wall * counts * q.spot * keep, spot_wall
    price = {"on_demand": q.on_demand, "daily": q.daily, "monthly": q.monthly, "yearly": q.yearly}[mode]
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
