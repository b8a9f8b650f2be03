"""The estimate: a request in, every number of the report out. No rules here (see tools)."""

from __future__ import annotations

from typing import Any

from advisor.engine import billing as billing_mod
from advisor.engine import components, memory, throughput
from advisor.engine.failures import failure_overhead
from advisor.engine.models import EstimateReport, EstimateRequest
from advisor.engine.params import Params
from advisor.engine.pricing import quote
from advisor.engine.workload import (
    SHAPE_FIELDS,
    Shape,
    Workload,
    family_of,
    family_vocab,
    model_flops,
    params_from_shape,
    recompute_factor,
    shape_from_model,
    shape_from_params,
    with_overrides,
)
from advisor.errors import InputError, UnknownNameError
from advisor.units import HOURS_PER_DAY


def _catalog_model(req: EstimateRequest, catalog: Any) -> Any:
    """The catalog entry of ``req.model``; None for a name the catalog lacks when the size or
    the shape is given (a private or new model), else the unknown-name error."""
    if not req.model:
        return None
    try:
        return catalog.model(req.model)
    except UnknownNameError:
        if req.params_b is None and not (req.layers and req.hidden_size):
            raise
        return None


def resolve_shape(req: EstimateRequest, spec: Any, p: Params) -> tuple[Shape, float]:
    """The model shape and total parameters (billions): the catalog's shape, or one interpolated
    from the size, with the vocabulary of the model's family; explicit request fields win."""
    given = {k: getattr(req, k) for k in SHAPE_FIELDS if getattr(req, k) is not None}
    if spec is not None and req.params_b is None:
        return with_overrides(shape_from_model(spec), given), float(spec.params_b)
    family = req.model_family or (spec.family if spec is not None else None) or family_of(req.model, p)
    vocab = int(spec.vocab_size) if spec is not None else family_vocab(family, p)
    if family and spec is None:
        p.note("model_family", family, "request" if req.model_family else f"from the model name {req.model!r}")
    if req.params_b is None:
        # Only a shape is given: size the model from it.
        shape = with_overrides(shape_from_params(1.0, p, vocab), given)
        params_b = params_from_shape(shape)
        p.note("params_b", round(params_b, 3), "computed from the stated shape (gated MLP, embeddings included)", "B")
        return shape, params_b
    # A mixture of experts known by its sizes: its layers and hidden size are those of a dense
    # model of its active size (the experts add weights, not activations or layers).
    size = float(min(req.active_params_b or req.params_b, req.params_b))
    return with_overrides(shape_from_params(size, p, vocab), given), float(req.params_b)


def resolve_workload(req: EstimateRequest, catalog: Any, p: Params) -> tuple[Workload, dict[str, Any]]:
    """Fill in the job: model shape, method, tokens, sequence length and micro-batch."""
    filled: dict[str, Any] = {}
    spec = _catalog_model(req, catalog)
    if spec is None and req.params_b is None and not (req.layers and req.hidden_size):
        raise InputError("params_b", None, "a model name (--model) or a parameter count (--params, e.g. 7B)")
    shape, params_b = resolve_shape(req, spec, p)
    if spec is not None:
        filled["model"] = spec.id
    active = float(req.active_params_b or (getattr(spec, "active_params_b", None) if spec else None) or params_b)
    if active > params_b:
        raise InputError("active_params_b", active, f"at most the total parameters ({params_b:g}B)")
    method = req.method or "full"
    if req.method is None:
        p.note("method", "full", "default: a fine-tune of all parameters when no method is given")
    stage = "pretrain" if method == "pretrain" else "finetune"

    if req.tokens_b is not None:
        tokens_b = req.tokens_b
    elif req.dataset_tokens_b is not None:
        epochs = req.epochs or float(p(f"workload.epochs.{stage}"))
        tokens_b = req.dataset_tokens_b * epochs
        filled["epochs"] = epochs
    elif req.samples is not None:
        per = req.tokens_per_sample or float(p("workload.tokens_per_sample"))
        epochs = req.epochs or float(p(f"workload.epochs.{stage}"))
        tokens_b = req.samples * per * epochs / 1e9
        filled.update(tokens_per_sample=per, epochs=epochs)
    else:
        raise InputError(
            "tokens_b", None, "the data size: tokens (--tokens 2T), dataset tokens and epochs, or samples (--samples 50k)"
        )
    seq_len = req.seq_len or int(p(f"workload.seq_len.{stage}"))
    micro = req.micro_batch_size or int(p(f"workload.micro_batch.{stage}"))
    w = Workload(
        params_b=params_b,
        active_params_b=active,
        method=method,
        tokens_b=float(tokens_b),
        seq_len=int(seq_len),
        micro_batch=int(micro),
        shape=shape,
        lora_rank=req.lora_rank,
        optimizer_in_backward=req.optimizer_in_backward,
        chunked_loss=req.chunked_loss,
        lora_targets=req.lora_targets,
        train_embeddings=bool(req.train_embeddings),
        activation_offload=req.activation_offload,
        zero_offload=req.zero_offload,
        variable_length=req.variable_length,
        pure_bf16=method == "full" and (req.pure_bf16 if req.pure_bf16 is not None else bool(p("memory.pure_bf16"))),
    )
    filled.update(params_b=params_b, active_params_b=active, method=method, tokens_b=float(tokens_b),
                  seq_len=int(seq_len), micro_batch_size=int(micro))
    return w, filled


