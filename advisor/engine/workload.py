"""What a training job is: its model shape, method and token count, and the FLOPs it needs.

Model FLOPs follow Kaplan et al.: 6·N·D for pre-training and full fine-tuning, with N the
parameters active per token (MoE). LoRA/QLoRA skip the weight-gradient matmuls: 4·N·D.
Attention adds ``flops.attention_per_layer_token`` · layers · sequence · hidden per token.
Recomputing activations costs time, not model FLOPs: it is a separate time multiplier.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from advisor.catalog.models import ModelSpec
from advisor.engine.params import Params
from advisor.errors import InputError

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

    @property
    def width(self) -> int:
        """The narrowest dimension of the layer's matrices: the hidden size, or a mixture of
        experts' routed-expert width when that is smaller."""
        return min(self.hidden, self.intermediate)


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
    train_embeddings: bool = False  # adapters: embeddings and LM head trained too
    activation_offload: bool = False  # checkpointed activations kept in CPU memory
    zero_offload: bool = False  # optimizer states, master weights and fp32 gradients in CPU memory
    pure_bf16: bool = False  # full fine-tune with 16-bit optimizer states and no fp32 master
    variable_length: bool = False  # batches of varying length: the allocator reserves more for activations

    @property
    def is_adapter(self) -> bool:
        return self.method in ADAPTER_METHODS

    @property
    def is_moe(self) -> bool:
        return self.active_params_b < self.params_b * 0.999


def shape_from_params(params_b: float, p: Params, vocab: int | None = None) -> Shape:
    """A plausible shape for a dense model known only by its size (log-log interpolation).

    The MLP is gated (``gated_ffn``). The head count is a multiple of ``workload.head_multiple`` so that tensor parallelism
    inside a node can split it (an interpolated 63 heads would force TP = 1), and the
    hidden size is heads × head_dim. KV heads equal the heads (multi-head attention), which
    divides them by construction."""
    table = np.asarray(p("workload.shape_table"), dtype=float)
    x = math.log(max(params_b, 1e-3))
    xs = np.log(table[:, 0])
    layers = float(np.exp(np.interp(x, xs, np.log(table[:, 1]))))
    hidden = float(np.exp(np.interp(x, xs, np.log(table[:, 2]))))
    multiple = int(p("workload.head_multiple"))
    head_dim = float(p("workload.head_dim"))
    heads = max(multiple, int(round(hidden / head_dim / multiple)) * multiple)
    dim = max(16, int(round(hidden / heads / 16.0)) * 16)
    hidden_i = heads * dim
    return Shape(
        layers=max(1, int(round(layers))),
        hidden=hidden_i,
        heads=heads,
        kv_heads=heads,
        intermediate=gated_ffn(hidden_i),
        vocab=int(vocab or p("workload.vocab_size")),
        tied_embeddings=False,
        source="workload.shape_table",
    )


def gated_ffn(hidden: int) -> int:
    """The gated-MLP (SwiGLU) width of current decoders, 8/3·h rounded up to 256 (Llama
    convention): 3·h·ffn ≈ 8·h² MLP parameters, 12·h² per layer with attention."""
    return -(-int(8 * hidden / 3) // 256) * 256


def family_of(name: str | None, p: Params) -> str | None:
    """The model family a name belongs to (longest matching name prefix in
    ``workload.vocab_by_family``), or None."""
    if not name:
        return None
    last = name.casefold().rsplit("/", 1)[-1]
    key = "".join(ch for ch in last if ch.isalnum() or ch == ".")
    table = p.peek("workload.family_prefixes")
    best = None
    for prefix, family in table.items():
        if key.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, family)
    return best[1] if best else None


def family_vocab(family: str | None, p: Params) -> int | None:
    """Vocabulary size of a family's current tokenizer (``workload.vocab_by_family``)."""
    if not family:
        return None
    value = p.peek("workload.vocab_by_family").get(family.casefold())
    if value is None:
        return None
    p.note("vocab_size", int(value), f"workload.vocab_by_family[{family.casefold()}]: the family's tokenizer "
           "(config.json vocab_size on the Hugging Face hub)", "tokens")
    return int(value)


SHAPE_FIELDS = ("layers", "hidden_size", "heads", "kv_heads", "vocab_size", "intermediate_size", "tied_embeddings")


def with_overrides(shape: Shape, given: dict[str, object]) -> Shape:
    """``shape`` with the fields the user stated (request names) replaced, checked for consistency."""
    if not given:
        return shape
    layers = int(given.get("layers", shape.layers))  # type: ignore[call-overload]
    hidden = int(given.get("hidden_size", shape.hidden))  # type: ignore[call-overload]
    if "heads" in given:
        heads = int(given["heads"])  # type: ignore[call-overload]
    elif "hidden_size" in given:
        heads = max(1, hidden // 128) if hidden % 128 == 0 else shape.heads
    else:
        heads = shape.heads
    kv = int(given.get("kv_heads", heads if "heads" in given else min(shape.kv_heads, heads)))  # type: ignore[call-overload]
    if hidden % heads:
        raise InputError("heads", heads, f"a number of attention heads that divides the hidden size ({hidden})")
    if kv > heads or heads % kv:
        raise InputError("kv_heads", kv, f"a number of KV heads that divides the attention heads ({heads})")
    default_inter = shape.intermediate if "hidden_size" not in given else gated_ffn(hidden)
    inter = int(given.get("intermediate_size", default_inter))  # type: ignore[call-overload]
    vocab = int(given.get("vocab_size", shape.vocab))  # type: ignore[call-overload]
    tied = bool(given.get("tied_embeddings", shape.tied_embeddings))
    return Shape(layers=layers, hidden=hidden, heads=heads, kv_heads=kv, intermediate=inter, vocab=vocab,
                 tied_embeddings=tied, source=f"{shape.source}; request: {', '.join(sorted(given))}")


def params_from_shape(shape: Shape) -> float:
    """Parameters in billions of a decoder shape with a gated (SwiGLU) MLP, embeddings included."""
    head_dim = shape.hidden / shape.heads
    attention = 2 * shape.hidden * shape.hidden + 2 * shape.hidden * shape.kv_heads * head_dim
    mlp = 3 * shape.hidden * shape.intermediate
    return (shape.layers * (attention + mlp) + embedding_params(shape)) / 1e9


def shape_from_model(spec: ModelSpec) -> Shape:
    """The shape of a catalog model."""
    hidden, vocab = spec.hidden_size, spec.vocab_size
    # Small models usually tie input and output embeddings; large ones keep two matrices.
    return Shape(layers=spec.layers, hidden=hidden, heads=spec.heads, kv_heads=spec.kv_heads,
                 intermediate=spec.intermediate_size, vocab=vocab,
                 tied_embeddings=2 * vocab * hidden > 0.25 * (spec.params_b * 1e9), source=f"catalog model {spec.id}")


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
    """Total model FLOPs of the run (no recomputation counted): the weight matmuls plus the
    attention scores and values, which grow with the sequence length (s·h per layer per token)."""
    attention = float(p("flops.attention_per_layer_token")) * w.shape.layers * w.seq_len * w.shape.hidden
    return (flops_per_token_factor(w.method, p) * w.active_params_b * 1e9 + attention) * w.tokens_b * 1e9


def recompute_factor(method: str, checkpointing: bool, p: Params) -> float:
    """Time multiplier of full activation recomputation: one extra forward pass."""
    if not checkpointing:
        return 1.0
    forward = float(p("flops.per_param_token.forward"))
    return (flops_per_token_factor(method, p) + forward) / flops_per_token_factor(method, p)
