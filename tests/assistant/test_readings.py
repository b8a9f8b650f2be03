"""The readings new users found wrong, each as a general case (the wording and the values vary):
per-card price vs card count, hours per day, fractions and negation, serving, quotes, billing
increments, multi-part plans, count and currency follow-ups, a clarification that keeps the job,
yes/no verdicts. (Unknown models with a size: test_vocabulary.py.)"""

from __future__ import annotations

import pytest

from advisor.assistant import ask
from advisor.assistant.offline import parse_question
from advisor.assistant.offline.verdict import mark

pytestmark = pytest.mark.usefixtures("clean_llm_env")


@pytest.mark.parametrize("price", [34.74, 8, 12.5])
@pytest.mark.parametrize("n", [2, 8, 16])
@pytest.mark.parametrize("form", [
    "单卡每小时{p}元，用{n}张A800，LoRA微调Qwen2.5-7B，1亿token，多少钱",
    "LoRA微调Qwen2.5-7B，1亿token，{n}张A800，每卡每小时{p}元",
    "LoRA fine-tune qwen2.5-7b on 100M tokens with {n} A800s at ¥{p} per GPU-hour",
])
def test_a_price_per_card_never_changes_the_card_count(form: str, n: int, price: float) -> None:
    args = parse_question(form.format(n=n, p=price)).args
    assert args["gpu_count"] == n and args["price_per_gpu_hour"] == pytest.approx(price)


@pytest.mark.parametrize(("text", "per_day", "days"), [
    ("8张H100，每天跑6小时，跑一个月，包月还是按量划算？", 6, 30),  # a month of days is 30 days: 180 h of use (#11)
    ("2张4090每天跑8小时，跑三个月，按量还是包月", 8, 90),
    ("an A100 for 2 months, 5 hours a day: hourly or monthly?", 5, 60),
    ("4张A100每天只用10小时，用20天，按量还是包月？", 10, 20),
    ("16 L40S, 8 hours a day for 45 days: monthly or on-demand billing?", 8, 45),
])
def test_hours_a_day_and_days_are_a_part_time_schedule(text: str, per_day: float, days: float) -> None:
    args = parse_question(text).args
    assert args["hours_per_day"] == per_day and args["days"] == pytest.approx(days, rel=1e-3)


@pytest.mark.parametrize(("text", "share"), [("租1/10张卡跑qlora 7b，1千万token", 0.1), ("租半张卡行不行，qlora 7b，1千万token", 0.5),
                                              ("lora 7b on a quarter of a GPU, 10M tokens", 0.25)])
def test_a_fraction_of_a_card_is_not_a_count(text: str, share: float) -> None:
    parsed = parse_question(text)
    assert parsed.context["gpu_share"] == pytest.approx(share) and parsed.args.get("gpu_count") in (None, 1)


@pytest.mark.parametrize(("text", "locked"), [("合同没有锁价，条款：'价格随市场调整'，有风险吗", False), ("There is no price lock in the contract", False),
                                              ("合同里锁价12个月", True)])
def test_negation_reverses_a_flag(text: str, locked: bool) -> None:
    assert parse_question(text).context.get("price_locked") is locked


@pytest.mark.parametrize("text", ["deepseek-v3 lora on 30M tokens using 64 H200. not spot, on-demand. cost?",
                                  "LoRA微调Llama-3-8B，1亿token，8张H100，不用竞价，按量计费，多少钱"])
def test_a_negated_billing_mode_is_not_compared(text: str) -> None:
    parsed = parse_question(text)
    assert parsed.intent == "estimate_training_cost" and parsed.args.get("billing") == "on_demand"


@pytest.mark.parametrize(("text", "per_day", "gpu"), [
    ("部署Qwen2.5-72B推理服务，每天5000万token，用H20", 5e7, "H20"),
    ("上线一个qwen2.5-14b客服机器人，日均大概3000万token，用L40S，一个月多少钱", 3e7, "L40S"),
    ("Serving llama-3.1-8b at 20M tokens per day on A10s — monthly cost?", 2e7, "A10"),
])
def test_serving_is_priced_as_serving(text: str, per_day: float, gpu: str) -> None:
    r = ask(text, offline=True)
    assert r.intent == "estimate_serving_cost"
    args = r.tool_calls[0].args
    assert args["tokens_per_day"] == per_day and args["gpu"] == gpu


@pytest.mark.parametrize(("text", "price", "unit", "term"), [
    ("$2.10/GPU-hour for H100 on a 12-month commitment, good deal?", 2.1, "gpu_hour", 12),
    ("A800单卡包月报价4500元，签一年，合理吗？", 4500, "gpu_month", 12),
    ("Vendor quotes H800 at $1,900 per GPU per month, 6-month term. Fair?", 1900, "gpu_month", 6),
])
def test_a_quote_is_checked_in_its_own_unit(text: str, price: float, unit: str, term: float) -> None:
    r = ask(text, offline=True)
    args = r.tool_calls[0].args
    assert r.intent == "check_quote" and (args["price"], args["unit"], args["term_months"]) == (price, unit, term)
    assert mark(r.lang) in r.answer.split("\n\n")[2]


