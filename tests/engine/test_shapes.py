"""Model shapes: interpolated shapes that tensor parallelism can split, vocabularies by family,
explicit shapes for models the catalog lacks, and the layout search that follows from them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from advisor.engine.estimate import estimate
from advisor.engine.models import EstimateRequest
from advisor.engine.params import Params
from advisor.engine.workload import params_from_shape, shape_from_params
from advisor.errors import InputError

ADVISOR = Path(sys.executable).with_name("advisor")


@pytest.mark.parametrize("params_b", [0.3, 1.1, 2.7, 7, 13, 34, 52, 65, 67, 110, 180, 250, 405])
def test_interpolated_shape_is_valid_and_sized(catalog, params_b: float) -> None:
    s = shape_from_params(params_b, Params(catalog.defaults))
    assert s.heads % 8 == 0 and s.heads % s.kv_heads == 0 and s.hidden % s.heads == 0
    # the shape carries about the parameters it was made for (embeddings dominate tiny models)
    if params_b >= 1:
        assert params_from_shape(s) == pytest.approx(params_b, rel=0.3)


def _pretrain(catalog, gpus: int, **model) -> object:
    return estimate(EstimateRequest(method="pretrain", tokens_b=1000, gpu="A100-80GB", gpu_count=gpus, seq_len=2048,
                                    **model), catalog)


REAL_SHAPES = {
    "65B (80 layers, 8192 hidden, 64 heads)": dict(params_b=65, layers=80, hidden_size=8192, heads=64),
    "llama-2-70b": dict(model="llama-2-70b"),
    "qwen2.5-72b": dict(model="qwen2.5-72b"),
    "qwen2.5-32b": dict(model="qwen2.5-32b"),
    "yi-34b": dict(model="yi-34b"),
}


@pytest.mark.parametrize("name", list(REAL_SHAPES))
@pytest.mark.parametrize("gpus", [64, 512, 2048])
def test_params_only_layout_no_worse_than_real_shape(catalog, name: str, gpus: int) -> None:
    real = _pretrain(catalog, gpus, **REAL_SHAPES[name])
    size = real.inputs["params_b"]
    guessed = _pretrain(catalog, gpus, params_b=size)
    # no recomputation forced by an unsplittable head count, and no slower than the real shape
    # (but for the attention FLOPs of each shape's layers × hidden size, within 1 %)
    assert guessed.memory.layout.gradient_checkpointing <= real.memory.layout.gradient_checkpointing
    assert guessed.memory.layout.tensor_parallel <= max(real.memory.layout.tensor_parallel, 8)
    assert guessed.compute_gpu_hours.expected <= real.compute_gpu_hours.expected * 1.01


def test_recompute_chosen_to_fit_says_why(catalog) -> None:
    r = estimate(EstimateRequest(model="llama-3.1-8b", method="lora", tokens_b=0.1, seq_len=8192,
                                 micro_batch_size=2, gpu="A100-80GB", gpu_count=1), catalog)
    assert r.memory.layout.gradient_checkpointing
    note = next(n for n in r.notes if n["key"] == "recompute")
    assert note["needed_gb"] > note["usable_gb"] > 0
    from advisor.present import present

    en, zh = present("estimate_training_cost", r, "en").notes, present("estimate_training_cost", r, "zh").notes
    assert any("recomputation" in n and "GB per GPU" in n for n in en) and any("重计算" in n for n in zh)
    assert any(a.name == "gradient_checkpointing" for a in r.assumptions)


def test_no_recompute_note_when_it_is_not_needed_or_asked_for(catalog) -> None:
    small = estimate(EstimateRequest(model="llama-3.1-8b", method="lora", tokens_b=0.01, seq_len=512,
                                     micro_batch_size=1, gpu="A100-80GB", gpu_count=1), catalog)
    asked = estimate(EstimateRequest(model="llama-3.1-8b", method="lora", tokens_b=0.01, seq_len=512,
                                     gradient_checkpointing=True, gpu="A100-80GB", gpu_count=1), catalog)
    assert not small.memory.layout.gradient_checkpointing
    assert asked.memory.layout.gradient_checkpointing
    assert not [n for r in (small, asked) for n in r.notes if n["key"] == "recompute"]


@pytest.mark.parametrize(("name", "vocab"), [
    ("Qwen/Qwen3-14B-my-tune", 151936), ("qwq-32b-preview-custom", 151936), ("llama2-13b-private", 32000),
    ("Llama-3.3-my-70b", 128256), ("gemma-4-9b", 262144), ("phi3-medium-custom", 32064), ("phi-5-new", 100352),
])
def test_vocabulary_by_family_for_names_the_catalog_lacks(catalog, name: str, vocab: int) -> None:
    r = estimate(EstimateRequest(model=name, params_b=14, method="lora", tokens_b=0.01, gpu="A100-80GB",
                                 gpu_count=1), catalog)
    used = {a.name: a.value for a in r.assumptions}
    assert used["vocab_size"] == vocab


def test_larger_vocabulary_needs_more_memory(catalog) -> None:
    def mem(**kw: object) -> float:
        return estimate(EstimateRequest(params_b=14, method="lora", tokens_b=0.01, seq_len=4096, micro_batch_size=4,
                                        gpu="A100-80GB", gpu_count=1, **kw), catalog).memory.per_gpu_gb
    assert mem(model_family="qwen") > mem(model_family="llama-2") + 3
    assert mem(vocab_size=151936) == pytest.approx(mem(model_family="qwen"))


def test_unknown_name_without_size_is_still_an_error(catalog) -> None:
    with pytest.raises(InputError):
        estimate(EstimateRequest(model="qwen-private-14b", method="lora", tokens_b=0.01), catalog)


def test_explicit_shape_overrides_and_sizes_the_model(catalog) -> None:
    r = estimate(EstimateRequest(layers=48, hidden_size=5120, heads=40, kv_heads=8, vocab_size=152064,
                                 intermediate_size=13824, method="lora", tokens_b=0.01, gpu="A100-80GB", gpu_count=1),
                 catalog)
    # Qwen2.5-14B's shape: 14.7B parameters on its model card
    assert r.inputs["params_b"] == pytest.approx(14.7, rel=0.05)


@pytest.mark.parametrize(("fields", "bad"), [
    (dict(hidden_size=5120, heads=48), "heads"), (dict(heads=40, kv_heads=6), "kv_heads"),
])
def test_inconsistent_shape_is_a_clear_error(catalog, fields: dict, bad: str) -> None:
    with pytest.raises(InputError) as err:
        estimate(EstimateRequest(params_b=14, method="lora", tokens_b=0.01, **fields), catalog)
    assert err.value.field == bad


def test_cli_shape_flags() -> None:
    base = [str(ADVISOR), "estimate", "--params", "14B", "--method", "lora", "--tokens", "10M", "--gpu", "a100",
            "--gpus", "1", "--json"]
    ok = subprocess.run([*base, "--layers", "48", "--hidden", "5120", "--heads", "40", "--kv-heads", "8",
                         "--vocab", "152064", "--ffn", "13824", "--no-tied-embeddings"], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    bad = subprocess.run([*base, "--heads", "40", "--kv-heads", "7"], capture_output=True, text=True)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr


def _lora_mem(catalog, **kw: object) -> object:
    base = dict(model="llama-3.1-8b", method="lora", tokens_b=0.01, seq_len=2048, micro_batch_size=2,
                gradient_checkpointing=True, gpu="A100-80GB", gpu_count=1)
    base.update(kw)
    return estimate(EstimateRequest(**base), catalog).memory


def test_trained_embeddings_add_gradients_and_optimizer_states(catalog) -> None:
    plain, trained = _lora_mem(catalog), _lora_mem(catalog, train_embeddings=True)
    embed = 2 * 128256 * 4096 / 1e9  # untied input embedding and LM head, billions of parameters
    assert trained.optimizer_gb - plain.optimizer_gb == pytest.approx(12 * embed, rel=0.01)
    assert trained.weights_gb == pytest.approx(plain.weights_gb)


def test_activation_offload_keeps_few_layers_on_the_gpu(catalog) -> None:
    plain, off = _lora_mem(catalog, seq_len=8192), _lora_mem(catalog, seq_len=8192, activation_offload=True)
    assert off.activations_gb < plain.activations_gb - 2
    assert off.weights_gb == plain.weights_gb


@pytest.mark.parametrize("seq_len", [512, 4096])
def test_batches_of_varying_length_reserve_more_activation_memory(catalog, seq_len: int) -> None:
    def run(**kw: object) -> object:
        return estimate(EstimateRequest(model="llama-3.1-8b", method="lora", tokens_b=0.01, seq_len=seq_len,
                                        micro_batch_size=1, gradient_checkpointing=True, gpu="A100-80GB", gpu_count=1,
                                        **kw), catalog)

    fixed, r = run().memory, run(variable_length=True)
    factor = catalog.defaults.value("memory.variable_length_activation_factor")
    assert r.memory.activations_gb == pytest.approx(fixed.activations_gb * factor, rel=1e-3)
    assert r.memory.weights_gb == fixed.weights_gb
    assert "memory.variable_length_activation_factor" in {a.name for a in r.assumptions}


def test_zero_offload_moves_optimizer_states_to_the_cpu(catalog) -> None:
    r = estimate(EstimateRequest(model="llama-3.1-8b", method="full", tokens_b=0.01, gpu="A100-80GB", gpu_count=1,
                                 zero_offload=True, seq_len=2048, micro_batch_size=1), catalog)
    assert r.memory.optimizer_gb == 0 and r.memory.fits
    assert r.memory.weights_gb + r.memory.gradients_gb == pytest.approx(4 * 8.03, rel=0.01)


@pytest.mark.parametrize(("model", "params_b"), [("llama-3.1-8b", 8.03), (None, 14.0)])
def test_pure_bf16_full_fine_tune_keeps_no_fp32_master(catalog, model: str | None, params_b: float) -> None:
    def run(**kw: object) -> object:
        return estimate(EstimateRequest(model=model, params_b=None if model else params_b, method="full", tokens_b=0.01,
                                        seq_len=1024, micro_batch_size=1, gpu="A100-80GB", gpu_count=1, zero_stage=0,
                                        **kw), catalog)

    mixed, pure = run(), run(pure_bf16=True)
    table = catalog.defaults.value("memory.optimizer_bytes.pure_bf16")
    assert pure.memory.optimizer_gb == pytest.approx(table["adamw"] * params_b, rel=0.02)
    assert mixed.memory.optimizer_gb == pytest.approx(12 * params_b, rel=0.02)
    assert pure.memory.weights_gb == mixed.memory.weights_gb
    assert "memory.optimizer_bytes.pure_bf16" in {a.name for a in pure.assumptions}
    # the data default (mixed precision) is what an unsaid request gets, and it is listed
    assert "memory.pure_bf16" in {a.name for a in mixed.assumptions}
    # adapters keep their own (tiny) states: the option only changes full fine-tunes
    lora = dict(model=model, params_b=None if model else params_b, method="lora", tokens_b=0.01, gpu="A100-80GB",
                gpu_count=1)
    assert estimate(EstimateRequest(**lora, pure_bf16=True), catalog).memory.optimizer_gb == \
        estimate(EstimateRequest(**lora), catalog).memory.optimizer_gb


@pytest.mark.parametrize(("total_b", "active_b"), [(109, 17), (400, 17), (236, 21)])
def test_moe_known_by_its_sizes_gets_the_layers_of_its_active_size(catalog, total_b: float, active_b: float) -> None:
    """The experts add weights, not layers or hidden width: a mixture of experts given only
    --params and --active-params gets the activations of its active size, so no recomputation
    is forced by a dense shape of its total size."""
    moe = _pretrain(catalog, 1024, params_b=total_b, active_params_b=active_b)
    dense = _pretrain(catalog, 1024, params_b=active_b)
    assert moe.memory.layout.gradient_checkpointing <= dense.memory.layout.gradient_checkpointing
    assert moe.inputs["params_b"] == total_b  # the weights are still all the experts'


@pytest.mark.parametrize("params_b", [1.0, 7.0, 70.0])
def test_longer_sequences_cost_their_attention_flops(catalog, params_b: float) -> None:
    def hours(seq: int) -> float:
        return estimate(EstimateRequest(params_b=params_b, method="pretrain", tokens_b=100, gpu="H100-SXM",
                                        gpu_count=64, seq_len=seq, gradient_checkpointing=True),
                        catalog).compute_gpu_hours.expected

    p = Params(catalog.defaults)
    s = shape_from_params(params_b, p)
    per_token = float(p("flops.attention_per_layer_token")) * s.layers * s.hidden  # per context token
    share = per_token / (float(p("flops.per_param_token.train")) * params_b * 1e9)
    assert hours(32768) / hours(2048) == pytest.approx((1 + share * 32768) / (1 + share * 2048), rel=1e-6)
    assert hours(32768) > hours(2048) * (1.1 if params_b >= 70 else 1.3)
