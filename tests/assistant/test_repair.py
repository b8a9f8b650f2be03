"""The repair layer on its own (advisor/assistant/repair.py): the frame's reading is the base,
the model's arguments are edits — across wordings, languages and fields."""

from __future__ import annotations

import pytest

from advisor.assistant.repair import read_frame, repair_call, repair_line


def repaired(question: str, tool: str, args: dict, **kw):
    frame = read_frame(question, None, [question])
    return repair_call(tool, args, frame, **kw)


@pytest.mark.parametrize(("question", "field", "invented", "read"), [
    ("LoRA fine-tune Llama-3-8B on 100 million tokens with 8 A100s", "gpu_count", 4, 8),
    ("用8张A100做LoRA微调Llama3-8B，数据1亿token", "gpu_count", 1, 8),
    ("QLoRA Mistral-7B on 0.24B tokens on 4 RTX 4090", "tokens_b", 0.15, 0.24),
    ("全参微调Qwen2.5-7B，数据2亿token，4张H800，每卡每小时20元", "price_per_gpu_hour", 0.15, 20),
    ("Fine-tune llama-3-8b with LoRA on 50k samples, 3 epochs, 2 H100", "epochs", 1, 3),
])
def test_a_value_the_frame_read_stands_against_an_invented_one(question, field, invented, read) -> None:
    tool, args, repairs = repaired(question, "estimate_training_cost", {field: invented})
    assert tool == "estimate_training_cost" and args[field] == pytest.approx(read)
    assert any(r.field == field and r.kind == "replaced" for r in repairs)


@pytest.mark.parametrize(("question", "field", "value"), [
    ("LoRA fine-tune Llama-3-8B on 100 million tokens with 8 A100s", "method", "full"),
    ("LoRA fine-tune Llama-3-8B on 100 million tokens with 8 A100s", "gpu", "H100"),
    ("用8张A100做LoRA微调Llama3-8B，数据1亿token", "model", "qwen2.5-7b"),
    ("用8张A100做LoRA微调Llama3-8B，数据1亿token", "method", "qlora"),
])
def test_text_the_frame_read_stands(question, field, value) -> None:
    _, args, repairs = repaired(question, "estimate_training_cost", {field: value})
    assert args[field] != value and any(r.field == field for r in repairs)


@pytest.mark.parametrize(("field", "value"), [
    ("billing", "spot"), ("precision", "fp8"), ("hosting", "owned"), ("urgent", True), ("interruptible", True),
    ("deadline_hours", 72), ("price_per_gpu_hour", 0.15), ("mfu", 0.4), ("provider", "runpod"),
])
def test_values_the_question_never_gave_are_dropped(field, value) -> None:
    _, args, repairs = repaired("LoRA fine-tune Llama-3-8B on 100 million tokens with 8 A100s",
                                "estimate_training_cost", {field: value})
    assert field not in args and any(r.field == field and r.kind == "dropped" for r in repairs)


def test_a_value_that_traces_to_unclaimed_words_is_kept() -> None:
    q = "LoRA fine-tune Llama-3-8B on 100 million tokens with 8 A100s, sequence length 4096"
    _, args, repairs = repaired(q, "estimate_training_cost", {"seq_len": 4096, "gpu_count": 8})
    assert args["seq_len"] == 4096 and not [r for r in repairs if r.kind != "filled"]


def test_a_figure_claimed_by_another_field_does_not_trace() -> None:
    # "80G" is the card's memory, "8张" the count: neither may become a deadline or an epoch count
    _, args, _ = repaired("用8张A100 80G做LoRA微调Llama3-8B，数据1亿token", "estimate_training_cost",
                          {"deadline_hours": 80, "epochs": 8})
    assert "deadline_hours" not in args and "epochs" not in args


def test_a_fields_own_default_is_accepted_but_not_another_fields() -> None:
    q = "LoRA fine-tune Llama-3-8B on 100 million tokens with 8 A100s"
    rent = "Renting 8 A100s for a month: pay hourly or monthly?"
    tool, args, repairs = repaired(rent, "compare_billing", {"gpu": "A100", "wall_hours": 730, "hours_per_day": 24})
    assert tool == "compare_billing" and args["hours_per_day"] == 24  # compare_billing's own default
    _, args, _ = repaired(q, "estimate_training_cost", {"lora_rank": 16, "gpu_count": 8})
    assert "lora_rank" not in args or args["lora_rank"] == 16  # defaults.yaml lora.rank = 16 (if shown)
    _, args, _ = repaired(q, "estimate_training_cost", {"epochs": 16})  # 16 is lora.rank's default, not epochs'
    assert "epochs" not in args


def test_empty_fields_are_filled_and_the_tool_choice_follows_a_confident_frame() -> None:
    tool, args, repairs = repaired("用8张A100做LoRA微调Llama3-8B，数据1亿token", "recommend_hardware", {})
    assert tool == "estimate_training_cost"
    assert args["gpu_count"] == 8 and args["method"] == "lora" and args["model"] == "llama-3-8b"
    assert repairs[0].kind == "tool" and all(r.kind == "filled" for r in repairs[1:])


def test_values_an_earlier_result_returned_may_be_used() -> None:
    q = "Which GPU should we rent to LoRA fine-tune Llama-3-8B on 100 million tokens?"
    _, args, _ = repaired(q, "estimate_training_cost", {"gpu": "H100", "gpu_count": 37})
    assert "gpu_count" not in args and "gpu" not in args
    _, args, repairs = repaired(q, "estimate_training_cost", {"gpu": "H100-SXM", "gpu_count": 37},
                                seen=["H100-SXM", 37])
    assert args["gpu_count"] == 37 and args["gpu"] == "H100-SXM"


def test_paths_must_be_named_by_the_user() -> None:
    _, args, repairs = repaired("Analyze usage.csv for idle GPUs", "analyze_usage",
                                {"files": ["usage.csv", "/etc/passwd"]})
    assert args["files"] == ["usage.csv"] and any("/etc/passwd" in r.line() for r in repairs)


def test_the_repair_line_is_one_line_in_the_users_language_without_invented_values() -> None:
    _, _, repairs = repaired("用8张A100做LoRA微调Llama3-8B，数据1亿token", "estimate_training_cost",
                             {"gpu_count": 3, "billing": "spot", "model": "llama-3-8b", "method": "lora", "tokens_b": 0.1})
    zh, en = repair_line(repairs, "zh"), repair_line(repairs, "en")
    assert "\n" not in zh and zh.startswith("_已按您的问题更正") and "gpu_count = 8" in zh
    assert en.startswith("_Corrected from your question") and "3" not in en.replace("gpu_count = 8", "")
    assert "spot" not in en and "spot" not in zh
