"""Follow-ups keep the previous request and change only what they name."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.assistant.offline import parse_question

BASE = "用8张A100全参微调Llama-3-8B，1亿token，每卡每小时9元，多少钱"


def test_changing_the_gpu_keeps_the_rest_and_drops_the_old_price() -> None:
    first = parse_question(BASE)
    second = parse_question("换成H100呢？", first)
    assert second.is_followup and second.intent == "estimate_training_cost"
    assert second.args["gpu"] == "H100-SXM"
    assert second.args["gpu_count"] == 8
    assert second.args["model"] == "llama-3-8b" and second.args["tokens_b"] == pytest.approx(0.1)
    assert "price_per_gpu_hour" not in second.args  # 9元 was the A100's price
    assert "gpu" in second.changed and "price_per_gpu_hour" in second.dropped


def test_new_data_amount_replaces_the_old_one_whatever_its_form() -> None:
    first = parse_question(BASE)
    second = parse_question("改成5万条、每条600 token、3个epoch呢", first)
    assert "tokens_b" not in second.args
    assert (second.args["samples"], second.args["tokens_per_sample"], second.args["epochs"]) == (50000, 600, 3)


def test_epochs_alone_turn_the_old_total_into_one_pass() -> None:
    first = parse_question("LoRA on Llama-3-8B, 200M tokens, 8 H100s")
    second = parse_question("what about 3 epochs?", first)
    assert second.args["dataset_tokens_b"] == pytest.approx(0.2)
    assert second.args["epochs"] == 3
    assert "tokens_b" not in second.args


def test_a_new_size_replaces_the_named_model() -> None:
    first = parse_question(BASE)
    second = parse_question("那换成70B的呢", first)
    assert second.args["params_b"] == 70
    assert second.args.get("model") in (None, "llama-3-70b")


def test_spot_means_billing_for_an_estimate_and_interruptible_for_a_comparison() -> None:
    estimate = parse_question("what about spot?", parse_question("LoRA Llama-3-8B, 50k samples, 8 A100s, cost?"))
    assert estimate.intent == "estimate_training_cost" and estimate.args["billing"] == "spot"
    billing = parse_question("what about spot?", parse_question("包月还是按量？16张H100用两个月"))
    assert billing.intent == "compare_billing" and billing.args["interruptible"] is True


def test_a_full_new_question_replaces_the_previous_one() -> None:
    first = parse_question(BASE)
    second = parse_question("预训练一个1B模型，1000亿token，多少钱", first)
    assert not second.is_followup
    assert "gpu" not in second.args and "model" not in second.args


def test_a_stated_new_tool_with_a_marker_carries_the_context() -> None:
    first = parse_question("Full fine-tune Llama-3-8B on 500M tokens with 16 H100s")
    second = parse_question("and spot or on-demand for this?", first)
    assert second.is_followup and second.intent == "compare_billing"
    assert (second.args["gpu"], second.args["gpu_count"]) == ("H100-SXM", 16)


def test_a_clarification_is_completed_by_the_answer() -> None:
    first = parse_question("帮我算算")
    assert first.intent == "clarify" and first.clarify_question and first.clarify_text
    assert set(first.clarify_text) == {"zh", "en"}
    second = parse_question("Qwen2.5-7B，LoRA，5万条", first)
    assert second.intent == "estimate_training_cost" and second.is_followup
    third = parse_question("which GPU?")
    assert third.intent == "clarify" and third.pending == "recommend_hardware"
    fourth = parse_question("a 70B model with QLoRA", third)
    assert fourth.intent == "recommend_hardware" and fourth.args["params_b"] == 70


def test_unrelated_questions_after_a_tool_are_new() -> None:
    first = parse_question(BASE)
    for question in ("什么是ZeRO-3？", "onboard me", "你好", "帮我看看这份合同"):
        assert not parse_question(question, first).is_followup, question


def test_a_bare_number_keeps_the_previous_language() -> None:
    first = parse_question(BASE)
    assert parse_question("16?", first).language == "zh"


@given(st.integers(min_value=1, max_value=1024))
@settings(max_examples=50, deadline=None)
def test_count_follow_ups_change_only_the_count(n: int) -> None:
    first = parse_question(BASE)
    second = parse_question(f"what about {n} cards?", first)
    assert second.args["gpu_count"] == n
    kept = {k: v for k, v in first.args.items() if k != "gpu_count"}
    assert {k: second.args.get(k) for k in kept} == kept


def test_a_side_question_keeps_the_job_for_the_next_turn() -> None:
    first = parse_question(BASE)
    side = parse_question("什么是ZeRO-3？", first)
    assert side.intent == "search_knowledge" and not side.is_followup
    after = parse_question("spot or on-demand?", side)
    assert after.intent == "compare_billing" and after.is_followup
    assert (after.args["gpu"], after.args["gpu_count"]) == ("A100-80GB", 8)
    assert "interruptible" not in after.args  # asking which mode is not saying the job can take reclaims


def test_asking_which_gpu_after_an_estimate_does_not_offer_the_old_gpu_only() -> None:
    first = parse_question("LoRA on Llama-3.1-8B, 100k samples, 8 A100 80GB at $1.6/GPU-hour")
    second = parse_question("which GPU would be cheapest for this?", first)
    assert second.intent == "recommend_hardware"
    assert "gpus" not in second.args and second.args["samples"] == 100000


def test_counts_said_as_of_them() -> None:
    first = parse_question("spot vs reserved for 64 H100s, 3 months")
    second = parse_question("and for 128 of them over 6 months?", first)
    assert (second.args["gpu_count"], second.args["wall_hours"]) == (128, 4380)


@pytest.mark.parametrize(("first", "then", "currency"), [
    ("qwen3-8b lora，5000 万 token，4 张 H800，用美元报价", "换回人民币", "CNY"),
    ("用8张A100 lora qwen2.5-7b，数据1亿token，多少钱", "转回美元再看一下", "USD"),
    ("4090 at ¥1.9/hr, LoRA qwen3-4b, 30M tokens, 2 cards, cost in RMB?", "now give me dollars", "USD"),
    ("LoRA llama-3-8b on 100M tokens with 8 H100s, cost?", "show me yuan", "CNY"),
])  # fmt: skip
def test_a_currency_asked_back_or_shown_converts_the_same_job(first: str, then: str, currency: str) -> None:
    r = parse_question(then, parse_question(first))
    assert r.intent == "estimate_training_cost" and r.context["currency"] == currency and r.context["market"] == "convert"


@pytest.mark.parametrize(("first", "answer", "tokens_b"), [
    ("how much to fine-tune llama-3-8b with lora?", "20M", 0.02),
    ("how much to fine-tune llama-3-8b with lora?", "about 20 million?", 0.02),
    ("LoRA 微调 qwen2.5-14b 多少钱", "5000万", 0.05),
    ("LoRA 微调 qwen2.5-14b 多少钱", "大概两亿吧", 0.2),
    ("全参微调 7B 模型要多少钱", "1.5亿左右", 0.15),
])  # fmt: skip
def test_a_bare_amount_answering_how_much_data_is_the_data(first: str, answer: str, tokens_b: float) -> None:
    """The clarification asked for the data: an answer that is only an amount is that amount of tokens, and the job is kept."""
    asked = parse_question(first)
    assert asked.intent == "clarify" and asked.missing[0] == "data"
    reply = parse_question(answer, asked)
    assert reply.intent == "estimate_training_cost"
    assert reply.args["tokens_b"] == pytest.approx(tokens_b)


def test_a_bare_number_after_a_priced_answer_is_not_read_as_data() -> None:
    first = parse_question("8 A100s, LoRA qwen2.5-14b on 80M tokens, cost?")
    reply = parse_question("16", first)  # no data was asked for: never 16 tokens
    assert reply.args.get("tokens_b") in (None, pytest.approx(0.08))
