"""The model catalog: coverage, names, and shapes that agree with the parameter counts.

Shape checks, and why their tolerances are what they are:

* Coarse (the textbook rule): a GPT-style layer has 4h² attention weights and an 8h² MLP
  (4h wide), so N ≈ 12·L·h² + V·h. Modern models bend both terms: gated MLPs (SwiGLU, three
  matrices of h x I with I between 2.7h and 8h) hold 8h² to 24h²; grouped-query attention
  shrinks attention to ~2.25h²; untied output embeddings add another V·h. Per layer the
  weights therefore run from ~0.7x to ~2.3x of 12h², and a dense model's published total
  must lie within 0.5x-2.5x of the rule: an order-of-magnitude check that catches a
  mistyped layer count or hidden size.
* Fine: with the catalog's own intermediate_size, kv_heads and experts, the per-layer count
  is 2h² + 2h²·kv/heads (attention, head_dim = h/heads) + m·h·I·experts (m = 3 for gated
  MLPs, 2 for MPT/BLOOM); adding V·h once (tied) or twice (untied) must bracket the
  published total within -10 %/+20 % (head_dim larger than h/heads in Qwen3/Gemma, biases,
  norms, vision towers and DeepSeek's dense/shared layers stay inside that margin).
"""

from __future__ import annotations

import pytest

from advisor.catalog import Catalog, ModelSpec, normalize_name
from advisor.errors import UnknownNameError

REQUIRED = [
    "llama-2-7b",
    "llama-2-13b",
    "llama-2-70b",
    "llama-3-8b",
    "llama-3-70b",
    "llama-3.1-8b",
    "llama-3.1-70b",
    "llama-3.1-405b",
    "llama-3.2-1b",
    "llama-3.2-3b",
    "llama-3.3-70b",
    "qwen2.5-0.5b",
    "qwen2.5-1.5b",
    "qwen2.5-3b",
    "qwen2.5-7b",
    "qwen2.5-14b",
    "qwen2.5-32b",
    "qwen2.5-72b",
    "qwen3-0.6b",
    "qwen3-1.7b",
    "qwen3-4b",
    "qwen3-8b",
    "qwen3-14b",
    "qwen3-32b",
    "qwen3-30b-a3b",
    "qwen3-235b-a22b",
    "deepseek-v2",
    "deepseek-v3",
    "deepseek-r1",
    "deepseek-r1-distill-qwen-7b",
    "deepseek-r1-distill-qwen-32b",
    "deepseek-r1-distill-llama-8b",
    "deepseek-r1-distill-llama-70b",
    "mistral-7b",
    "mixtral-8x7b",
    "mixtral-8x22b",
    "gemma-2-2b",
    "gemma-2-9b",
    "gemma-2-27b",
    "gemma-3-1b",
    "gemma-3-4b",
    "gemma-3-12b",
    "gemma-3-27b",
    "phi-3-mini",
    "phi-3-medium",
    "phi-4",
    "yi-6b",
    "yi-34b",
    "glm-4-9b",
    "chatglm3-6b",
    "baichuan2-7b",
    "baichuan2-13b",
    "internlm2-7b",
    "internlm2-20b",
    "internlm3-8b",
    "tinyllama-1.1b",
    "mpt-7b",
    "bloomz-7b1",
]
MOE = {
    "qwen3-30b-a3b",
    "qwen3-235b-a22b",
    "deepseek-v2",
    "deepseek-v3",
    "deepseek-r1",
    "mixtral-8x7b",
    "mixtral-8x22b",
}
DENSE = [m for m in REQUIRED if m not in MOE]
NON_GATED = {"mpt", "bloom"}


def test_catalog_covers_the_required_models(catalog: Catalog) -> None:
    ids = {m.id for m in catalog.models}
    assert len(ids) >= 35
    assert set(REQUIRED) <= ids


def test_every_model_names_its_config_source(catalog: Catalog) -> None:
    for m in catalog.models:
        assert "config.json" in m.source or "model card" in m.source, m.id


def _coarse(m: ModelSpec) -> float:
    return 12 * m.layers * m.hidden_size**2 + m.vocab_size * m.hidden_size


def _fine(m: ModelSpec) -> tuple[float, float]:
    h = m.hidden_size
    attention = 2 * h * h + 2 * h * h * m.kv_heads / m.heads
    mlp = (2 if m.family in NON_GATED else 3) * h * m.intermediate_size * (m.experts or 1)
    body = m.layers * (attention + mlp)
    return body + m.vocab_size * h, body + 2 * m.vocab_size * h


