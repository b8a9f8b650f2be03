"""Serving after launch: how many GPUs a daily token volume needs (REQUIREMENTS E3).

A replica holds the weights on ``tp`` GPUs (tensor parallel) and serves ``batch`` sequences at
once. Each decode step reads the weights once plus every sequence's KV cache, so its time is
memory-bandwidth bound until the batch is large enough to be compute bound:

    step = max((W + batch * kv * ctx) / (BW * e_bw), 2 * N * batch / (peak * e_c)) / tp / e_tp

Prefill (the prompt) is compute bound: 2 * N * prompt tokens per request. The batch is the
largest that meets the latency target (time per output token) and fits the memory left after
the weights. The efficiencies come from ``knowledge/decisions/serving.yaml``, fitted to
published TensorRT-LLM figures. Everything is vectorised over the candidate (GPU, tp) pairs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from advisor.engine.params import Params

TP_CHOICES: tuple[int, ...] = (1, 2, 4, 8)
# Weight bytes per parameter key and KV-cache bytes per element, by serving precision.
WEIGHT_KEY = {"bf16": "bf16", "fp16": "fp16", "fp8": "fp8", "int8": "fp8", "int4": "nf4"}
KV_BYTES = {"bf16": 2.0, "fp16": 2.0, "fp8": 1.0, "int8": 1.0, "int4": 2.0}
PRECISIONS: tuple[str, ...] = tuple(WEIGHT_KEY)


@dataclass(frozen=True)
class Shape:
    """What the serving model needs to know about a model."""

    params_b: float
    active_params_b: float
    layers: int
    kv_heads: int
    head_dim: int

    def kv_bytes_per_token(self, precision: str) -> float:
        return 2.0 * self.layers * self.kv_heads * self.head_dim * KV_BYTES[precision]


@dataclass(frozen=True)
class Traffic:
    prompt_tokens: float
    output_tokens: float
    tpot_s: float  # latency target: seconds per output token per user (inf = throughput only)


def compute_peak_tflops(gpu: Any, precision: str) -> float:
    """Dense tensor peak for the serving precision (weight-only int4 computes in 16 bits)."""
    if precision in ("fp8", "int8"):
        value = gpu.fp8_tflops if precision == "fp8" else (gpu.int8_tops or gpu.fp8_tflops)
        if value:
            return float(value)
    return float(gpu.bf16_tflops or gpu.fp16_tflops or gpu.fp32_tflops)


def throughput(
    shape: Shape,
    *,
    bandwidth_gb_s: Any,
    peak_tflops: Any,
    tp: Any,
    batch: Any,
    traffic: Traffic,
    precision: str,
    p: Params,
) -> dict[str, np.ndarray]:
    """Output tokens per second per GPU and the decode step time, element-wise over arrays."""
    bw = np.asarray(bandwidth_gb_s, dtype=float) * 1e9 * float(p("serving.decode_bandwidth_efficiency"))
    peak = np.asarray(peak_tflops, dtype=float) * 1e12 * float(p("serving.compute_efficiency"))
    tp = np.asarray(tp, dtype=float)
    batch = np.asarray(batch, dtype=float)
    eff_tp = np.where(tp > 1, float(p("serving.tensor_parallel_efficiency")), 1.0)
    weights = shape.params_b * 1e9 * float(p(f"memory.weight_bytes.{WEIGHT_KEY[precision]}"))
    ctx = traffic.prompt_tokens + traffic.output_tokens / 2
    kv = shape.kv_bytes_per_token(precision) * ctx
    flops_token = float(p("flops.per_param_token.forward")) * shape.active_params_b * 1e9
    t_mem = (weights + batch * kv) / (tp * bw * eff_tp)
    t_compute = flops_token * batch / (tp * peak * eff_tp)
    step = np.maximum(t_mem, t_compute)
    prefill = flops_token * traffic.prompt_tokens * batch / (tp * peak * eff_tp)
    cycle = traffic.output_tokens * step + prefill
    per_gpu = batch * traffic.output_tokens / cycle / tp
    return {"per_gpu": per_gpu, "step_s": step, "weights_gb": np.full_like(per_gpu, weights / 1e9)}


def largest_batch(
    shape: Shape,
    *,
    memory_gb: Any,
    bandwidth_gb_s: Any,
    peak_tflops: Any,
    tp: Any,
    traffic: Traffic,
    precision: str,
    p: Params,
) -> np.ndarray:
    """The largest batch that fits the KV memory and meets the latency target (0 = none)."""
    mem = np.asarray(memory_gb, dtype=float) * float(p("memory.usable_share")) * 1e9 * np.asarray(tp, dtype=float)
    weights = shape.params_b * 1e9 * float(p(f"memory.weight_bytes.{WEIGHT_KEY[precision]}"))
    free = mem - weights
    headroom = mem * float(p("serving.kv_headroom_share"))
    kv_seq = shape.kv_bytes_per_token(precision) * (traffic.prompt_tokens + traffic.output_tokens)
    by_memory = np.where(free >= headroom, np.floor(free / kv_seq), 0.0)
    cap = float(p("serving.max_batch"))
    candidates = np.arange(1, int(cap) + 1, dtype=float)
    step = throughput(shape, bandwidth_gb_s=np.asarray(bandwidth_gb_s, dtype=float)[..., None],
                      peak_tflops=np.asarray(peak_tflops, dtype=float)[..., None],
                      tp=np.asarray(tp, dtype=float)[..., None], batch=candidates, traffic=traffic,
                      precision=precision, p=p)["step_s"]
    meets = step <= traffic.tpot_s
    by_latency = np.where(meets.any(axis=-1), (meets * candidates).max(axis=-1), 0.0)
    return np.minimum(np.minimum(by_memory, by_latency), cap)


def shape_of(model: Any | None, params_b: float, p: Params) -> Shape:
    """The serving shape of a catalog model, or of a bare size from the shape table."""
    if model is not None:
        heads = int(model.heads)
        return Shape(params_b=float(model.params_b), active_params_b=float(model.active_params_b or model.params_b),
                     layers=int(model.layers), kv_heads=int(model.kv_heads or heads),
                     head_dim=int(model.hidden_size) // heads)
    table = sorted((float(n), int(layers), int(hidden)) for n, layers, hidden in p("workload.shape_table"))
    _, layers, hidden = min(table, key=lambda row: abs(np.log(row[0] / params_b)))
    head_dim = 128
    return Shape(params_b=params_b, active_params_b=params_b, layers=layers, kv_heads=hidden // head_dim,
                 head_dim=head_dim)
