"""Memory per GPU: weights, gradients, optimizer states, activations and overhead (GB = 1e9 B).

Model states follow the ZeRO paper (Ψ parameters, K optimizer bytes, N_d data-parallel GPUs):
stage 0 keeps everything on every GPU, stage 1 shards the optimizer, stage 2 also the
gradients, stage 3 also the weights. Tensor parallelism (inside a node) divides model states
and activations by its degree. Activations follow Korthikanti et al. (arXiv 2205.05198).

Every function accepts numpy arrays as well as scalars for the parallel settings, so the
hardware sweep evaluates thousands of configurations in one call.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from advisor.engine.params import Params
from advisor.engine.workload import Workload, embedding_params, lora_params
from advisor.engine.xp import of

OPTIMIZERS: tuple[str, ...] = ("adamw", "adamw_8bit", "paged_adamw_8bit", "adafactor", "sgd")


class Parallel(NamedTuple):
    """How the job is spread: tensor-parallel degree, data-parallel degree, ZeRO stage,
    activation checkpointing and flash attention."""

    tp: Any
    dp: Any
    zero: Any
    checkpointing: Any
    flash: bool = True


class Breakdown(NamedTuple):
    weights_gb: Any
    gradients_gb: Any
    optimizer_gb: Any
    activations_gb: Any
    overhead_gb: Any

    @property
    def per_gpu_gb(self) -> Any:
        return self.weights_gb + self.gradients_gb + self.optimizer_gb + self.activations_gb + self.overhead_gb


def weight_bytes(precision: str, p: Params) -> float:
    return float(p(f"memory.weight_bytes.{precision}"))


def trainable_params(w: Workload, p: Params, adapters: float | None = None) -> float:
    """Parameters that get gradients and optimizer states (``adapters``: the LoRA count, if known)."""
    if not w.is_adapter:
        return w.params_b * 1e9
    adapters = lora_params(w.shape, p, w.lora_rank, w.lora_targets) if adapters is None else adapters
    return adapters + (embedding_params(w.shape) if w.train_embeddings else 0.0)


def model_states(w: Workload, precision: str, optimizer: str, par: Parallel, p: Params) -> tuple[Any, Any, Any]:
    """(weights, gradients, optimizer) bytes per GPU."""
    n_params = w.params_b * 1e9
    xp = of(par.tp, par.dp, par.zero)  # one layout (the estimate) in floats, many (the sweep) in arrays
    tp = xp.asarray(par.tp, dtype=float)
    dp = xp.maximum(xp.asarray(par.dp, dtype=float), 1.0)
    zero = par.zero if xp is not np else np.asarray(par.zero)
    adapters = lora_params(w.shape, p, w.lora_rank, w.lora_targets) if w.is_adapter else 0.0
    trainable = trainable_params(w, p, adapters)
    if precision == "fp32":
        grad_b = float(p("memory.grad_bytes.fp32"))
        opt_b = float(p("memory.optimizer_bytes.fp32_training")) if optimizer == "adamw" else _opt_bytes(optimizer, p)
    elif w.pure_bf16:  # 16-bit states, no fp32 master (and no fp32 gradient partition)
        grad_b = float(p("memory.grad_bytes.mixed"))
        opt_b = float(p("memory.optimizer_bytes.pure_bf16")[optimizer])
    else:
        grad_b = float(p("memory.grad_bytes.mixed"))
        opt_b = _opt_bytes(optimizer, p)

    if w.method == "qlora":
        embed = min(embedding_params(w.shape), 0.5 * n_params)
        frozen = (n_params - embed) * float(p("memory.weight_bytes.nf4")) + embed * float(p("memory.weight_bytes.bf16"))
        adapter = adapters * weight_bytes("bf16" if precision == "fp32" else precision, p)
        weights = frozen + adapter
    elif w.method == "lora":
        weights = (n_params + adapters) * weight_bytes(precision, p)
    else:
        weights = n_params * weight_bytes(precision, p)

    weights = weights / tp / xp.where(zero >= 3, dp, 1.0)  # type: ignore[assignment]
    if w.optimizer_in_backward:
        # Each gradient is applied and freed as soon as it is produced: at most the largest matrix.
        grads = xp.full_like(weights, w.shape.vocab * w.shape.hidden * grad_b) / tp
    else:
        grads = trainable * grad_b / tp / xp.where(zero >= 2, dp, 1.0)
        # DeepSpeed converts each rank's gradient partition to fp32 for the optimizer step.
        partition = float(p("memory.zero_fp32_grad_bytes")) if precision != "fp32" and not w.pure_bf16 else 0.0
        # (also on one GPU when ZeRO is asked for: DeepSpeed allocates the partition regardless)
        grads = grads + xp.where(zero >= 1, trainable * partition / tp / dp, 0.0)
    optim = trainable * opt_b / tp / xp.where(zero >= 1, dp, 1.0)
    if w.zero_offload:
        # ZeRO-Offload (Ren et al. 2021, arXiv 2101.06840): fp32 master weights, optimizer states
        # and the fp32 gradient partition live in CPU memory; 16-bit weights and gradients stay.
        optim = xp.zeros_like(optim)
        grads = trainable * grad_b / tp / xp.where(zero >= 2, dp, 1.0)
    return weights, grads, optim


def checkpoint_gb(w: Workload, p: Params) -> float:
    """One resumable checkpoint: all weights and optimizer states, or only the adapters'."""
    per_param = float(p("checkpoint.bytes_per_param.train"))
    return trainable_params(w, p) * per_param / 1e9