def _precision(req: EstimateRequest, gpu: Any, p: Params) -> str:
    precision = req.precision or "bf16"
    if req.precision is None and not gpu.bf16_tflops:
        precision = "fp16"
        p.note("precision", "fp16", f"{gpu.id} has no bf16 tensor cores; fp16 mixed precision instead")
    gpu.peak_tflops(precision)  # raises a clear error when the card lacks it
    return precision


def has_nvlink(gpu: Any) -> bool:
    text = f"{getattr(gpu, 'interconnect', '') or ''} {getattr(gpu, 'form_factor', '') or ''}".lower()
    return any(k in text for k in ("nvlink", "sxm", "infinity fabric", "oam", "hccs"))


def estimate(req: EstimateRequest, catalog: Any) -> EstimateReport:
    """Price one training or fine-tuning job."""
    return estimate_job(req, catalog)[0]


def estimate_job(req: EstimateRequest, catalog: Any) -> tuple[EstimateReport, Workload]:
    """The estimate and the workload it priced (the tool measures its alternatives on it)."""
    p = Params(catalog.defaults)
    w, filled = resolve_workload(req, catalog, p)
    gpu = catalog.gpu(req.gpu or p("estimate.default_gpu"))
    precision = _precision(req, gpu, p)
    optimizer = req.optimizer or "adamw"
    peak = float(gpu.peak_tflops(precision))
    flops = model_flops(w, p)
    max_gpus = int(p("estimate.max_gpus"))
    fit_min = memory.min_gpus_to_fit(w, gpu.memory_gb, precision, optimizer, p, max_gpus=max_gpus,
                                     flash=req.flash_attention)

    def run(n: int) -> dict[str, Any]:
        par, mem, fits = memory.plan_parallel(
            w, gpu.memory_gb, n, precision, optimizer, p, tp=req.tensor_parallel, zero=req.zero_stage,
            checkpointing=req.gradient_checkpointing, flash=req.flash_attention,
        )
        if req.mfu is not None:
            mfu = float(req.mfu)
            lo, hi = mfu, mfu
        else:
            mfu = float(throughput.expected_mfu(
                generation=gpu.generation, gpu_count=n, active_params_b=w.active_params_b, method=w.method,
                moe=w.is_moe, precision=precision, nvlink=has_nvlink(gpu), p=p, era=req.software_era,
                width=w.shape.width,
            ))
            band = throughput.regime(w.method, gpu.generation, p)
            lo, hi = (float(x) for x in throughput.mfu_band(mfu, p, band))
        factor = recompute_factor(w.method, bool(par.checkpointing), p)
        if w.method == "qlora":
            factor *= float(p("qlora.slowdown"))
        ghours = {k: float(throughput.compute_gpu_hours(flops, factor, peak, m)) for k, m in
                  (("low", hi), ("expected", mfu), ("high", lo))}
        ckpt = memory.checkpoint_gb(w, p)
        fail = failure_overhead(ghours["expected"] / n, n, ckpt, p, interval_hours=req.checkpoint_interval_hours)
        share = fail.overhead_wall_hours * n / ghours["expected"]
        total = {k: v * (1 + share) for k, v in ghours.items()}
        return dict(n=n, par=par, mem=mem, fits=fits, mfu=(lo, mfu, hi), compute=ghours, total=total, fail=fail,
                    ckpt=ckpt)

    if req.gpu_count is not None:
        chosen = run(req.gpu_count)
    else:
        target = req.deadline_hours or float(p("estimate.target_wall_days")) * HOURS_PER_DAY
        start = max(fit_min, 1)
        chosen = None
        for n in memory.candidate_counts(max_gpus, p):
            if n < start:
                continue
            r = run(n)
            chosen = r
            if r["fits"] and r["total"]["expected"] / n <= target:
                break
        if chosen is None:
            chosen = run(max_gpus)
        why = "deadline" if req.deadline_hours else "estimate.target_wall_days"
        p.note("gpu_count", chosen["n"], f"smallest count that fits in memory and finishes within the {why}")

    assert chosen is not None  # for mypy: run() returned for at least one count
    n = chosen["n"]
    recompute_why = None
    if chosen["par"].checkpointing and req.gradient_checkpointing is None:
        _, lean, _ = memory.plan_parallel(
            w, gpu.memory_gb, n, precision, optimizer, p, tp=req.tensor_parallel, zero=req.zero_stage,
            checkpointing=False, flash=req.flash_attention,
        )
        recompute_why = float(lean.per_gpu_gb)
        p.note("gradient_checkpointing", True,
               f"chosen to fit: without recomputation the leanest layout needs {recompute_why:.1f} GB per GPU, "
               f"{float(memory.usable_gb(gpu.memory_gb, p)):.1f} GB usable")
    wall = {k: v / n for k, v in chosen["total"].items()}
    meets = None if req.deadline_hours is None else wall["expected"] <= req.deadline_hours
    q = quote(catalog, gpu.id, req.currency, p, provider=req.provider, price_per_gpu_hour=req.price_per_gpu_hour,
              offpeak_discount=req.offpeak_discount, market=req.market, lang=req.lang)
    ctx = billing_mod.Context(
        interruptible=req.interruptible, urgent=req.urgent, deadline_hours=req.deadline_hours,
        parallel_experiments=req.parallel_experiments,
        checkpoint_write_hours=chosen["fail"].checkpoint_write_hours,
    )
    options = billing_mod.compare(wall["expected"], n, q, ctx, p)
    mode = req.billing or "on_demand"
    picked = billing_mod.option(options, mode)
    if picked is None:
        raise InputError("billing", mode, "per_task only together with parallel_experiments > 1")
    cost = components.build(
        req=req, w=w, gpu=gpu, n=n, q=q, picked=picked, compute_hours=chosen["compute"],
        total_hours=chosen["total"], fail=chosen["fail"], ckpt_gb=chosen["ckpt"], p=p,
    )
    mem, par = chosen["mem"], chosen["par"]
    lo, mfu, hi = chosen["mfu"]
    inputs = req.model_dump(exclude_none=True)
    inputs.update(filled)
    inputs.update(
        gpu=gpu.id, gpu_count=n, precision=precision, optimizer=optimizer, billing=mode, currency=req.currency,
        zero_stage=int(par.zero), tensor_parallel=int(par.tp), gradient_checkpointing=bool(par.checkpointing),
        mfu=round(mfu, 4), price_per_gpu_hour=round(q.on_demand, 4),
    )
    report = EstimateReport(
        inputs=inputs,
        flops=float(flops),
        memory=dict(
            weights_gb=_r(mem.weights_gb), gradients_gb=_r(mem.gradients_gb), optimizer_gb=_r(mem.optimizer_gb),
            activations_gb=_r(mem.activations_gb), overhead_gb=_r(mem.overhead_gb), per_gpu_gb=_r(mem.per_gpu_gb),
            gpu_memory_gb=float(gpu.memory_gb), usable_gb=_r(memory.usable_gb(gpu.memory_gb, p)),
            fits=bool(chosen["fits"]), min_gpus_to_fit=int(fit_min),
            layout=dict(tensor_parallel=int(par.tp), data_parallel=int(par.dp), zero_stage=int(par.zero),
                        gradient_checkpointing=bool(par.checkpointing), flash_attention=bool(par.flash)),
        ),
        gpu=dict(name=gpu.id, count=n, memory_gb=float(gpu.memory_gb), peak_tflops=peak, precision=precision),
        mfu=dict(low=lo, expected=mfu, high=hi),
        compute_gpu_hours=chosen["compute"],
        gpu_hours=chosen["total"],
        wall_hours=wall,
        meets_deadline=meets,
        failures=dict(
            job_mtbf_hours=_r(chosen["fail"].job_mtbf_hours),
            expected_interruptions=_r(chosen["fail"].expected_interruptions),
            checkpoint_interval_hours=_r(chosen["fail"].interval_hours),
            optimal_checkpoint_interval_hours=_r(chosen["fail"].optimal_interval_hours),
            checkpoint_write_minutes=_r(chosen["fail"].checkpoint_write_hours * 60),
            overhead_gpu_hours=_r(chosen["total"]["expected"] - chosen["compute"]["expected"]),
        ),
        cost=cost,
        billing=options,
        assumptions=p.assumptions(),
    )
    report.notes.extend(_notes(report, req, recompute_why))
    return report, w


def _r(x: Any, digits: int = 4) -> float:
    return round(float(x), digits)  # inf and nan come back as they are


def _notes(r: EstimateReport, req: EstimateRequest, recompute_gb: float | None = None) -> list[dict[str, Any]]:
    """What the reader must know, as keys and figures (worded by the glossary's ``estimate.note.*``)."""
    m, notes = r.memory, []
    if recompute_gb is not None and m.fits:
        notes.append({"key": "recompute", "needed_gb": recompute_gb, "usable_gb": m.usable_gb, "gpu": r.gpu.name})
    if not m.fits:
        notes.append({"key": "no_fit" if m.min_gpus_to_fit else "no_fit_any", "needed_gb": m.per_gpu_gb,
                      "usable_gb": m.usable_gb, "gpu": r.gpu.name, "gpus": m.min_gpus_to_fit})
    if r.meets_deadline is False:
        notes.append({"key": "deadline", "hours": r.wall_hours.expected, "allowed": req.deadline_hours})
    return notes
