"""Quote checks read from the structure of the question (a price for a card and a yes/no about it),
in any unit (per card-hour, card-month, node-hour, node-month) and with a minimum term; a fleet
count never divides a per-card price; a fine-tune followed by a daily load is a two-stage plan."""

from __future__ import annotations

import pytest

from advisor.assistant.offline import parse_question
from advisor.tools import check_quote


@pytest.mark.parametrize(("text", "price", "unit", "count"), [
    ("矩池云 A100 40G 一小时 4.5，是不是贵了", 4.5, "gpu_hour", 1),
    ("autodl 4090 现在 1.88/小时，算便宜吗", 1.88, "gpu_hour", 1),
    ("is 0.39 USD/hr for a 4090 a good price?", 0.39, "gpu_hour", 1),
    ("Is $18/hr for an 8xA100 node reasonable?", 18, "node_hour", 8),
    ("整机每小时 90 元，8卡 A800，贵不贵", 90, "node_hour", 8),
    ("A800 8卡整机包月报价 5.2 万，要签 12 个月，合理吗", 52000, "node_month", 8),
    ("8x H200 node, $28,000 per month, 6-month term. Is this competitive?", 28000, "node_month", 8),
    ("有家IDC给H20 每卡时 7.5 块，64卡，半年起租，帮看看这报价行不行", 7.5, "gpu_hour", 64),
    ("Vendor pitch: 16x A100 40GB at $1.10 per GPU-hour, 3 month minimum. good or bad?", 1.1, "gpu_hour", 16),
    ("A800单卡包月报价4500元，签12个月，合理吗？", 4500, "gpu_month", 1),
])  # fmt: skip
def test_a_price_for_a_card_with_a_yes_no_is_a_quote_check(text: str, price: float, unit: str, count: int) -> None:
    r = parse_question(text)
    assert r.intent == "check_quote", (r.intent, r.args)
    assert r.args["price"] == pytest.approx(price) and r.args["unit"] == unit
    # the cards quoted: as stated, else check_quote's own default (one card, one node)
    priced = check_quote(gpu=r.args["gpu"], price=r.args["price"], unit=r.args["unit"], gpu_count=r.args.get("gpu_count"))
    assert priced.inputs["gpu_count"] == count


@pytest.mark.parametrize(("text", "months"), [
    ("H20 每卡时 7.5 块，半年起租，行不行", 6), ("H100每卡时12元，3个月起签，合理吗", 3), ("A800 每卡每月4000，最少租6个月，贵吗", 6),
    ("$2.10 per H100-hour on a 12-month commitment, good deal?", 12),
])  # fmt: skip
def test_a_minimum_term_is_the_quote_term(text: str, months: float) -> None:
    assert parse_question(text).args["term_months"] == pytest.approx(months)


@pytest.mark.parametrize("n", [1, 8, 64])
def test_a_fleet_count_never_divides_a_per_card_price(n: int) -> None:
    one = check_quote(gpu="A100", price=1.5, unit="gpu_hour")
    many = check_quote(gpu="A100", price=1.5, unit="gpu_hour", gpu_count=n)
    assert many.price_per_gpu_hour == pytest.approx(one.price_per_gpu_hour) == pytest.approx(1.5)
    assert many.monthly_total == pytest.approx(one.monthly_total * n)


def test_a_node_hour_price_is_shared_by_the_node_cards() -> None:
    node = check_quote(gpu="A100", price=12.0, unit="node_hour")
    assert node.price_per_gpu_hour == pytest.approx(1.5) and node.inputs["gpu_count"] == 8
    assert check_quote(gpu="A100", price=8.0, unit="node_hour", gpu_count=4).price_per_gpu_hour == pytest.approx(2.0)


@pytest.mark.parametrize(("text", "tokens_b", "per_day", "days"), [
    ("小团队做法律问答，qwen3-8b，先qlora 2000万token，然后每天100万token跑3个月，总预算5万够吗", 0.02, 1e6, 90),
    ("立项要报预算：llama-3.1-70b lora 微调2亿token，服务期6个月每天3000万token，总共多少钱", 0.2, 3e7, 180),
    ("fine-tune llama-3-8b with lora on 50M tokens, then 2M tokens a day for 3 months, total?", 0.05, 2e6, 90),
    ("end-to-end estimate for gemma-2-9b: lora on 20M tokens + serving 5M tokens a day for a month, using L4s", 0.02, 5e6, 30),
])  # fmt: skip
def test_a_fine_tune_then_a_daily_load_is_a_two_stage_plan(text: str, tokens_b: float, per_day: float, days: float) -> None:
    r = parse_question(text)
    assert r.intent == "plan_project"
    assert [s["stage"] for s in r.args["stages"]] == ["finetune", "serving"]
    assert r.args["finetune_tokens_b"] == pytest.approx(tokens_b)
    assert r.args["serving_tokens_per_day"] == pytest.approx(per_day) and r.args["serving_days"] == pytest.approx(days)


@pytest.mark.parametrize("word", ["qlora", "lora", "llama"])
def test_a_word_ending_in_a_is_not_a_rate_unit(word: str) -> None:
    r = parse_question(f"微调 qwen2.5-7b，用{word} 2000万token，多少钱")
    assert r.args.get("tokens_b") == pytest.approx(0.02) or r.args.get("dataset_tokens_b") == pytest.approx(0.02)


@pytest.mark.parametrize(("text", "jobs", "hours"), [
    ("我们的微调任务一次大概 2.5 小时，一周跑 10 次，A800 8卡，按任务计费 vs 按小时计费各多少", 10, 2.5),
    ("200 sweep jobs, ~12 minutes each, 1 A100 each. per-second vs per-hour billing — what's the difference?", 200, 0.2),
    ("each of my runs takes an hour and a half on one T4 and I do 30 runs. hourly vs per-minute billing?", 30, 1.5),
    ("500个任务，每个20分钟，A100，按小时计费亏多少", 500, 1 / 3),
    ("40 training runs of 45 minutes on 8 H100s, billed by the hour: how much is wasted?", 40, 0.75),
])  # fmt: skip
def test_many_short_jobs_and_their_length(text: str, jobs: int, hours: float) -> None:
    r = parse_question(text)
    assert r.intent == "compare_billing"
    assert r.args["jobs"] == jobs and r.args["job_hours"] == pytest.approx(hours, rel=1e-3)


@pytest.mark.parametrize("text", [
    "The MSA excludes 'software licenses, NVIDIA AI Enterprise and premium support' from the rate. What hidden costs should I flag?",
    "合同里写“平台可随时调整价格，不另行通知”，要注意什么",
    "Our agreement says 'unused hours expire at the end of each month'. Anything to push back on?",
])  # fmt: skip
def test_a_quoted_term_of_a_named_contract_is_reviewed(text: str) -> None:
    r = parse_question(text)
    assert r.intent == "review_contract" and r.args["text"]


@pytest.mark.parametrize("text", ["What does 'take-or-pay' mean in a contract?", "合同里的“保底消费”是什么意思"])
def test_asking_what_a_quoted_contract_term_means_is_a_knowledge_question(text: str) -> None:
    assert parse_question(text).intent == "search_knowledge"