def _opt_bytes(optimizer: str, p: Params) -> float:
    table = p("memory.optimizer_bytes")
    return float(table[optimizer])


def activation_bytes(w: Workload, precision: str, par: Parallel, p: Params) -> Any:
    """Activations kept for the backward pass, plus the logits of the loss, per GPU."""
    s, b = float(w.seq_len), float(w.micro_batch)
    h, heads, layers = float(w.shape.hidden), float(w.shape.heads), float(w.shape.layers)
    xp = of(par.tp, par.checkpointing)
    tp = xp.asarray(par.tp, dtype=float)
    scale = 2.0 if precision == "fp32" else 1.0  # the coefficients are for 16-bit activations
    per_token = float(p("memory.activation_coeff"))
    if w.is_adapter and w.lora_targets == "attention":
        per_token -= float(p("memory.activation_frozen_saving"))
    if not par.flash:
        per_token += float(p("memory.activation_attention_coeff")) * heads * s / h
    one_layer = s * b * h * per_token * scale / tp
    kept = s * b * h * float(p("memory.activation_checkpoint_coeff")) * scale / tp
    ckpt = xp.asarray(par.checkpointing, dtype=bool)
    if w.activation_offload:
        # The kept layer inputs go to CPU memory; a few are in flight at a time (prefetch).
        kept_layers = min(layers, float(p("memory.activation_offload_layers_on_gpu")))
        layers_total = xp.where(ckpt, kept_layers * kept + one_layer, kept_layers * one_layer)
    else:
        layers_total = xp.where(ckpt, layers * kept + one_layer, layers * one_layer)
    key = "memory.logits_bytes_chunked" if w.chunked_loss else "memory.logits_bytes"
    logits = s * b * float(w.shape.vocab) * float(p(key)) / tp
    if w.variable_length:  # blocks cached for longer batches are not reused for shorter ones
        return (layers_total + logits) * float(p("memory.variable_length_activation_factor"))
    return layers_total + logits


