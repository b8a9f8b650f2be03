"""What a training job is: its model shape, method and token count, and the FLOPs it needs.

Model FLOPs follow Kaplan et al.: 6·N·D for pre-training and full fine-tuning, with N the
parameters active per token (MoE). LoRA/QLoRA skip the weight-gradient matmuls: 4·N·D.
Recomputing activations costs time, not model FLOPs: it is a separate time multiplier.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from advisor.engine.params import Params

Method = Literal["pretrain", "full", "lora", "qlora"]
METHODS: tuple[str, ...] = ("pretrain", "full", "lora", "qlora")
ADAPTER_METHODS = ("lora", "qlora")


@dataclass(frozen=True)
class Shape:
    """The transformer shape the memory model needs."""

    layers: int
    hidden: int
    heads: int
    kv_heads: int
    intermediate: int
    vocab: int
    tied_embeddings: bool
    source: str


@dataclass(frozen=True)
class Workload:
    params_b: float  # all parameters, billions
    active_params_b: float  # parameters used per token (MoE), billions
    method: str
    tokens_b: float  # tokens processed, every epoch included, billions
    seq_len: int
    micro_batch: int
    shape: Shape
    lora_rank: float | None = None
    optimizer_in_backward: bool = False
    chunked_loss: bool = False
    lora_targets: str = "all_linear"

    @property
    def is_adapter(self) -> bool:
        return self.method in ADAPTER_METHODS

    @property
    def is_moe(self) -> bool:
        return self.active_params_b < self.params_b * 0.999


def shape_from_params(params_b: float, p: Params) -> Shape:
    """A plausible shape for a dense model known only by its size (log-log interpolation)."""
    table = np.asarray(p("workload.shape_table"), dtype=float)
    x = math.log(max(params_b, 1e-3))
    xs = np.log(table[:, 0])
    layers = float(np.exp(np.interp(x, xs, np.log(table[:, 1]))))
    hidden = float(np.exp(np.interp(x, xs, np.log(table[:, 2]))))
    hidden_i = max(128, int(round(hidden / 128.0)) * 128)
    heads = max(1, hidden_i // 128)
    return Shape(
        layers=max(1, int(round(layers))),
        hidden=hidden_i,
        heads=heads,
        kv_heads=heads,
        intermediate=4 * hidden_i,
        vocab=int(p("workload.vocab_size")),
        tied_embeddings=False,
        source="workload.shape_table",
    )


def shape_from_model(spec: object) -> Shape:
    """The shape of a catalog model (``advisor.catalog.ModelSpec``)."""
    hidden = int(spec.hidden_size)  # type: ignore[attr-defined]
    heads = int(spec.heads)  # type: ignore[attr-defined]
    kv = int(getattr(spec, "kv_heads", None) or heads)
    inter = int(getattr(spec, "intermediate_size", None) or 4 * hidden)
    vocab = int(getattr(spec, "vocab_size", None) or 32000)
    params = float(spec.params_b) * 1e9  # type: ignore[attr-defined]
    # Small models usually tie input and output embeddings; large ones keep two matrices.
    tied = bool(getattr(spec, "tie_embeddings", None) or (2 * vocab * hidden > 0.25 * params))
    return Shape(
        layers=int(spec.layers),  # type: ignore[attr-defined]
        hidden=hidden,
        heads=heads,
        kv_heads=kv,
        intermediate=inter,
        vocab=vocab,
        tied_embeddings=tied,
        source=f"catalog model {spec.id}",  # type: ignore[attr-defined]
    )


def embedding_params(shape: Shape) -> float:
    """Parameters in the token embedding and output head (kept in 16-bit by QLoRA)."""
    return float(shape.vocab * shape.hidden * (1 if shape.tied_embeddings else 2))


def lora_params(shape: Shape, p: Params, rank: float | None = None, targets: str = "all_linear") -> float:
    """Trainable adapter parameters: rank × (in + out) for every adapted linear layer."""
    rank = float(rank if rank else p("lora.rank"))
    head_dim = shape.hidden / max(shape.heads, 1)
    kv_dim = shape.kv_heads * head_dim
    attention = 6 * shape.hidden + 2 * kv_dim  # q, k, v, o: in + out
    mlp = 3 * (shape.hidden + shape.intermediate) if targets == "all_linear" else 0.0  # gate, up, down
    return rank * (attention + mlp) * shape.layers


def flops_per_token_factor(method: str, p: Params) -> float:
    """Model FLOPs per active parameter per token for ``method``."""
    if method in ADAPTER_METHODS:
        return float(p("flops.per_param_token.adapter"))
    return float(p("flops.per_param_token.train"))


def model_flops(w: Workload, p: Params) -> float:
    """Total model FLOPs of the run (no recomputation counted)."""
    return flops_per_token_factor(w.method, p) * w.active_params_b * 1e9 * w.tokens_b * 1e9


def recompute_factor(method: str, checkpointing: bool, p: Params) -> float:
    """Time multiplier of full activation recomputation: one extra forward pass."""
    if not checkpointing:
        return 1.0
    forward = float(p("flops.per_param_token.forward"))
    return (flops_per_token_factor(method, p) + forward) / flops_per_token_factor(method, p)
