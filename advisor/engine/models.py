"""Request and report models of the estimate (DESIGN.md "Estimate request/report").

Field descriptions are written for people and for an LLM choosing tool arguments: they say
when to set each field. Sizes accept numbers or strings with suffixes ("7B", "70亿", "50k").
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, Field

from advisor.catalog.market import MARKET_FIELD_DOC, Market
from advisor.errors import InputError
from advisor.findings import Assumption, Finding
from advisor.money import CurrencyField
from advisor.numeric import Billions, Count, ToolRequest

Method = Literal["pretrain", "full", "lora", "qlora"]
Precision = Literal["bf16", "fp16", "fp8", "fp32"]
Billing = Literal["on_demand", "daily", "monthly", "yearly", "off_peak", "spot", "per_task"]
Optimizer = Literal["adamw", "adamw_8bit", "paged_adamw_8bit", "adafactor", "sgd"]
Hosting = Literal["cloud", "colocation", "owned"]


def _lower(v: Any) -> Any:
    if isinstance(v, str):
        v = v.strip().lower().replace("-", "_")
        return {"ondemand": "on_demand", "hourly": "on_demand", "offpeak": "off_peak", "full_finetune": "full",
                "pretraining": "pretrain", "pre_train": "pretrain"}.get(v, v)
    return v


LowerLiteral = BeforeValidator(_lower)


def _era(v: Any) -> Any:
    """A software era: a year (2019-2100) or 'current'/'today'."""
    if v is None or v == "":
        return None
    text = str(v).strip().lower()
    if text in ("current", "today", "now", "当前", "现在"):
        return "current"
    if not (text.isdigit() and 2015 <= int(text) <= 2100):
        raise InputError("software_era", v, "a year such as 2022, or 'current'")
    return text


class EstimateRequest(ToolRequest):
    """What the user wants priced: the job, the hardware, the price and the context."""

    model: str | None = Field(None, description="Model name from the catalog, e.g. 'llama-3.1-8b', 'qwen2.5-72b'. Set it when the user names a model.")
    params_b: Billions = Field(None, description="Total parameters in billions; set only when no catalog model is named (e.g. 'a 13B model' -> 13).")
    active_params_b: Billions = Field(None, description="Parameters active per token, billions, for mixture-of-experts models.")
    method: Annotated[Method | None, LowerLiteral] = Field(None, description="pretrain, full (full fine-tune), lora or qlora. Default: full.")
    tokens_b: Billions = Field(None, description="All tokens processed, every epoch included, in billions (150 million tokens -> 0.15).")
    dataset_tokens_b: Billions = Field(None, description="Tokens in the dataset, billions; combined with epochs.")
    epochs: float | None = Field(None, description="Passes over the dataset.")
    samples: Count = Field(None, description="Number of training samples (50k samples -> 50000); combined with tokens_per_sample and epochs.")
    tokens_per_sample: Count = Field(None, description="Average tokens per sample, prompt and answer included.")
    model_family: str | None = Field(None, description="Model family (llama, qwen, mistral, gemma, glm, deepseek...) when the model is not in the catalog; sets the vocabulary size.")
    layers: int | None = Field(None, description="Transformer layers (num_hidden_layers), for a model not in the catalog.")
    hidden_size: int | None = Field(None, description="Hidden size (d_model), for a model not in the catalog.")
    heads: int | None = Field(None, description="Attention heads (num_attention_heads), for a model not in the catalog.")
    kv_heads: int | None = Field(None, description="Key/value heads (num_key_value_heads; fewer than heads = grouped-query attention).")
    vocab_size: int | None = Field(None, description="Vocabulary size of the tokenizer (Qwen ~152k, Llama 3 128k).")
    intermediate_size: int | None = Field(None, description="MLP (FFN) width, for a model not in the catalog.")
    tied_embeddings: bool | None = Field(None, description="True when input embedding and LM head share one matrix.")
    train_embeddings: bool | None = Field(None, description="LoRA/QLoRA: also train the token embeddings and LM head (e.g. for new tokens). Full fine-tunes always train them.")
    activation_offload: bool = Field(False, description="Keep checkpointed activations in CPU memory (activation offloading, torchtune enable_activation_offloading).")
    variable_length: bool = Field(False, description="Batches of varying length (unpacked data, e.g. SFT samples of mixed sizes): the caching allocator reserves more activation memory than one batch uses.")
    pure_bf16: bool | None = Field(None, description="Full fine-tune in pure 16-bit: weights, gradients and optimizer states in bf16, no fp32 master copy (a model loaded in bf16 and trained as is). Default: mixed precision with an fp32 master.")
    zero_offload: bool = Field(False, description="DeepSpeed ZeRO-Offload: fp32 master weights, optimizer states and gradients in CPU memory; the optimizer step runs on the CPU.")
    seq_len: int | None = Field(None, description="Training sequence length in tokens.")
    micro_batch_size: int | None = Field(None, description="Sequences per GPU per step.")
    gradient_checkpointing: bool | None = Field(None, description="Full activation recomputation; default: only when needed to fit.")
    flash_attention: bool = Field(True, description="Flash attention (removes the attention-matrix activations).")
    gpu: str | None = Field(None, description="GPU name or alias, e.g. 'A100', 'H100', '4090', '昇腾910B'.")
    gpu_count: int | None = Field(None, description="Number of GPUs; default: the smallest count that fits and meets the deadline.")
    precision: Annotated[Precision | None, LowerLiteral] = Field(None, description="bf16, fp16, fp8 or fp32 training precision. Default bf16.")
    optimizer: Annotated[Optimizer | None, LowerLiteral] = Field(None, description="adamw (default), adamw_8bit, paged_adamw_8bit, adafactor or sgd.")
    chunked_loss: bool = Field(False, description="Cross-entropy computed in chunks (torchtune, Liger), so full fp32 logits are never held.")
    optimizer_in_backward: bool = Field(False, description="Optimizer step fused into the backward pass, so gradients are freed at once (torchtune optimizer_in_bwd).")
    lora_targets: Literal["all_linear", "attention"] = Field("all_linear", description="Layers that get adapters: all linear layers (default, QLoRA practice) or the attention projections only (PEFT's default for many models).")
    lora_rank: int | None = Field(None, description="LoRA/QLoRA adapter rank; default from defaults.yaml.")
    zero_stage: int | None = Field(None, description="DeepSpeed ZeRO stage 0-3; default: the lowest that fits.")
    tensor_parallel: int | None = Field(None, description="Tensor-parallel degree inside a node; default: the lowest that fits.")
    mfu: float | None = Field(None, description="Model FLOPs utilization (0, 1]; only when the user states a measured value.")
    software_era: Annotated[str | None, BeforeValidator(_era)] = Field(None, description="Year of the training software stack (e.g. '2022' for a pre-flash-attention stack); default: today's stack.")
    price_per_gpu_hour: float | None = Field(None, description="Price per GPU-hour the user pays; default: reference price sheets.")
    currency: CurrencyField = Field("USD", description="USD or CNY; use CNY when the user speaks in 元/RMB.")
    billing: Annotated[Billing | None, LowerLiteral] = Field(None, description="Billing mode to price the total with; default on_demand. All modes are compared anyway.")
    provider: str | None = Field(None, description="Price sheet provider, e.g. 'lambda', 'runpod', '腾讯云'.")
    market: Market | None = Field(None, description=MARKET_FIELD_DOC)
    offpeak_discount: float | None = Field(None, description="Night (off-peak) discount the user has been offered, 0-1; only then is off-peak billing priced as available.")
    deadline_hours: float | None = Field(None, description="The run must finish within this many hours (3 days -> 72).")
    hosting: Hosting = Field("cloud", description="cloud (power included in rent), colocation or owned (power billed).")
    budget: float | None = Field(None, description="Budget for this run, in `currency`.")
    approval_threshold: float | None = Field(None, description="Spend above which approval is required, in `currency`.")
    has_validation_run: bool | None = Field(None, description="True when a small validation run has already been done.")
    parallel_experiments: int = Field(1, description="How many fine-tuning experiments run side by side.")
    urgent: bool = Field(False, description="True when the work cannot wait for off-peak hours.")
    interruptible: bool = Field(False, description="True when the work tolerates spot reclaims (checkpointed, not on the critical path).")
    checkpoint_interval_hours: float | None = Field(None, description="Planned checkpoint interval in hours, if the user has one.")
    price_locked: bool | None = Field(None, description="True when the contract locks the price.")
    project_months: float | None = Field(None, description="Length of the whole project in months.")
    storage_retention_days: float | None = Field(None, description="Days data and checkpoints stay stored after the run.")
    egress_gb: float | None = Field(None, description="Data downloaded out of the cloud, GB; default: the final weights once.")
    idle_wait_hours: float | None = Field(None, description="Hours the cards sit idle, still billed, waiting for evaluation or decisions.")
    support_cost: float | None = Field(None, description="Support or software licences not included in the rent, total in `currency`.")
    interconnect_surcharge_per_gpu_hour: float | None = Field(
        None, description="Multi-card interconnect (NVLink/InfiniBand) surcharge per GPU-hour, when the sheet prices it.")
    free_gpu_hours: float | None = Field(None, description="Free GPU-hours of a bundle or plan, credited at the unit price.")
    prices_file: str | None = Field(None, description="Path of a user price sheet (CSV) whose prices win over list prices.")
    lang: Literal["en", "zh"] = Field("en", description="Language of finding texts.")


class Range(BaseModel):
    low: float
    expected: float
    high: float


class Component(BaseModel):
    """One priced line: ``name`` is a stable key (gpu_usage, failure_overhead, rounding, unused_term,
    spot_rework, experiment_idle, storage, egress, energy, idle_wait, support); ``detail`` holds the
    variable parts its label is written with (knowledge/glossary.yaml ``component.<name>``)."""

    name: str
    detail: dict[str, Any] = Field(default_factory=dict)
    quantity: float
    unit: str
    unit_price: float
    amount: float


class Cost(BaseModel):
    currency: str
    total: float
    low: float
    high: float
    components: list[Component]


class Layout(BaseModel):
    tensor_parallel: int
    data_parallel: int
    zero_stage: int
    gradient_checkpointing: bool
    flash_attention: bool


class Memory(BaseModel):
    weights_gb: float
    gradients_gb: float
    optimizer_gb: float
    activations_gb: float
    overhead_gb: float
    per_gpu_gb: float
    gpu_memory_gb: float
    usable_gb: float
    fits: bool
    min_gpus_to_fit: int
    layout: Layout


class GpuUse(BaseModel):
    name: str
    count: int
    memory_gb: float
    peak_tflops: float
    precision: str


class Failures(BaseModel):
    job_mtbf_hours: float
    expected_interruptions: float
    checkpoint_interval_hours: float
    optimal_checkpoint_interval_hours: float
    checkpoint_write_minutes: float
    overhead_gpu_hours: float


class Alternatives(BaseModel):
    """Cheaper ways to run the same job (REQUIREMENTS C1, C3, C4); filled by the tools layer."""

    cheaper_gpu: dict[str, Any] | None = Field(None, description="Cheapest other card that fits and meets the deadline.")
    mixed_fleet: dict[str, Any] | None = Field(None, description="Routine share on the cheaper card, core share here.")
    fractional: dict[str, Any] | None = Field(None, description="Smallest card slice the job's memory needs.")


class EstimateReport(BaseModel):
    inputs: dict[str, Any]
    flops: float
    memory: Memory
    gpu: GpuUse
    mfu: Range
    compute_gpu_hours: Range
    gpu_hours: Range
    wall_hours: Range
    meets_deadline: bool | None
    failures: Failures
    cost: Cost
    billing: list[Any]
    assumptions: list[Assumption]
    findings: list[Finding] = Field(default_factory=list)
    alternatives: Alternatives = Field(default_factory=Alternatives)
    notes: list[dict[str, Any]] = Field(default_factory=list, description="What the reader must know: a key (glossary estimate.note.<key>) and its figures.")
