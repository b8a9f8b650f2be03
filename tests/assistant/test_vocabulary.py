"""One vocabulary: every GPU, model and provider name of the catalog (id and each alias)
resolves to its own id through the assistant — the parser holds no copy of these names."""

from __future__ import annotations

import pytest

from advisor.assistant.offline import parse_question
from advisor.catalog import get_catalog

CAT = get_catalog()
GPU_NAMES = [(g.id, name) for g in CAT.gpus for name in (g.id, *g.aliases)]
MODEL_NAMES = [(m.id, name) for m in CAT.models for name in (m.id, *m.aliases)]
PROVIDER_NAMES = [(p.id, name) for p in CAT.providers.values() for name in (p.id, p.name, *p.aliases)]


def test_the_catalog_has_the_names_the_issue_counts() -> None:
    assert len(GPU_NAMES) >= 179


@pytest.mark.parametrize(("gpu_id", "name"), GPU_NAMES)
def test_every_gpu_name_resolves_to_its_card(gpu_id: str, name: str) -> None:
    for question in (f"LoRA微调Llama-3-8B，1亿token，用8张{name}，多少钱", f"LoRA fine-tune Llama-3-8B on 100M tokens with 8x {name}, cost?"):
        parsed = parse_question(question)
        assert parsed.args.get("gpu") == gpu_id, (question, parsed.args)
        assert parsed.args.get("gpu_count") == 8, (question, parsed.args)


@pytest.mark.parametrize(("model_id", "name"), MODEL_NAMES)
def test_every_model_name_resolves_to_its_model(model_id: str, name: str) -> None:
    parsed = parse_question(f"LoRA fine-tune {name} on 100M tokens with 8 H100, how much?")
    assert parsed.args.get("model") == model_id, parsed.args
    assert parsed.args.get("tokens_b") == pytest.approx(0.1)


@pytest.mark.parametrize(("provider_id", "name"), PROVIDER_NAMES)
def test_every_provider_name_resolves_to_its_provider(provider_id: str, name: str) -> None:
    parsed = parse_question(f"LoRA微调Llama-3-8B，1亿token，8张H100，按{name}的价格算多少钱")
    assert parsed.args.get("provider") == provider_id, parsed.args


def test_a_40gb_card_is_not_priced_as_the_80gb_one() -> None:
    for name in ("A100-SXM4-40GB", "a100 40g", "A100 40GB"):
        assert parse_question(f"Full fine-tune Llama-3-8B, 200M tokens, 16x {name}, cost?").args["gpu"] == "A100-40GB"


@pytest.mark.parametrize(
    ("question", "size"),
    [
        ("deepseek 67b LoRA, 1亿token, 8张H800 多少钱", 67),
        ("LoRA fine-tune Falcon-40B on 200M tokens with 8 A100s, how much?", 40),
        ("全参微调Qwen-14B，5千万token，8张A800，多少钱", 14),
        ("我们有一个13B的自研模型，LoRA微调，1亿token，8张4090，多少钱", 13),
    ],
)
def test_an_unlisted_model_with_a_size_is_priced_by_its_size_and_says_so(question: str, size: float) -> None:
    from advisor.assistant import ask

    r = ask(question, offline=True)
    call = r.tool_calls[0]
    assert call.error is None and call.args["params_b"] == size
    first_lines = r.answer.split("\n\n")[:2]
    assert any(f"{size}B" in line for line in first_lines), r.answer[:300]


def test_an_unlisted_model_without_a_size_asks_for_the_size() -> None:
    parsed = parse_question("LoRA fine-tune Falcon on 200M tokens with 8 A100s, how much?")
    assert parsed.intent == "clarify" and "model_size" in parsed.missing
