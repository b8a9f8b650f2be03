"""Properties of the cost math that must hold for any input (hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.engine.estimate import estimate
from advisor.engine.models import EstimateRequest

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
methods = st.sampled_from(["pretrain", "full", "lora", "qlora"])
params = st.floats(min_value=0.1, max_value=200)
counts = st.sampled_from([1, 2, 4, 8, 16, 64, 256, 1024])


@SETTINGS
@given(params_b=params, method=methods, tokens=st.floats(0.001, 100), factor=st.floats(1.01, 10))
def test_cost_grows_with_tokens(tiny_catalog, params_b: float, method: str, tokens: float, factor: float) -> None:
    base = dict(params_b=params_b, method=method, gpu="A100", gpu_count=8)
    a = estimate(EstimateRequest(tokens_b=tokens, **base), tiny_catalog)
    b = estimate(EstimateRequest(tokens_b=tokens * factor, **base), tiny_catalog)
    assert b.gpu_hours.expected > a.gpu_hours.expected
    assert b.cost.total >= a.cost.total


@SETTINGS
@given(params_b=params, method=methods, n=st.sampled_from([2, 4, 8, 16, 64, 256, 1024]))
def test_zero_stages_never_raise_memory(tiny_catalog, params_b: float, method: str, n: int) -> None:
    """From two data-parallel ranks on, each ZeRO stage shards more. (On one GPU DeepSpeed's
    stages 1-2 add the fp32 gradient partition and buckets, so they cost memory there.)"""
    per_gpu = []
    for stage in (0, 1, 2, 3):
        r = estimate(EstimateRequest(params_b=params_b, method=method, tokens_b=1, gpu="H100", gpu_count=n,
                                     zero_stage=stage, tensor_parallel=1, gradient_checkpointing=True), tiny_catalog)
        per_gpu.append(r.memory.weights_gb + r.memory.gradients_gb + r.memory.optimizer_gb)
    assert all(b <= a + 1e-9 for a, b in zip(per_gpu, per_gpu[1:], strict=False)), per_gpu


def test_zero_on_one_gpu_costs_the_fp32_partition(tiny_catalog) -> None:
    def states(stage: int) -> float:
        r = estimate(EstimateRequest(params_b=1.8, method="full", tokens_b=0.01, gpu="H100", gpu_count=1,
                                     zero_stage=stage, seq_len=256, micro_batch_size=1), tiny_catalog)
        return r.memory.gradients_gb

    assert states(2) - states(0) >= 4 * 1.8 * 0.99  # DeepSpeed's fp32 gradient partition, 4 bytes per parameter


@SETTINGS
@given(params_b=params, method=methods, n=counts, tokens=st.floats(0.01, 100))
def test_more_gpus_never_beat_the_ideal(tiny_catalog, params_b: float, method: str, n: int, tokens: float) -> None:
    """GPU-hours never fall below the single-node ideal: parallelism costs, it never saves."""
    one = estimate(EstimateRequest(params_b=params_b, method=method, tokens_b=tokens, gpu="H100", gpu_count=8,
                                   gradient_checkpointing=True), tiny_catalog)
    many = estimate(EstimateRequest(params_b=params_b, method=method, tokens_b=tokens, gpu="H100", gpu_count=max(n, 8),
                                    gradient_checkpointing=True), tiny_catalog)
    assert many.compute_gpu_hours.expected >= one.compute_gpu_hours.expected * (1 - 1e-9)
    assert many.wall_hours.expected <= one.wall_hours.expected * (1 + 1e-9)


@SETTINGS
@given(params_b=params, method=methods, n=counts)
def test_ranges_are_ordered_and_totals_add_up(tiny_catalog, params_b: float, method: str, n: int) -> None:
    r = estimate(EstimateRequest(params_b=params_b, method=method, tokens_b=1, gpu="A100", gpu_count=n), tiny_catalog)
    for rng in (r.gpu_hours, r.wall_hours, r.mfu):
        assert rng.low <= rng.expected <= rng.high
    assert r.cost.low <= r.cost.total <= r.cost.high
    assert abs(sum(c.amount for c in r.cost.components) - r.cost.total) < 1e-6 * max(1.0, r.cost.total)
    assert all(isinstance(c.amount, float) and c.amount >= 0 for c in r.cost.components)