@pytest.mark.parametrize("model_id", DENSE)
def test_dense_params_match_the_12_l_h2_rule_within_the_justified_factor(
    catalog: Catalog, model_id: str
) -> None:
    m = catalog.model(model_id)
    ratio = m.params_b * 1e9 / _coarse(m)
    assert 0.5 <= ratio <= 2.5, f"{m.id}: params / (12·L·h² + V·h) = {ratio:.2f}"


@pytest.mark.parametrize("model_id", REQUIRED)
def test_params_match_the_layer_shapes(catalog: Catalog, model_id: str) -> None:
    m = catalog.model(model_id)
    tied, untied = _fine(m)
    total = m.params_b * 1e9
    assert 0.9 * tied <= total <= 1.2 * untied, (
        f"{m.id}: {m.params_b}B outside [{0.9 * tied / 1e9:.2f}, {1.2 * untied / 1e9:.2f}]B"
    )


def test_moe_models_are_consistent(catalog: Catalog) -> None:
    moe = [m for m in catalog.models if m.is_moe]
    assert {m.id for m in moe} == MOE
    for m in moe:
        assert m.active_params_b is not None and m.active_params_b < m.params_b, m.id
        assert m.experts_per_token is not None and m.experts is not None
        assert m.experts_per_token < m.experts
        # Per token: attention + k experts per layer + embeddings; shared experts and dense
        # layers are not in the catalog shape, so allow a factor of two either way.
        h = m.hidden_size
        per_layer = 2 * h * h + 2 * h * h * m.kv_heads / m.heads
        per_layer += 3 * h * m.intermediate_size * m.experts_per_token
        active = m.layers * per_layer + m.vocab_size * h
        assert 0.5 <= m.active_params_b * 1e9 / active <= 2.0, m.id
    r1 = next(m for m in moe if m.id == "deepseek-r1")
    assert (r1.params_b, r1.active_params_b) == (671, 37)


def test_dense_models_have_no_moe_fields(catalog: Catalog) -> None:
    for m in catalog.models:
        if not m.is_moe:
            assert m.active_params_b is None and m.experts_per_token is None, m.id
            assert m.active_b == m.params_b


def test_aliases_are_unique(catalog: Catalog) -> None:
    owner: dict[str, str] = {}
    for m in catalog.models:
        for name in (m.id, *m.aliases):
            key = normalize_name(name)
            assert owner.setdefault(key, m.id) == m.id, f"{name!r}: {owner[key]} and {m.id}"
            assert catalog.model(name).id == m.id


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("llama3-8b", "llama-3-8b"),
        ("llama-3-8b-instruct", "llama-3-8b"),
        ("Meta-Llama-3-8B", "llama-3-8b"),
        ("llama 3 8b", "llama-3-8b"),
        ("meta-llama/Meta-Llama-3.1-8B-Instruct", "llama-3.1-8b"),
        ("qwen2.5-7b-instruct", "qwen2.5-7b"),
        ("Qwen/Qwen2.5-72B-Instruct", "qwen2.5-72b"),
        ("通义千问2.5-7B", "qwen2.5-7b"),
        ("千问3-8B", "qwen3-8b"),
        ("Qwen3-8B-Base", "qwen3-8b"),
        ("deepseek-r1满血版", "deepseek-r1"),
        ("百川2-13B", "baichuan2-13b"),
        ("书生·浦语2-7B", "internlm2-7b"),
        ("智谱GLM-4-9B", "glm-4-9b"),
        ("gemma-2-9b-it", "gemma-2-9b"),
        ("mixtral", "mixtral-8x7b"),
        ("THUDM/chatglm3-6b", "chatglm3-6b"),
        ("bigscience/bloomz-7b1", "bloomz-7b1"),
    ],
)
def test_model_names_resolve(catalog: Catalog, name: str, expected: str) -> None:
    assert catalog.model(name).id == expected


def test_qwen2_point_5_is_not_confused_with_other_sizes(catalog: Catalog) -> None:
    assert catalog.model("qwen2.5-7b").id != catalog.model("qwen2.5-72b").id
    with pytest.raises(UnknownNameError):
        catalog.model("qwen2-57b")


def test_unknown_model_suggests_close_matches(catalog: Catalog) -> None:
    with pytest.raises(UnknownNameError) as err:
        catalog.model("llama-3.1-7b")
    assert "llama-3.1-8b" in err.value.suggestions
    assert "\n" not in str(err.value)