@pytest.mark.parametrize(("text", "jobs", "hours", "increment"), [
    ("500 jobs of 20 minutes on 8 A100s, billed by the hour — how much overpay vs per-second?", 500, 1 / 3, "hour"),
    ("每天300个任务，每个15分钟，每个任务2张L40S，按小时计费，多花多少钱", 300, 0.25, "hour"),
    ("Our provider rounds every job up to the minute: 2,000 jobs of 90 seconds on one H100. Cost of rounding?", 2000, 0.025, "minute"),
])
def test_many_short_jobs_are_a_billing_increment_question(text: str, jobs: int, hours: float, increment: str) -> None:
    parsed = parse_question(text)
    assert parsed.intent == "compare_billing"
    assert parsed.args["jobs"] == jobs and parsed.args["job_hours"] == pytest.approx(hours) and parsed.args["increment"] == increment


def test_a_multi_part_plan_keeps_every_stage_with_its_own_hardware() -> None:
    for text in ("Stage costs please: validation on-demand 8 H100, pretraining monthly on 256 H100, fine-tuning on-demand 32 H100. Our model is 30B.",
                 "分阶段算：验证用8张H100按量，预训练包月256张H100，微调按量32张H100，模型30B"):
        stages = parse_question(text).args["stages"]
        assert [(s["stage"], s.get("gpu_count"), s.get("billing")) for s in stages] == [
            ("validation", 8, "on_demand"), ("pretrain", 256, "monthly"), ("finetune", 32, "on_demand")]


def test_plan_stages_carry_their_own_data() -> None:
    args = parse_question("plan for qwen2.5-14b: validation on 8x A100, then full FT on 300M tokens, then serve 5M tokens/day for 90 days").args
    assert (args["finetune_tokens_b"], args["finetune_method"], args["serving_tokens_per_day"], args["serving_days"]) == (0.3, "full", 5e6, 90)


@pytest.mark.parametrize(("follow", "count"), [("卡数翻倍呢？", 16), ("with twice the GPUs?", 16), ("4张呢", 4), ("what about 4 cards?", 4),
                                               ("减半呢，卡数", 4)])
def test_a_count_follow_up_changes_the_count_and_says_so(follow: str, count: int) -> None:
    first = ask("LoRA微调Llama-3-8B，1亿token，8张A100，多少钱" if "卡" in follow or "张" in follow
                else "LoRA fine-tune Llama-3-8B on 100M tokens with 8 A100s, cost?", offline=True)
    second = ask(follow, history=first.history, offline=True)
    a, b = first.tool_calls[0].args, second.tool_calls[0].args
    assert b["gpu_count"] == count and b["model"] == a["model"] and b["tokens_b"] == a["tokens_b"]
    assert ("GPUs" if second.lang == "en" else "卡数") in second.answer.split("\n\n")[2]


def test_a_currency_follow_up_converts_and_names_the_sheet() -> None:
    first = ask("LoRA fine-tune Llama-3-8B on 100M tokens with 8 H100s, how much?", offline=True)
    shown = ask("show it in CNY", history=first.history, offline=True)
    local = ask("用国内价格呢？", history=first.history, offline=True)
    assert shown.tool_calls[0].args["currency"] == "CNY" and shown.tool_calls[0].args["market"] == "convert"
    assert local.tool_calls[0].args["currency"] == "CNY" and local.tool_calls[0].args["market"] == "local"
    assert shown.tool_calls[0].args["model"] == first.tool_calls[0].args["model"]
    assert "CNY" in shown.answer.split("\n\n")[0]


@pytest.mark.parametrize(("vague", "answer"), [("想微调个模型，大概多少钱", "Llama3 8B，2万条数据，每条500 token"),
                                               ("how much would a fine-tune cost?", "qwen2.5-7b, 30k samples of 800 tokens, LoRA")])
def test_a_clarification_keeps_the_job(vague: str, answer: str) -> None:
    r = ask(vague, offline=True)
    assert r.intent == "clarify"
    r2 = ask(answer, history=r.history, offline=True)
    assert r2.tool_calls and r2.tool_calls[0].name == "estimate_training_cost" and r2.tool_calls[0].result is not None


@pytest.mark.parametrize("text", ["Is 8×H100 overkill for LoRA on llama-3.2-3b with 30k samples x 512 tokens?",
                                  "8张A100跑llama-3-8b全参微调，1亿token，3天内能跑完吗？",
                                  "LoRA微调Qwen2.5-7B，5万条样本，单张4090够不够？",
                                  "We have a $500 budget: LoRA qwen2.5-7b on 50M tokens with 8 A100s. Are we within budget?"])
def test_a_yes_no_question_gets_a_verdict_first(text: str) -> None:
    r = ask(text, offline=True)
    paragraphs = r.answer.split("\n\n")
    verdicts = [i for i, p in enumerate(paragraphs) if p.startswith(mark(r.lang))]
    assert verdicts and verdicts[0] <= 2, r.answer[:400]
    assert any(w in paragraphs[verdicts[0]] for w in ("Yes", "No", "可以", "不行", "够", "不够", "来得及", "来不及", "是的", "不算", "跑得动", "放不下"))


def test_out_of_scope_is_said_in_one_line() -> None:
    for text in ("How much does a Microsoft 365 E5 seat cost for 200 employees?", "帮我写一首关于春天的诗"):
        r = ask(text, offline=True)
        assert r.intent == "out_of_scope" and not r.tool_calls