def breakdown(w: Workload, precision: str, optimizer: str, par: Parallel, p: Params) -> Breakdown:
    weights, grads, optim = model_states(w, precision, optimizer, par, p)
    acts = activation_bytes(w, precision, par, p)
    buffers_table = p("memory.zero_buffers_gb")
    if of(par.zero, par.dp) is not np:  # one layout (the estimate): no array work
        buffers: Any = float(buffers_table[str(int(par.zero))]) * 1e9
    else:
        zero = np.asarray(par.zero)
        per_stage = np.asarray([float(buffers_table[str(k)]) for k in range(4)] + [0.0])
        buffers = per_stage[np.where((zero >= 0) & (zero <= 3), zero, 4)]
        buffers = buffers * 1e9  # ZeRO stage 0 has none; DeepSpeed keeps its buckets on one GPU too
    allocated = weights + grads + optim + acts + buffers
    overhead = float(p("memory.cuda_context_gb")) * 1e9 + buffers + allocated * float(p("memory.allocator_overhead"))
    return Breakdown(
        weights_gb=weights / 1e9,
        gradients_gb=grads / 1e9,
        optimizer_gb=optim / 1e9,
        activations_gb=acts / 1e9,
        overhead_gb=overhead / 1e9,
    )


def usable_gb(memory_gb: Any, p: Params) -> Any:
    return of(memory_gb).asarray(memory_gb, dtype=float) * float(p("memory.usable_share"))


def plan_parallel(
    w: Workload,
    memory_gb: float,
    gpu_count: int,
    precision: str,
    optimizer: str,
    p: Params,
    *,
    tp: int | None = None,
    zero: int | None = None,
    checkpointing: bool | None = None,
    flash: bool = True,
) -> tuple[Parallel, Breakdown, bool]:
    """The fastest layout that fits: no recomputation before recomputation, then the smallest
    tensor-parallel degree, then the lowest ZeRO stage. Fixed settings are kept as given.
    Returns the most memory-saving layout (and ``fits=False``) when nothing fits."""
    node = int(p("memory.gpus_per_node"))
    ckpt_opts = [checkpointing] if checkpointing is not None else [False, True]
    tp_opts = [tp] if tp else [t for t in (1, 2, 4, 8) if t <= min(gpu_count, node) and gpu_count % t == 0]
    tp_opts = [t for t in tp_opts if w.shape.heads % t == 0] or [1]
    limit = float(usable_gb(memory_gb, p))
    last: tuple[Parallel, Breakdown] | None = None
    for ckpt in ckpt_opts:
        for t in tp_opts:
            dp = max(gpu_count // t, 1)
            zero_opts = [zero] if zero is not None else ([0, 1, 2, 3] if dp > 1 else [0])
            for z in zero_opts:
                par = Parallel(tp=t, dp=dp, zero=z, checkpointing=ckpt, flash=flash)
                mem = breakdown(w, precision, optimizer, par, p)
                last = (par, mem)
                if float(mem.per_gpu_gb) <= limit:
                    return par, mem, True
    assert last is not None
    return last[0], last[1], False


def min_gpus_to_fit(
    w: Workload, memory_gb: float, precision: str, optimizer: str, p: Params, *, max_gpus: int, flash: bool = True
) -> int:
    """The smallest candidate GPU count on which the job fits in its most memory-saving layout
    (recomputation, tensor parallelism inside a node, ZeRO-3); 0 if none up to ``max_gpus``."""
    node = int(p("memory.gpus_per_node"))
    limit = float(usable_gb(memory_gb, p))
    for n in candidate_counts(max_gpus, p):
        tp = max(t for t in (1, 2, 4, 8) if t <= min(n, node) and n % t == 0 and w.shape.heads % t == 0)
        par = Parallel(tp=tp, dp=max(n // tp, 1), zero=3 if n // tp > 1 else 0, checkpointing=True, flash=flash)
        if float(breakdown(w, precision, optimizer, par, p).per_gpu_gb) <= limit:
            return n
    return 0


def candidate_counts(max_gpus: int, p: Params) -> list[int]:
    """GPU counts worth considering: 1, 2, 4, then whole nodes doubling up to ``max_gpus``."""
    node = int(p("memory.gpus_per_node"))
    counts = [n for n in (1, 2, 4) if n < node]
    n = node
    while n <= max_gpus:
        counts.append(n)
        n *= 2
    return [c for c in counts if c <= max_gpus] or [1]
