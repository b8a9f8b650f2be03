"""Quantities and names read as classes, not sentences: card names with their variants and form
factors, cards per machine × machines, per-card vs per-machine prices, the training method and the
commitment term — each varied in wording, values and language."""

from __future__ import annotations

import pytest

from advisor.assistant import ask
from advisor.assistant.offline import parse_question

pytestmark = pytest.mark.usefixtures("clean_llm_env")

JOB = {"zh": "做 lora 微调 qwen2.5-7b，1亿token，多少钱", "en": "LoRA fine-tune qwen2.5-7b on 100M tokens, cost?"}


@pytest.mark.parametrize(("written", "gpu"), [
    ("A100 80G", "A100-80GB"), ("a100-80gb", "A100-80GB"), ("A100-SXM4-40GB", "A100-40GB"), ("h100sxm", "H100-SXM"),
    ("H100 80GB SXM5", "H100-SXM"), ("H800 PCIe", "H800"), ("昇腾910B", "Ascend-910B"), ("910B", "Ascend-910B"),
    ("L20", "L20"), ("RTX4090", "RTX-4090"), ("4090D", "RTX-4090"), ("4090 D", "RTX-4090"), ("3090Ti", "RTX-3090"),
    ("rtx 3090 ti", "RTX-3090"), ("H20 96G", "H20"), ("A800-80G", "A800-80GB"),
])  # fmt: skip
@pytest.mark.parametrize(("count", "n"), [("{g} x8", 8), ("8张 {g}", 8), ("{g} 两张", 2), ("{g} 16卡", 16), ("4× {g}", 4)])
def test_card_names_with_variants_keep_their_count(written: str, gpu: str, count: str, n: int) -> None:
    args = parse_question(f"{count.format(g=written)}，{JOB['zh']}").args
    assert (args.get("gpu"), args.get("gpu_count")) == (gpu, n), args


def test_a_variant_the_catalog_does_not_list_is_said_in_the_answer() -> None:
    for text, word in (("4090D 单卡 qlora qwen2.5-7b 2000万token 多少钱", "4090D"),
                       ("two 3090 Ti, LoRA llama-3-8b on 50M tokens, cost?", "3090 Ti")):
        r = ask(text, offline=True)
        assert r.tool_calls[0].args["gpu"] in ("RTX-4090", "RTX-3090")
        assumed = next(p for p in r.answer.split("\n\n") if p.startswith(("**Assumed:**", "**假设：**")))
        assert word in assumed


@pytest.mark.parametrize("name", ["Z9000", "MI999", "X1000", "GX-480", "tpu77"])
@pytest.mark.parametrize(("pattern", "lang"), [
    ("用 {g} 卡，{job}", "zh"), ("租 8 张 {g} 显卡，{job}", "zh"), ("{g}卡 {job}", "zh"),
    ("{job} On {g} GPUs.", "en"), ("{job} We have 16 {g} cards.", "en"),
])  # fmt: skip
def test_an_unknown_card_name_is_refused_by_name_never_priced_as_a_default_card(name: str, pattern: str, lang: str) -> None:
    r = ask(pattern.format(g=name, job=JOB[lang]), offline=True, lang=lang)
    call = r.tool_calls[0]
    assert call.error and call.result is None, call
    assert name.upper() in str(call.args.get("gpu")).upper()
    assert call.args.get("gpu_count") in (None, 8, 16)  # the digits of the name are never a card count


@pytest.mark.parametrize("n", [3090, 4090, 910])
@pytest.mark.parametrize("unit", ["条样本", " tokens", " 元", "小时", " steps", "万token"])
def test_a_number_with_a_quantity_unit_is_never_a_card(n: int, unit: str) -> None:
    args = parse_question(f"A100 8卡 lora qwen2.5-7b，{n}{unit}，多少钱").args
    assert args.get("gpu") == "A100-80GB", args


@pytest.mark.parametrize(("text", "n"), [
    ("每台8张{g}，共4台，{job}", 32), ("每个节点 8 张 {g}，一共 2 个节点，{job}", 16), ("{g} 每台 4 卡，3 台，{job}", 12),
    ("一台8卡{g}机器，{job}", 8), ("两台8卡{g}，{job}", 16), ("租了三台 8 卡的 {g} 服务器，{job}", 24),
    ("共16张{g}，每台8张，2台，{job}", 16),
    ("4 nodes, 8 {g} each, {job}", 32), ("8 {g} per node, 2 nodes, {job}", 16), ("two 8-GPU {g} nodes, {job}", 16),
    ("3 x 8-GPU {g} servers, {job}", 24), ("a single 8x{g} node, {job}", 8),
])  # fmt: skip
@pytest.mark.parametrize("gpu", ["A100", "H800"])
def test_cards_per_machine_times_machines(text: str, n: int, gpu: str) -> None:
    lang = "en" if text[0].isascii() else "zh"
    args = parse_question(text.format(g=gpu, job=JOB[lang])).args
    assert args.get("gpu_count") == n, args


@pytest.mark.parametrize(("text", "n", "share"), [
    ("{g} 单卡每小时 {p} 元，8卡，{job}", 8, 1.0), ("{g} 每张卡每小时 {p} 元，16 张，{job}", 16, 1.0),
    ("{g} 一卡每小时 {p} 块，4卡，{job}", 4, 1.0),
    ("8卡机每小时 {p} 元，{g}，{job}", 8, 1 / 8), ("{g} 整机每小时 {p} 元，{job}", 8, 1 / 8),
    ("an 8x{g} node at ${p}/hour, {job}", 8, 1 / 8), ("8 {g}s at ${p} per GPU-hour, {job}", 8, 1.0),
    ("16 {g} at ${p} per card per hour, {job}", 16, 1.0),
])  # fmt: skip
@pytest.mark.parametrize("price", [8, 12.5])
def test_per_card_and_per_machine_prices(text: str, n: int, share: float, price: float) -> None:
    lang = "en" if text[0].isascii() else "zh"
    args = parse_question(text.format(g="A100", p=price, job=JOB[lang])).args
    assert args.get("gpu_count") == n, args
    assert args.get("price_per_gpu_hour") == pytest.approx(price * share), args


@pytest.mark.parametrize(("words", "method"), [
    ("全参", "full"), ("全量微调", "full"), ("全参数 SFT", "full"), ("full fine-tune", "full"), ("with full params", "full"),
    ("training all parameters", "full"), ("LoRA", "lora"), ("lora微调", "lora"), ("QLoRA", "qlora"), ("4bit 量化微调", "qlora"),
    ("int4 fine-tuning", "qlora"), ("continued pre-training", "pretrain"), ("继续预训练", "pretrain"), ("增量预训练", "pretrain"),
])  # fmt: skip
@pytest.mark.parametrize(("lead", "tail"), [("{m} llama-3-8b", "8 H100, 100M tokens, cost?"),
                                            ("qwen2.5-7b 做{m}", "8张A100，1亿token，多少钱")])
def test_method_words(words: str, method: str, lead: str, tail: str) -> None:
    args = parse_question(f"{lead.format(m=words)}, {tail}").args
    assert args.get("method") == method, args


@pytest.mark.parametrize(("text", "lang", "said"), [
    ("SFT qwen2.5-7b on 8 A100 for 100M tokens, cost?", "en", "full fine-tune"),
    ("qwen2.5-7b 做 DPO 对齐，8张A100，5000万token，多少钱", "zh", "全参微调"),
])
def test_a_method_not_given_is_stated_as_assumed(text: str, lang: str, said: str) -> None:
    answer = ask(text, offline=True).answer
    assumed = next(p for p in answer.split("\n\n") if p.startswith(("**Assumed:**", "**假设：**")))
    assert said in assumed


@pytest.mark.parametrize(("term", "months"), [
    ("签一年", 12), ("签 24 个月", 24), ("一年期合同", 12), ("三个月的合同", 3), ("半年合同", 6), ("两年租期", 24), ("包年", 12),
    ("on a 12-month commitment", 12), ("with an annual commitment", 12), ("1-year term", 12), ("sign for two years", 24),
    ("6 month minimum", 6),
])  # fmt: skip
@pytest.mark.parametrize(("gpu", "price"), [("H100", 2.1), ("H20", 7.5)])
def test_commitment_terms_of_a_quote(term: str, months: int, gpu: str, price: float) -> None:
    text = (f"{gpu} 每卡每小时 {price} 元，{term}，贵不贵" if not term[0].isascii() else
            f"{gpu} at ${price} per GPU-hour {term}, good deal?")
    args = parse_question(text).args
    assert args.get("term_months") == months and args.get("price") == price, args


def test_a_rented_period_is_not_a_term() -> None:
    args = parse_question("H100 reserved for 6 months vs on-demand, 128 GPUs at 80% utilization").args
    assert "term_months" not in args


def _turns(*texts: str):  # noqa: ANN202 - the last parse of a conversation
    previous = None
    for text in texts:
        previous = parse_question(text, previous)
    return previous


@pytest.mark.parametrize(("first", "then", "key", "value"), [
    ("lora 微调 qwen2.5-7b，1亿token，8张A100，多少钱", "卡数翻倍呢", "gpu_count", 16),
    ("lora 微调 qwen2.5-7b，1亿token，8张A100，多少钱", "数据再加一倍呢", "tokens_b", 0.2),
    ("lora 微调 qwen2.5-7b，1亿token，8张A100，多少钱", "换成H800呢", "gpu", "H800"),
    ("lora 微调 qwen2.5-7b，1亿token，8张A100，多少钱", "换成包月", "billing", "monthly"),
    ("lora 微调 qwen2.5-7b，1亿token，8张A100，多少钱", "用2台服务器呢", "gpu_count", 16),
    ("LoRA llama-3-8b on 200M tokens with 8 H100, cost?", "what about H800?", "gpu", "H800"),
    ("LoRA llama-3-8b on 200M tokens with 8 H100, cost?", "with twice the GPUs?", "gpu_count", 16),
    ("LoRA llama-3-8b on 200M tokens with 8 H100, cost?", "what if we use 3 nodes?", "gpu_count", 24),
    ("LoRA llama-3-8b on 200M tokens with 8 H100, cost?", "make it full fine-tuning", "method", "full"),
])  # fmt: skip
def test_follow_ups_keep_the_job_and_change_one_slot(first: str, then: str, key: str, value: object) -> None:
    before, after = _turns(first).args, _turns(first, then).args
    assert after.get(key) == value, after
    assert after.get("model") == before.get("model") and (key == "tokens_b" or after.get("tokens_b") == before.get("tokens_b"))


@pytest.mark.parametrize(("first", "currency"), [("H100 每卡每小时 2.1 美元，签一年，合理吗", "USD"),
                                                ("Is ¥15 per GPU-hour for an H100 fair?", "CNY")])
def test_a_quote_keeps_its_currency_when_the_card_changes(first: str, currency: str) -> None:
    args = _turns(first, "那 H800 呢" if currency == "USD" else "what about an H800?").args
    assert (args.get("gpu"), args.get("currency")) == ("H800", currency), args


@pytest.mark.parametrize(("schedule", "hours", "days"), [
    ("每天跑 6 小时，跑一个月", 6, 30), ("每天 8 小时，每周 5 天，跑 4 周", 8, 20), ("工作日每天10小时，跑两周", 10, 10),
    ("工作日22天，一天10小时", 10, 22), ("4 hours a day for 3 weeks", 4, 21), ("8 h a day, 5 days a week, for 4 weeks", 8, 20),
    ("10 hours a day on weekdays for a month", 10, 30 * 5 / 7),
])  # fmt: skip
def test_hours_a_day_times_days_of_use(schedule: str, hours: float, days: float) -> None:
    from advisor.tools.billing import CompareBillingRequest

    text = f"一张4090，{schedule}，按量还是包月？" if not schedule[0].isascii() else f"one 4090, {schedule}, on-demand or monthly?"
    args = parse_question(text).args
    assert args.get("hours_per_day") == hours and CompareBillingRequest(**args).usage()[0] == pytest.approx(days * hours, rel=1e-4), args


@pytest.mark.parametrize(("text", "word"), [
    ("full fine-tune llama-3-8b on 1B tokens on 8 H100, must finish by Friday, what does it cost?", "by Friday"),
    ("lora qwen2.5-7b 1亿token，周五前要出结果，4张A100多少钱", "周五前"),
    ("lora qwen2.5-7b 1亿token，明天早上之前要出结果，4张A100多少钱", "明天早上之前"),
])
def test_a_deadline_named_by_a_date_is_stated_not_guessed(text: str, word: str) -> None:
    r = ask(text, offline=True)
    assert "deadline_hours" not in r.tool_calls[0].args
    assumed = next(p for p in r.answer.split("\n\n") if p.startswith(("**Assumed:**", "**假设：**")))
    assert word in assumed


@pytest.mark.parametrize("form", ["每小时一卡按 {p} 元", "每卡每小时 {p} 元", "单卡每小时 {p} 元", "每小时每卡 {p} 块"])
def test_a_per_card_price_written_unit_first(form: str) -> None:
    args = parse_question(f"128 卡 A100，lora qwen2.5-7b 1亿token，{form.format(p=9)}，总成本？").args
    assert (args.get("gpu_count"), args.get("price_per_gpu_hour")) == (128, 9), args


@pytest.mark.parametrize(("text", "gpu"), [
    ("If we don't use H100s but H20s instead — LoRA qwen2.5-32b, 50M tokens, 8 GPUs — what's the bill?", "H20"),
    ("We won't use A100, we'll use L40S: LoRA llama-3-8b 100M tokens on 8 cards, cost?", "L40S"),
    ("Instead of A100s, use L40S: LoRA llama-3-8b 100M tokens on 8 cards, cost?", "L40S"),
    ("不用H100，改用8张H20，lora qwen2.5-32b 5000万token，多少钱", "H20"),
    ("把 A100 换成 H100，16 卡，lora qwen2.5-72b 1亿 token 要多少", "H100-SXM"),
])
def test_the_card_not_used_is_not_the_card_priced(text: str, gpu: str) -> None:
    args = parse_question(text).args
    assert args.get("gpu") == gpu and "gpus" not in args, args


@pytest.mark.parametrize(("text", "stages"), [
    ("Phase 1: pretrain 7B on 1T tokens (512 H100, monthly). Phase 2: SFT 500M tokens (64 H100, on-demand). "
     "Phase 3: serve 100M tokens/day for a year. Total?",
     [{"stage": "pretrain", "gpu_count": 512, "billing": "monthly", "tokens_b": 1000},
      {"stage": "finetune", "gpu_count": 64, "billing": "on_demand", "tokens_b": 0.5}, {"stage": "serving", "days": 365}]),
    ("第一阶段：验证，4张4090按量；第二阶段：qwen2.5-7b 全参微调 2亿token，8张A800包月；第三阶段：上线推理，每天1000万token，跑半年",
     [{"stage": "validation", "gpu": "RTX-4090", "gpu_count": 4, "billing": "on_demand"},
      {"stage": "finetune", "gpu": "A800-80GB", "gpu_count": 8, "billing": "monthly", "tokens_b": 0.2, "method": "full"},
      {"stage": "serving", "tokens_per_day": 1e7, "days": 180}]),
    ("先用8张A100做验证，然后在128张H800上预训练一个7B模型1000亿token，最后用32张H800全参微调5亿token，分阶段算成本",
     [{"stage": "validation", "gpu": "A100-80GB", "gpu_count": 8}, {"stage": "pretrain", "gpu": "H800", "gpu_count": 128, "tokens_b": 100},
      {"stage": "finetune", "gpu": "H800", "gpu_count": 32, "tokens_b": 0.5, "method": "full"}]),
])  # fmt: skip
def test_each_stage_keeps_its_own_cards_billing_and_data(text: str, stages: list[dict[str, object]]) -> None:
    got = parse_question(text).args["stages"]
    assert len(got) == len(stages), got
    for want, have in zip(stages, got, strict=True):
        assert {k: have.get(k) for k in want} == pytest.approx(want), got


@pytest.mark.parametrize(("check", "days"), [("验证用{n}张A100跑{d}天", None), ("pilot on {n} A100 for {d} days", None)])
@pytest.mark.parametrize(("n", "d"), [(8, 3), (4, 2)])
@pytest.mark.parametrize(("main", "deadline"), [
    ("然后在64张H800上预训练7B 1000亿token", None), ("then pretrain a 7B on 100B tokens on 64 H800 in 30 days", 720),
    ("再用 64 张 H800 预训练 7B 1000亿token，30天内完成", 720),
])  # fmt: skip
def test_a_stage_keeps_its_duration_and_is_priced(check: str, days: object, n: int, d: int, main: str, deadline: float | None) -> None:
    text = f"{check.format(n=n, d=d)}，{main}，分阶段算成本"
    r = ask(text, offline=True)
    call = r.tool_calls[0]
    assert call.name == "plan_project" and call.result, (call.args, call.error)
    validation, pretrain = call.args["stages"][:2]
    assert (validation["gpu_count"], validation["months"]) == (n, pytest.approx(d * 24 / 730, rel=1e-3)), validation
    assert (pretrain["gpu"], pretrain["gpu_count"], pretrain.get("deadline_hours")) == ("H800", 64, deadline), pretrain
    assert [s["stage"] for s in call.result["stages"]][:2] == ["validation", "pretrain"]


@pytest.mark.parametrize(("words", "lang"), [("数据标注", "zh"), ("人工评测", "zh"), ("data labelling", "en"), ("human evaluation", "en")])
def test_a_plan_part_no_tool_prices_is_named_as_not_priced(words: str, lang: str) -> None:
    text = {"zh": f"qwen2.5-7b 项目：先 {words}，再 lora 微调 5000万 token，然后上线每天 100 万 token 跑 3 个月，总共多少钱",
            "en": f"qwen2.5-7b project: {words} first, then LoRA on 50M tokens, then serve 1M tokens a day for 3 months. total?"}[lang]
    r = ask(text, offline=True)
    assert r.tool_calls[0].name == "plan_project" and r.tool_calls[0].result
    assumed = next(p for p in r.answer.split("\n\n") if p.startswith(("**Assumed:**", "**假设：**")))
    assert words in assumed and ("Not priced" in assumed or "未计价" in assumed), assumed


@pytest.mark.parametrize(("text", "gpu"), [
    ("先预训练 1000亿token，再微调，最后上线，一个7B模型，全程用 H800，分阶段报价", "H800"),
    ("pretrain a 7B on 100B tokens, then fine-tune, then serve 5M tokens a day; H100 throughout. cost per stage?", "H100-SXM"),
])
def test_a_card_for_the_whole_plan_is_not_the_last_stage_s(text: str, gpu: str) -> None:
    args = parse_question(text).args
    assert args.get("gpu") == gpu and not any(s.get("gpu") for s in args.get("stages") or [] if isinstance(s, dict)), args


def test_full_pretraining_is_not_a_full_fine_tune() -> None:
    args = parse_question("项目分三步：先小规模试跑，再全量预训练 13B 3000亿token，最后 SFT 2亿 token，给个分阶段预算").args
    assert args.get("pretrain_tokens_b") == 300 and args.get("finetune_method") != "full", args


@pytest.mark.parametrize(("words", "want"), [
    ("lora rank 64 on q,k,v,o", {"lora_rank": 64, "lora_targets": "attention"}),
    ("lora r=16，只训 attention 层", {"lora_rank": 16, "lora_targets": "attention"}),
    ("LoRA 秩为 8，所有线性层", {"lora_rank": 8, "lora_targets": "all_linear"}),
    ("LoRA with rank 32 on all linear layers", {"lora_rank": 32, "lora_targets": "all_linear"}),
    ("lora，训练完要下载 500GB 模型", {"egress_gb": 500}), ("LoRA, plus 2 TB egress", {"egress_gb": 2000}),
    ("LoRA, plus $800 for support", {"support_cost": 800}), ("lora，另外技术支持 3000 元", {"support_cost": 3000}),
    ("lora，任务可以被打断", {"interruptible": True}), ("LoRA, the job can be interrupted", {"interruptible": True}),
])  # fmt: skip
def test_adapter_and_hidden_cost_words(words: str, want: dict[str, object]) -> None:
    tail = "llama-3-8b, 100M tokens, 8 A100, total cost?" if words[0].isascii() and words[1].isascii() else "qwen2.5-7b 1亿token 8张A100，总共多少钱"
    args = parse_question(f"{words}, {tail}").args
    assert {k: args.get(k) for k in want} == want, args


@pytest.mark.parametrize(("text", "want"), [
    ("30% 的任务可以放到夜间跑，夜间打 5 折，8张4090 一个月，怎么计费最省", {"offpeak_share": 0.3, "offpeak_discount": 0.5}),
    ("half of the jobs can run overnight at 40% off, 8 A100 for a month, billing?", {"offpeak_share": 0.5, "offpeak_discount": 0.4}),
    ("200 个实验，每个跑 15 分钟，A100 按小时计费 vs 按分钟", {"jobs": 200, "job_hours": 0.25, "increment": "hour"}),
    ("300 jobs at 45 min each on an H100, hourly billing vs per-minute?", {"jobs": 300, "job_hours": 0.75}),
    ("买 8 张 4090 用 3 年，利用率 60%，还是租划算", {"years": 3, "utilization": 0.6}),
])  # fmt: skip
def test_billing_and_ownership_quantities(text: str, want: dict[str, object]) -> None:
    args = parse_question(text).args
    assert {k: args.get(k) for k in want} == pytest.approx(want), args


@pytest.mark.parametrize(("text", "want"), [
    ("H100 每卡每月 1.2 万，一签就是两年，值吗", {"price": 12000, "unit": "gpu_month", "term_months": 24}),
    ("L40S 每卡每月 3800，租期一年，合理吗", {"price": 3800, "unit": "gpu_month", "term_months": 12}),
    ("H100 $2.1/hr, minimum term 6 months. ok?", {"price": 2.1, "unit": "gpu_hour", "term_months": 6}),
    ("multi-year (3 yrs) commitment for H100 at $1.7/GPU-hour — good deal?", {"price": 1.7, "term_months": 36}),
    ("An 8xH100 node for $25,000 a month — competitive?", {"price": 25000, "unit": "node_month", "gpu_count": 8}),
    ("H100 8-GPU server $28/h, reasonable?", {"price": 28, "unit": "node_hour", "gpu_count": 8}),
    ("H100 for $2,000/GPU/month — ok?", {"price": 2000, "unit": "gpu_month"}),
    ("4090 一天 40 块，值吗", {"unit": "gpu_hour"}),
])  # fmt: skip
def test_quotes_in_their_own_unit_and_term(text: str, want: dict[str, object]) -> None:
    p = parse_question(text)
    assert p.intent == "check_quote" and {k: p.args.get(k) for k in want} == pytest.approx(want), p.args


def test_a_price_per_card_day_is_not_a_price_per_hour() -> None:
    assert parse_question("4090 一天 40 块，值吗").args.get("price") == pytest.approx(40 / 24)


@pytest.mark.parametrize(("text", "want"), [
    ("qlora qwen2.5-7b，10w 条样本，平均长度 512，单卡 4090", {"samples": 100000, "tokens_per_sample": 512}),
    ("lora qwen2.5-7b, 50k examples, average length 1200, 8 A100, cost?", {"samples": 50000, "tokens_per_sample": 1200}),
    ("训练一个 MoE 模型，总参数 47B，激活 13B，1000亿token，64张H800", {"params_b": 47, "active_params_b": 13}),
    ("GPUs sit idle ~30 hours between runs, 8xA100 lora llama-3-8b 100M tokens, total incl idle?", {"idle_wait_hours": 30}),
    ("the cards stay idle for 12 hours waiting on evals; LoRA llama-3-8b 100M tokens on 8 H100, total?", {"idle_wait_hours": 12}),
])  # fmt: skip
def test_sample_lengths_active_parameters_and_idle_waits(text: str, want: dict[str, object]) -> None:
    args = parse_question(text).args
    assert {k: args.get(k) for k in want} == pytest.approx(want), args


@pytest.mark.parametrize(("text", "want"), [
    ("serve llama-3.1-8b at 2M requests a day, 500 output tokens each, on L4s, monthly cost?",
     {"requests_per_day": 2e6, "output_tokens": 500}),
    ("chatbot on llama-3.1-8b: 300k calls per day, 2k prompt tokens and 250 output tokens per request, on L4, cost?",
     {"requests_per_day": 3e5, "prompt_tokens": 2000, "output_tokens": 250}),
    ("qwen2.5-7b 客服机器人，日均请求 50 万次，每次输入 1000 token、输出 200 token，L4 够吗",
     {"requests_per_day": 5e5, "prompt_tokens": 1000, "output_tokens": 200}),
    ("部署 qwen2.5-7b，每天 3 万次调用，每次回复约 400 token，用 A10 多少钱", {"requests_per_day": 3e4, "output_tokens": 400}),
])  # fmt: skip
def test_a_serving_load_counted_in_requests(text: str, want: dict[str, object]) -> None:
    p = parse_question(text)
    assert p.intent == "estimate_serving_cost" and {k: p.args.get(k) for k in want} == pytest.approx(want), p.args


@pytest.mark.parametrize(("users", "each", "n"), [
    ("日活 1 万", "每人每天 20 次对话", 2e5), ("DAU 5000", "人均 8 次", 4e4), ("3 万用户", "每个用户每天问 4 次", 1.2e5),
    ("20k daily active users", "each sending 15 requests a day", 3e5), ("5000 users", "30 requests per user per day", 1.5e5),
    ("DAU of 2,000", "each user makes 12 requests", 2.4e4),
])  # fmt: skip
def test_daily_users_times_requests_per_user(users: str, each: str, n: float) -> None:
    text = f"qwen2.5-32b 上线，{users}，{each}，每次输出 800 token，用 4090 要几张"
    args = parse_question(text).args
    assert args.get("requests_per_day") == pytest.approx(n), args


@pytest.mark.parametrize(("rate", "per_second"), [
    ("20 QPS", 20), ("QPS 为 5", 5), ("qps of 12", 12), ("50 requests per second", 50), ("6 req/s", 6),
    ("300 requests per minute", 5), ("每秒 8 个请求", 8), ("每分钟 600 次调用", 10), ("峰值 30 qps", 30),
])  # fmt: skip
@pytest.mark.parametrize(("hours", "said"), [("", None), ("，每天高峰 10 小时", 10), (", 8 hours a day", 8)])
def test_a_request_rate_becomes_requests_a_day(rate: str, per_second: float, hours: str, said: float | None) -> None:
    text = f"serve qwen2.5-14b at {rate}{hours}, 400 output tokens each, on L40S, cost?"
    r = ask(text, offline=True)
    assert r.tool_calls[0].name == "estimate_serving_cost" and r.tool_calls[0].result, r.answer
    assert r.tool_calls[0].args["requests_per_day"] == pytest.approx(per_second * 3600 * (said or 24))
    assumed = next((p for p in r.answer.split("\n\n") if p.startswith(("**Assumed:**", "**假设：**"))), "")
    assert any(w in assumed for w in ("Hours of load a day 24", "每天有负载的小时数 24")) == (said is None), assumed


@pytest.mark.parametrize(("words", "precision"), [
    ("int8", "int8"), ("INT4 (AWQ)", "int4"), ("GPTQ 4-bit", "int4"), ("fp8", "fp8"), ("8bit 量化", "int8"), ("w4a16", "int4"),
])  # fmt: skip
@pytest.mark.parametrize("pattern", ["部署 llama-3.1-70b 推理，{w}，每天 5000 万 token，用 L40S", "serve llama-3.1-70b in {w} on L40S, 50M tokens a day"])
def test_a_serving_precision_is_passed_to_the_serving_tool(words: str, precision: str, pattern: str) -> None:
    r = ask(pattern.format(w=words), offline=True)
    call = r.tool_calls[0]
    assert call.name == "estimate_serving_cost" and call.result and call.args["precision"] == precision, call


@pytest.mark.parametrize("words", ["int8", "awq int4", "8-bit"])
def test_a_serving_precision_does_not_break_a_training_estimate(words: str) -> None:
    r = ask(f"lora qwen2.5-7b {words} on 8 A100, 100M tokens, cost?", offline=True)
    assert r.tool_calls[0].result and "precision" not in r.tool_calls[0].args, r.tool_calls[0]


@pytest.mark.parametrize(("share_words", "share"), [
    ("1/10 张 {g}", 0.1), ("半张 {g}", 0.5), ("四分之一张 {g}", 0.25), ("a quarter of an {g}", 0.25), ("half an {g}", 0.5),
    ("1/7 of an {g}", 1 / 7), ("1/2 张 {g} 卡", 0.5), ("a tenth of a {g}", 0.1),
])  # fmt: skip
@pytest.mark.parametrize(("gpu", "gpu_id"), [("4090", "RTX-4090"), ("A100", "A100-80GB")])
def test_a_fraction_of_a_card_is_a_share_never_a_count(share_words: str, share: float, gpu: str, gpu_id: str) -> None:
    text = f"用 {share_words.format(g=gpu)} 跑 qwen2.5-7b 推理，每天 100 万 token"
    p = parse_question(text)
    assert (p.args.get("gpu"), p.args.get("gpu_count")) == (gpu_id, None), p.args
    assert next(n["value"] for n in p.assumptions if n["name"] == "gpu_share") == pytest.approx(share, abs=1e-6)


@pytest.mark.parametrize(("first", "then", "want"), [
    ("Is $2.10/GPU-hour for H100 on a 12-month commitment a good deal?", "what if it's 24 months?", {"term_months": 24, "price": 2.1}),
    ("Is $2.10/GPU-hour for H100 on a 12-month commitment a good deal?", "what about 16 of them?", {"gpu_count": 16, "term_months": 12}),
    ("H100 每卡每小时 2.1 美元，签一年，合理吗", "如果签两年呢", {"term_months": 24}),
    ("H100 每卡每小时 2.1 美元，签一年，合理吗", "那 3 个月呢", {"term_months": 3}),
])  # fmt: skip
def test_a_quote_follow_up_changes_its_term_or_card_count(first: str, then: str, want: dict[str, object]) -> None:
    p = _turns(first, then)
    assert p.intent == "check_quote" and {k: p.args.get(k) for k in want} == pytest.approx(want), p.args


@pytest.mark.parametrize(("text", "months"), [
    ("H100 reserved 1 year at $1.95/hr, good deal?", 12), ("H800 预留一年，每卡时 10 元，划算吗", 12),
    ("We could commit 18 months on H200 at $2.8 per GPU-hour. ok?", 18), ("reserve 2 years of 4090 at 1.5元/小时 合适吗", 24),
    ("A100 at $1.3/hr if we reserve them for 6 months — fair?", 6),
])  # fmt: skip
def test_a_reserved_period_with_a_price_is_the_quote_s_term(text: str, months: float) -> None:
    p = parse_question(text)
    assert p.intent == "check_quote" and p.args.get("term_months") == months, p.args


@pytest.mark.parametrize(("text", "lang", "default"), [
    ("H100 at $2.10/GPU-hour, good deal?", "en", "one card"), ("A100 每卡每小时 6 元，贵吗", "zh", "一张卡"),
    ("Is $18/hr for an A100 node reasonable?", "en", "one node"), ("H100 整机每月 20 万，合理吗", "zh", "一台服务器"),
])  # fmt: skip
def test_a_quote_s_card_count_not_stated_is_the_tool_s_default(text: str, lang: str, default: str) -> None:
    r = ask(text, offline=True)
    call = r.tool_calls[0]
    assert call.name == "check_quote" and call.result and "gpu_count" not in call.args, call.args
    assumed = next(p for p in r.answer.split("\n\n") if p.startswith(("**Assumed:**", "**假设：**")))
    assert default in assumed and "your input" not in assumed and "你的输入" not in assumed, assumed


@pytest.mark.parametrize("before", ["长度 4096", "max_len 2048", "seq 1024", "预算 5000", "共 100"])
@pytest.mark.parametrize(("count", "n"), [("8张A100", 8), ("16 张 A100", 16), ("两张A100", 2)])
def test_a_count_after_a_number_and_a_chinese_comma_is_still_a_count(before: str, count: str, n: int) -> None:
    args = parse_question(f"lora llama-3-8b 1亿token，{before}，{count}，多少钱").args
    assert (args.get("gpu"), args.get("gpu_count")) == ("A100-80GB", n), args


@pytest.mark.parametrize(("jobs", "each", "hours"), [
    ("200 jobs", "× 25 min", 25 / 60), ("200 jobs", "x 25 minutes", 25 / 60), ("每天 50 个任务", "一个跑 1.5 小时", 1.5),
    ("300 个任务", "每个大约 40 分钟", 40 / 60), ("1200 short jobs", "~7 min each", 7 / 60),
])  # fmt: skip
def test_many_short_jobs_keep_their_length(jobs: str, each: str, hours: float) -> None:
    args = parse_question(f"{jobs} {each} on A10G, billed by the hour, what's the waste?").args
    assert args.get("job_hours") == pytest.approx(hours, rel=1e-3) and "wall_hours" not in args, args


@pytest.mark.parametrize(("period", "months"), [
    ("for 12 months", 12), ("contract length 18 months", 18), ("they want a 2-yr deal", 24), ("用 6 个月", 6), ("租一年", 12),
])  # fmt: skip
@pytest.mark.parametrize("quote", ["H100 quoted ${p}/hr", "A800 每卡时 {p} 元"])
def test_a_period_in_a_quote_is_its_term(period: str, months: float, quote: str) -> None:
    p = parse_question(f"{quote.format(p=2.2)}, {period}, fair?")
    assert p.intent == "check_quote" and p.args.get("term_months") == pytest.approx(months), p.args


@pytest.mark.parametrize(("first", "then", "want", "gone"), [
    ("部署 qwen2.5-7b 推理，每天 5000 万 token，用 L40S", "如果 QPS 到 50 呢，每次输出 300 token", {"requests_per_day": 50 * 86400}, "tokens_per_day"),
    ("serve llama-3.1-8b at 20 QPS, 300 output tokens each, on L4", "what about 100M tokens a day?", {"tokens_per_day": 1e8}, "requests_per_day"),
    ("serve llama-3.1-8b at 2M requests a day on L4", "and 10k daily users with 30 requests each?", {"requests_per_day": 3e5}, "tokens_per_day"),
])  # fmt: skip
def test_a_new_daily_load_replaces_the_old_one_whatever_its_form(first: str, then: str, want: dict[str, float], gone: str) -> None:
    p = _turns(first, then)
    assert p.intent == "estimate_serving_cost" and {k: p.args.get(k) for k in want} == pytest.approx(want), p.args
    assert gone not in p.args, p.args


@pytest.mark.parametrize(("discount", "off"), [
    ("夜间电价便宜 {d}%", None), ("night hours are {d}% cheaper", None), ("off-peak discount {d}%", None),
    ("闲时打{z}折", None), ("off-peak rate is half price", 0.5), ("晚上 10 点到早上 8 点便宜一半", 0.5),
])  # fmt: skip
@pytest.mark.parametrize(("share", "value"), [
    ("{p}% 的任务可以晚上跑", None), ("{p}% of our jobs can run overnight", None), ("most of the work ({p}%) can shift to nights", None),
    ("{p}%的训练可以放到闲时", None), ("一半的任务可以挪到夜间", 0.5),
])  # fmt: skip
@pytest.mark.parametrize(("d", "p"), [(30, 60), (40, 70)])
def test_an_off_peak_discount_and_share_in_any_order_and_wording(discount: str, off: float | None, share: str, value: float | None,
                                                               d: int, p: int) -> None:
    text = f"{discount.format(d=d, z=10 - d // 10)}，{share.format(p=p)}，8张A100跑一个月，怎么计费"
    args = parse_question(text).args
    assert args.get("offpeak_discount") == pytest.approx(off or d / 100), args
    assert args.get("offpeak_share") == pytest.approx(value or p / 100), args


@pytest.mark.parametrize(("text", "want"), [
    ("qwen3-30b-a3b 做 lora，rank 64，seq 4096，数据 6 千万 token，8 卡 H20", {"seq_len": 4096, "gpu_count": 8}),
    ("A 13B-parameter model, full fine-tune, 150M-token dataset, 3 epochs, 8 A100s", {"dataset_tokens_b": 0.15, "epochs": 3}),
    ("We've got 24 idle A100 80GBs. LoRA qwen2.5-72b on 600M tokens, how many days?", {"gpu_count": 24}),
    ("LoRA llama-3-8b on 100M tokens with our 16 spare H100s", {"gpu_count": 16}),
    ("用 16 张空闲的 A800 全参微调 qwen2.5-7b 1亿token", {"gpu_count": 16}),
    ("做 qwen2.5-72b 的全参，语料 10 亿 token，卡数不超过 128，怎么配最省", {"max_gpus": 128}),
    ("deepseek-v3 做 lora，3000万token，H800 128张，预算别超过 20 万，能搞定吗", {"budget": 200000}),
    ("Budget is tight, ¥800 max. Single A800 at ¥5.5/h, full fine-tune qwen2.5-0.5b on 300M tokens. Doable?", {"budget": 800}),
    ("Night-only runs: 8 hours a night for 30 nights on a single 4090. cheapest way to pay?", {"hours_per_day": 8, "days": 30}),
    ("晚上跑有没有便宜的计费方式？每天22点后跑8小时，一张3090，跑两周", {"hours_per_day": 8, "days": 14}),
    ("H800 一卡一月 ¥9000，租 32 张，合同 6 个月，这个价位在市场上算什么水平", {"price": 9000, "unit": "gpu_month", "term_months": 6}),
    ("A100 40G 每张卡一个月 4800，合同签 18 个月，划算吗", {"price": 4800, "unit": "gpu_month", "term_months": 18}),
])  # fmt: skip
def test_quantities_written_apart_from_their_words(text: str, want: dict[str, object]) -> None:
    args = parse_question(text).args
    assert {k: args.get(k) for k in want} == pytest.approx(want), args


@pytest.mark.parametrize(("first", "then", "want"), [
    ("Full fine-tune of qwen2.5-7b on 300M tokens with 8 H100s, how much?", "What if we only had 4?", {"gpu_count": 4}),
    ("Full fine-tune of qwen2.5-7b on 300M tokens with 8 H100s, how much?", "and with 16?", {"gpu_count": 16}),
    ("用 64 张 H800 预训练一个 3B 模型，600亿 token，多少钱", "token 减到 300亿 的话呢", {"tokens_b": 30, "gpu_count": 64}),
    ("internlm2-7b 全量微调，2亿 token，8张 A100，¥10/卡时，一共多少钱", "卡时价降到 8 块再算一遍", {"tokens_b": 0.2, "price_per_gpu_hour": 8}),
    ("4090 一张，每天跑 6 小时，跑一个月，怎么计费", "如果每天用满 24 小时呢", {"hours_per_day": 24, "days": 30}),
])  # fmt: skip
def test_a_follow_up_changes_only_the_quantity_it_names(first: str, then: str, want: dict[str, object]) -> None:
    p = _turns(first, then)
    assert {k: p.args.get(k) for k in want} == pytest.approx(want), p.args
    assert "epochs" not in p.args or "epochs" in p.changed, p.args


@pytest.mark.parametrize(("text", "want"), [
    ("合同里包月的 128 张 H800，这 30 天平均只用到 62%，算下闲置成本", {"avg_utilization": 0.62, "period_hours": 720, "billing_mode": "committed"}),
    ("Our 8 A100 monthly-reserved cluster averaged 45% GPU util. What's the idle cost?", {"avg_utilization": 0.45, "billing_mode": "committed"}),
    ("Our 128 H100 fleet ran at 81% average over the last 30 days on a monthly plan. Good enough?", {"avg_utilization": 0.81, "period_hours": 720}),
    ("包年的 64 张 A800，上个月平均用了 55%，浪费多少", {"avg_utilization": 0.55, "billing_mode": "committed"}),
])  # fmt: skip
def test_a_utilization_said_with_a_usage_verb(text: str, want: dict[str, object]) -> None:
    p = parse_question(text)
    assert p.intent == "analyze_usage" and {k: p.args.get(k) for k in want} == pytest.approx(want), p.args


@pytest.mark.parametrize(("text", "gpu", "n"), [
    ("80G 显存能放下 yi-34b 的全参训练吗？", "H100-SXM", 1), ("3090 两张，lora gemma-2-27b，显存吃得消不", "RTX-3090", 2),
    ("Can 8x A100 40GB hold a full fine-tune of qwen2.5-32b with ZeRO-3?", "A100-40GB", 8),
    ("我只有一张 4090，全参微调 qwen2.5-7b 显存够不够？", "RTX-4090", 1),
])  # fmt: skip
def test_a_memory_fit_question_in_other_words_is_a_memory_check(text: str, gpu: str, n: int) -> None:
    p = parse_question(text)
    assert p.intent == "estimate_training_cost" and p.context.get("memory_only"), (p.intent, p.args)
    assert (p.args.get("gpu"), p.args.get("gpu_count")) == (gpu, n), p.args


@pytest.mark.parametrize(("jobs", "n"), [
    ("40 个评测任务", 40), ("800 次训练", 800), ("2,000 inference batch jobs", 2000), ("300 eval runs", 300), ("120 个推理任务", 120),
])  # fmt: skip
@pytest.mark.parametrize(("each", "hours"), [("每个 15 分钟", 0.25), ("3 min apiece", 0.05), ("每个半小时", 0.5), ("each takes half an hour", 0.5)])
def test_jobs_with_a_kind_word_and_their_length(jobs: str, n: int, each: str, hours: float) -> None:
    args = parse_question(f"{jobs}，{each}，A10 按小时计费亏多少").args
    assert (args.get("jobs"), args.get("job_hours")) == (n, pytest.approx(hours)), args


@pytest.mark.parametrize(("schedule", "per_day", "weekdays"), [
    ("每周跑 5 天，每天 10 小时", 10, True), ("工作日 9点到18点用", 9, True), ("Mon–Fri, 9 to 6", 9, True),
    ("we use them 9am-7pm on weekdays", 10, True), ("夜里 11 点到早上 7 点跑", 8, False), ("runs 4 days a week, 12 hours a day", 12, False),
])  # fmt: skip
def test_a_schedule_of_use_is_a_billing_comparison(schedule: str, per_day: float, weekdays: bool) -> None:
    p = parse_question(f"{schedule}，4 张 A100，租 4 周")
    assert p.intent == "compare_billing" and p.args.get("hours_per_day") == per_day, p.args
    if weekdays:
        assert (p.args.get("days"), p.args.get("days_per_week")) == (28, 5), p.args  # 28 days, used 5 of 7


def test_an_off_peak_price_window_is_not_hours_of_use() -> None:
    args = parse_question("晚上 10 点到早上 8 点便宜一半，6 成任务可以挪到晚上，A100 8卡 一个月").args
    assert "hours_per_day" not in args and args.get("offpeak_discount") == 0.5, args


@pytest.mark.parametrize(("text", "share", "fits"), [
    ("Serving Llama 3 8B on a quarter of an A100, 1M tokens a day, cost?", 0.25, True),
    ("用半张 A100 跑 qwen2.5-7b 推理，每天 100 万 token", 0.5, True),
    ("用 1/10 张 4090 跑 qwen2.5-7b 推理，每天 100 万 token", 0.1, False),
    ("half an H100 for qwen2.5-72b inference, 50M tokens a day", 0.5, False),
])  # fmt: skip
def test_a_stated_slice_of_a_card_is_priced_and_checked(text: str, share: float, fits: bool) -> None:
    r = ask(text, offline=True)
    call = r.tool_calls[0]
    assert call.name == "estimate_serving_cost" and call.args["gpu_share"] == pytest.approx(share), call.args
    sliced = call.result["fractional"]
    assert (sliced["slice"], sliced["fits"]) == (pytest.approx(share), fits), sliced
    assert sliced["monthly_cost"] > 0 and ("too small" in r.answer or "不够" in r.answer) == (not fits), r.answer


@pytest.mark.parametrize(("text", "first", "second"), [
    ("pretraining a 7B on H100s (200B tokens) and fine-tuning on A100s (100M tokens), cost by phase",
     {"stage": "pretrain", "gpu": "H100-SXM", "tokens_b": 200}, {"stage": "finetune", "gpu": "A100-80GB", "tokens_b": 0.1}),
    ("7B 模型：在 H800 上预训练 1000亿 token 和在 A100 上 lora 微调 5000万 token，分阶段算",
     {"stage": "pretrain", "gpu": "H800", "tokens_b": 100}, {"stage": "finetune", "gpu": "A100-80GB", "tokens_b": 0.05}),
    ("7B: pretrain on 64 H800 with 100B tokens and then SFT on 8 A800 with 200M tokens, per-stage cost?",
     {"stage": "pretrain", "gpu_count": 64, "tokens_b": 100}, {"stage": "finetune", "gpu_count": 8, "tokens_b": 0.2}),
])  # fmt: skip
def test_stages_joined_by_and_keep_their_own_cards_and_data(text: str, first: dict[str, object], second: dict[str, object]) -> None:
    p = parse_question(text)
    assert p.intent == "plan_project", p.intent
    got = p.args["stages"]
    for want, have in zip((first, second), got[:2], strict=True):
        assert {k: have.get(k) for k in want} == pytest.approx(want), got


@pytest.mark.parametrize("n", [910, 3090, 4090, 5090, 16])
@pytest.mark.parametrize(("written", "gpu"), [("{n}卡A100", "A100-80GB"), ("{n}卡 H100", "H100-SXM"), ("{n}x L40S", "L40S"),
                                              ("{n} × H800", "H800"), ("{n} A100s", "A100-80GB"),
                                              ("{n} H20 GPUs", "H20")])  # fmt: skip
def test_a_number_before_a_measure_word_and_another_card_counts_that_card(n: int, written: str, gpu: str) -> None:
    args = parse_question(f"用{written.format(n=n)}，{JOB['zh']}").args
    assert (args.get("gpu"), args.get("gpu_count")) == (gpu, n), args


@pytest.mark.parametrize("text", ["用4090卡，{job}", "租两张 4090 卡，{job}", "3090卡够不够？{job}"])
def test_a_card_number_with_a_card_word_and_no_other_card_is_still_the_card(text: str) -> None:
    args = parse_question(text.format(job=JOB["zh"])).args
    assert args.get("gpu", "").startswith("RTX-"), args


@pytest.mark.parametrize("text", ["4090 A100 哪个划算？", "3090 H100 which one?", "4090 L40S 选哪个"])
def test_a_card_number_and_a_card_with_only_a_space_are_two_cards(text: str) -> None:
    args = parse_question(text + JOB["zh"]).args
    assert len(args.get("gpus", [])) == 2 and "gpu_count" not in args, args


@pytest.mark.parametrize("n", [1024, 1536, 2048, 16384])
@pytest.mark.parametrize("written", ["租 {c} 张 H100，", "with {c} H100s, ", "H100 x {c}, ", "{c} x H100，", "we have {c} GPUs (H100), "])
def test_a_card_count_with_thousands_groups_is_one_count(n: int, written: str) -> None:
    args = parse_question(written.format(c=f"{n:,}") + "pretrain a 7B model on 300B tokens").args
    assert (args.get("gpu"), args.get("gpu_count")) == ("H100-SXM", n), args


@pytest.mark.parametrize(("lo", "hi"), [(4, 8), (2, 16), (8, 32)])
@pytest.mark.parametrize("written", ["{lo}-{hi} 张 H100，{job}", "{lo}到{hi}卡 H100，{job}", "用 {lo}~{hi} 张 H100 {job}",
                                     "{job} Somewhere between {lo} and {hi} H100s.", "{job} We could use {lo} or {hi} H100s."])
def test_a_range_of_cards_is_a_cap_and_the_answer_says_which_end_it_priced(lo: int, hi: int, written: str) -> None:
    text = written.format(lo=lo, hi=hi, job=JOB["zh" if "张" in written or "卡" in written else "en"])
    p = parse_question(text)
    assert (p.args.get("gpu"), p.args.get("gpu_count")) == ("H100-SXM", hi), p.args
    assert any(a["name"] == "gpu_range" and a["value"] == f"{lo}–{hi}" for a in p.assumptions)
    assert f"{lo}–{hi}" in ask(text, offline=True).answer.split("\n\n")[1]


@pytest.mark.parametrize(("n", "each"), [(1000, 5000), (20000, 600), (300, 12000)])
@pytest.mark.parametrize(("written", "unit"), [
    ("{n} 篇文档，每篇约 {each} 字", "workload.tokens_per_character"), ("{n} 条问答，每条平均 {each} 字", "workload.tokens_per_character"),
    ("{n} 份合同，每份 {each} token", None), ("{n} support tickets, {each} words per ticket", "workload.tokens_per_word"),
    ("{n} articles of about {each} words each", "workload.tokens_per_word"), ("{n} papers averaging {each} tokens", None),
])  # fmt: skip
def test_documents_counted_with_their_length_in_characters_words_or_tokens(n: int, each: int, written: str, unit: str | None) -> None:
    from advisor.catalog import get_catalog

    p = parse_question(f"LoRA 微调 qwen2.5-7b，{written.format(n=n, each=f'{each:,}')}，A100，多少钱")
    per = get_catalog().defaults.value(unit) if unit else 1
    assert p.intent == "estimate_training_cost", p.missing
    assert (p.args.get("samples"), p.args.get("tokens_per_sample")) == (n, int(each * per)), p.args
    assert not unit or any(a["name"] == unit for a in p.assumptions)


@pytest.mark.parametrize("size", ["5 GB jsonl dataset", "2 TB of parquet files", "800MB 的 jsonl 数据", "语料 30GB"])
def test_data_given_as_stored_size_uses_the_bytes_per_token_default(size: str) -> None:
    from advisor.catalog import get_catalog

    gb = {"5 GB": 5, "2 TB": 2000, "800MB": 0.8, "30GB": 30}[next(k for k in ("5 GB", "2 TB", "800MB", "30GB") if k in size)]
    p = parse_question(f"fine-tune qwen2.5-7b on {size}, A100, cost")
    assert p.args.get("tokens_b") == pytest.approx(gb / get_catalog().defaults.value("workload.bytes_per_token_dataset")), p.args


@pytest.mark.parametrize(("written", "hours", "days"), [
    ("一天开机 {h} 小时，一个月 {d} 个工作日", 8, 22), ("每天晚上跑 {h} 个小时，共 {d} 个工作日", 10, 20),
    ("每天大概要用 {h} 个小时，{d} 个工作日", 6, 15), ("{h} hours every day for {d} working days", 9, 20),
    ("{h} hours a night, {d} business days", 7, 12),
])  # fmt: skip
def test_hours_a_day_with_words_between_and_working_days_counted(written: str, hours: int, days: int) -> None:
    args = parse_question(f"4 张 A100，{written.format(h=hours, d=days)}，包月还是按量").args
    assert (args.get("hours_per_day"), args.get("days")) == (hours, days), args


@pytest.mark.parametrize(("written", "hours"), [("每个任务 2 个半小时", 2.5), ("每次 1 个半小时", 1.5), ("each run takes 3 hours", 3.0),
                                                ("每个大概 40 分钟", 2 / 3)])  # fmt: skip
def test_a_job_length_with_a_half(written: str, hours: float) -> None:
    args = parse_question(f"跑 50 个小任务，{written}，H100 单卡，按小时计费多花多少").args
    assert (args.get("jobs"), args.get("job_hours")) == (50, pytest.approx(hours, abs=1e-5)), args


@pytest.mark.parametrize("cap", ["预算封顶 {b}", "预算上限 {b}", "预算顶多 {b}", "预算不超过 {b}"])
@pytest.mark.parametrize(("b", "value"), [("20 万", 200000), ("8万块", 80000), ("¥150k", 150000)])
def test_a_budget_with_a_limit_word(cap: str, b: str, value: float) -> None:
    args = parse_question(f"{cap.format(b=b)}，lora 微调 qwen2.5-7b，1亿token，推荐什么卡").args
    assert args.get("budget") == value, args


@pytest.mark.parametrize(("written", "nodes", "per"), [
    ("{m} 台 {c} 卡 A800 服务器，整台每小时报价 ¥{p}", 2, 8), ("{m} nodes of {c} A800, ${p} per node-hour", 3, 8),
    ("每台 {c} 张 A800，共 {m} 台，每台每小时 {p} 元", 4, 8), ("{m} x {c}-GPU A800 servers at ${p}/hour per node", 2, 4),
])  # fmt: skip
@pytest.mark.parametrize("price", [78, 120])
def test_a_machine_price_is_shared_by_that_machines_cards_not_the_fleet(written: str, nodes: int, per: int, price: int) -> None:
    lang = "en" if "node" in written or "servers" in written else "zh"
    args = parse_question(f"{written.format(m=nodes, c=per, p=price)}，{JOB[lang]}").args
    assert (args.get("gpu_count"), args.get("price_per_gpu_hour")) == (nodes * per, pytest.approx(price / per)), args


@pytest.mark.parametrize(("written", "n"), [("两张 24G 的 4090", 2), ("4 张 48GB 的 L40S", 4), ("8 块 80G A100", 8)])
def test_a_memory_size_between_count_and_card_keeps_the_count(written: str, n: int) -> None:
    assert parse_question(f"我们就{written}，{JOB['zh']}").args.get("gpu_count") == n


@pytest.mark.parametrize(("text", "field", "value"), [
    ("预算就八百块，lora qwen2.5-3b，2千万token，选哪张卡", "budget", 800), ("预算只 3000 元，lora qwen2.5-3b，2千万token，选哪张卡", "budget", 3000),
    ("H800 对方报 7.9 万一台一个月（8 卡），签 24 个月，这价贵不贵", "price", 79000),
    ("A800 at ¥5,900 per card per month for half a year, 16 cards: good deal?", "term_months", 6),
    ("My eval suite is 250 separate runs of about 4 minutes on a single L4, per-hour vs per-second billing?", "jobs", 250),
    ("We have 40 nightly regression runs of 15 minutes on an A10, billed by the hour, how much?", "job_hours", 0.25),
    ("glm-4-9b 部署，一天最多 30 万 token，A10 一张，一个月多少钱", "tokens_per_day", 300000),
    ("From-scratch 1B-parameter model, 100B tokens on 64 H800s, cost?", "method", "pretrain"),
    ("年框里的 96 张 H100，平均利用率 52%，浪费多少", "billing_mode", "committed"),
])  # fmt: skip
def test_scoped_quantities_in_other_wordings(text: str, field: str, value: object) -> None:
    args = parse_question(text).args
    assert args.get(field) == (pytest.approx(value) if isinstance(value, float) else value), args


@pytest.mark.parametrize("later", ["What if we run them 24/7 instead?", "and around the clock?", "如果全天候跑呢？", "改成 24x7 呢"])
def test_all_day_use_in_a_follow_up_is_24_hours_a_day(later: str) -> None:
    first = ask("8 张 A100，每天 10 小时，用一个月，包月还是按量", offline=True)
    r = ask(later, history=first.history, offline=True)
    assert r.tool_calls[0].args.get("hours_per_day") == 24, r.tool_calls[0].args


@pytest.mark.parametrize("serve", ["然后放到线上用 {d} 天", "之后推理 {d} 天", "再部署 {d} 天", "then serve it for {d} days"])
@pytest.mark.parametrize("days", [100, 240])
def test_a_serving_clause_keeps_its_days_whatever_its_wording(serve: str, days: int) -> None:
    lang = "en" if serve.startswith("then") else "zh"
    train = {"zh": "先 qlora 训 qwen3-4b（数据 500 万 token）", "en": "QLoRA qwen3-4b on 5M tokens"}[lang]
    load = {"zh": "每天 50 万 token，全程用 4090，一共要多少", "en": "at 500k tokens a day, all on a 4090, total cost?"}[lang]
    p = parse_question(f"{train}，{serve.format(d=days)}，{load}")
    assert p.intent == "plan_project", p.intent
    assert (p.args.get("serving_days"), p.args.get("finetune_tokens_b")) == (days, 0.005), p.args


@pytest.mark.parametrize("gpu", ["A100", "H100", "4090"])
@pytest.mark.parametrize(("written", "n"), [
    ("a pair of {g}s, {job}", 2), ("a couple of {g}s, {job}", 2), ("dual {g} workstation, {job}", 2), ("quad {g} server, {job}", 4),
    ("8-way {g}, {job}", 8), ("we'll use {g}s — 16 in total — {job}", 16), ("卡用 {g}，数量 8，{zh}", 8),
    ("{zh}，打算用 {g} 跑，8 张够不够", 8), ("{zh}，{g} 的话 4 张行吗", 4),
])  # fmt: skip
def test_counts_in_words_or_away_from_the_card_name(gpu: str, written: str, n: int) -> None:
    p = parse_question(written.format(g=gpu, job=JOB["en"], zh=JOB["zh"]))
    assert (p.intent, p.args.get("gpu_count")) == ("estimate_training_cost", n), p.args


@pytest.mark.parametrize(("text", "field", "value"), [
    ("H800 32 卡，qwen2.5-72b lora，2.4 亿 token，申请金额 8 万，够吗", "budget", 80000), ("财务只批 1.5 万，qwen2.5-32b 全参 5000 万 token，用什么卡", "budget", 15000),
    ("日活一万，每人每天 20 次，每次大约 1000 token 进、300 token 出，qwen3-14b，4 张 L40S，一天多少钱", "prompt_tokens", 1000),
    ("10k requests a day, 800 tokens in and 200 tokens out, qwen3-14b on 2 L40S, daily cost?", "output_tokens", 200),
    ("消融实验 30 组，每组 2 张 A100 跑 1.5 小时，按小时计费多花多少", "job_hours", 1.5), ("评测任务一共 40 个，每个 20 分钟，L4，按小时计费多花多少", "jobs", 40),
    ("课题组要不要买 4 张 L40S？三年里估计只用到三成", "years", 3), ("过去 10 天 8 张 3090 平均 GPU 占用 40%，空转的钱有多少", "avg_utilization", 0.4),
    ("Per-node pricing: one 8x H100 node at $19.60/hour. LoRA llama-3-8b on 100M tokens, on 2 nodes. Total?", "gpu_count", 16),
    ("a 4x A100 server at $8/hour, we rent 3 servers, LoRA llama-3-8b on 100M tokens", "gpu_count", 12),
    ("Our 96 H800 averaged 37% util over the last 14 days. Committed contract. What are we wasting?", "billing_mode", "committed"),
    ("每周只有周末两天用卡，每天 10 个小时，4090，按量还是包月？", "days_per_week", 2), ("4 张 4090，一周用三天，一天 6 个钟，包月划算吗", "hours_per_day", 6),
])  # fmt: skip
def test_budget_load_job_usage_and_machine_wordings(text: str, field: str, value: object) -> None:
    args = parse_question(text).args
    assert args.get(field) == (pytest.approx(value) if isinstance(value, float) else value), args


@pytest.mark.parametrize(("first", "later", "field", "value"), [
    ("500 jobs of 10 minutes on an L4, per-hour vs per-second billing?", "what if each job takes 45 minutes instead?", "job_hours", 0.75),
    ("500 个任务，每个 10 分钟，L4，按小时计费多花多少", "任务数减到 50 个呢", "jobs", 50),
    ("LoRA qwen2.5-7b on 100M tokens with 4 A100s, cost?", "Scale it to 16 of the same cards.", "gpu_count", 16),
])  # fmt: skip
def test_a_follow_up_changes_the_one_value_it_names(first: str, later: str, field: str, value: object) -> None:
    r = ask(later, history=ask(first, offline=True).history, offline=True)
    assert r.tool_calls[0].args.get(field) == pytest.approx(value), r.tool_calls[0].args


@pytest.mark.parametrize(("first", "later", "currency"), [
    ("LoRA qwen2.5-7b on 100M tokens with 4 A100s, cost?", "换回人民币", "CNY"), ("4 张 A100 lora qwen2.5-7b 1亿token 多少钱", "now give me dollars", "USD"),
    ("4 张 A100 lora qwen2.5-7b 1亿token 多少钱", "back to USD please", "USD"),
])  # fmt: skip
def test_a_currency_follow_up_in_other_words(first: str, later: str, currency: str) -> None:
    r = ask(later, history=ask(first, offline=True).history, offline=True)
    assert r.tool_calls[0].args.get("currency") == currency, r.tool_calls[0].args


@pytest.mark.parametrize("dpw", [2, 5])
def test_days_a_week_is_in_the_billing_request_and_the_tool_uses_it_over_a_period(dpw: int) -> None:
    from advisor.tools import report_json

    args = parse_question(f"8 张 A100，每周只用 {dpw} 天，每天 10 小时，持续两个月，按量还是包月").args
    assert args.get("days_per_week") == dpw, args
    week = report_json("compare_billing", {"gpu": "A100", "hours_per_day": 10, "days_per_week": dpw, "wall_hours": 1460})
    days = report_json("compare_billing", {"gpu": "A100", "hours_per_day": 10, "days": 1460 / 24 * dpw / 7})
    assert week["options"][0] == days["options"][0]


@pytest.mark.parametrize(("later", "stage", "field", "value"), [
    ("Change serving to 50M tokens a day", "serving", "tokens_per_day", 5e7), ("上线改成每天 5000 万 token 呢", "serving", "tokens_per_day", 5e7),
    ("and serve it for 180 days instead?", "serving", "days", 180), ("fine-tune on 500M tokens instead", "finetune", "tokens_b", 0.5),
    ("微调数据改成 5 亿 token", "finetune", "tokens_b", 0.5),
])  # fmt: skip
def test_a_follow_up_on_a_plan_changes_that_stage_only(later: str, stage: str, field: str, value: float) -> None:
    first = ask("Plan for qwen2.5-7b: LoRA fine-tune on 200M tokens with 8 A100, then serve it for 90 days at 20M tokens a day. Total?",
                offline=True)
    before = {s["stage"]: s for s in first.tool_calls[0].args["stages"]}
    r = ask(later, history=first.history, offline=True)
    after = {s["stage"]: s for s in r.tool_calls[0].args["stages"]}
    assert after[stage][field] == pytest.approx(value), after
    assert {k: v for k, v in after.items() if k != stage} == {k: v for k, v in before.items() if k != stage}
    assert r.tool_calls[0].error is None


def _args(question: str) -> dict[str, object]:
    return parse_question(question).args


@pytest.mark.parametrize(("said", "n"), [
    ("十几张 {g}", 15), ("二十几张 {g}", 25), ("20多张 {g}", 25), ("几十张 {g}", 50), ("三五张 {g}", 5), ("两三张 {g}", 3),
    ("一二十张 {g}", 20), ("十来张 {g}", 10), ("a few {g}s", 3), ("several {g}s", 5), ("a dozen or so {g}s", 12),
    ("about 12-ish {g}s", 12),
])  # fmt: skip
@pytest.mark.parametrize("gpu", ["A100", "H800", "4090"])
def test_an_approximate_count_is_read_as_one_stated_value(said: str, n: int, gpu: str) -> None:
    """十几 = 15, 几十 = 50, a range of two numerals = its high end, "a few" = 3; the answer names the reading."""
    question = f"{said.format(g=gpu)}，{JOB['zh' if '张' in said else 'en']}"
    assert _args(question).get("gpu_count") == n
    if not said.endswith(("or so {g}s", "-ish {g}s")):
        assert any(a["name"] == "approximate" for a in parse_question(question).assumptions)


@pytest.mark.parametrize(("said", "hours"), [("两三天", 72), ("一两周", 336), ("三四个月", 4 * 730), ("a few days", 72), ("十来天", 240)])
def test_an_approximate_duration_is_its_high_end_or_middle(said: str, hours: float) -> None:
    zh = not said.isascii()
    question = f"8 张 A100 租{said}，按量还是包月" if zh else f"8 A100 for {said}: on-demand or monthly?"
    assert _args(question).get("wall_hours") == pytest.approx(hours)


@pytest.mark.parametrize(("said", "n"), [
    ("租 {m} 台 {g} 单卡机", 1), ("{m} 台单卡 {g} 机器", 1), ("{m} 台双卡 {g} 服务器", 2), ("{m} 台 8 卡 {g} 机器", 8),
    ("{m} 台 {g} 8卡机", 8), ("租 {m} 台单卡机，{g}", 1), ("{m} 台 {g} 的单卡实例", 1),
])  # fmt: skip
@pytest.mark.parametrize(("machines", "gpu"), [(3, "4090"), (10, "A100"), (6, "L20")])
def test_machines_count_their_own_cards(said: str, n: int, machines: int, gpu: str) -> None:
    """"N 台单卡机" is N cards, "N 台 8 卡机" 8N: cards per machine × machines, never 8 × machines by default."""
    assert _args(f"{said.format(m=machines, g=gpu)}，{JOB['zh']}").get("gpu_count") == n * machines


@pytest.mark.parametrize(("said", "n"), [
    ("my {g}", 1), ("on my {g}", 1), ("我的 {g}", 1), ("a single {g}", 1), ("one {g}", 1), ("一张 {g}", 1), ("一块 {g}", 1),
    ("单卡 {g}", 1), ("on one {g}", 1),
])  # fmt: skip
@pytest.mark.parametrize("gpu", ["4090", "A100", "L40S"])
def test_one_card_implied(said: str, n: int, gpu: str) -> None:
    lang = "en" if said.isascii() else "zh"
    assert _args(f"{said.format(g=gpu)}: {JOB[lang]}").get("gpu_count") == n
    assert _args(f"can my {gpu}s {JOB['en'][:-6]}?").get("gpu_count") is None  # "my A100s" are not one card


@pytest.mark.parametrize(("said", "price"), [
    ("一块七毛八一小时", 1.78), ("一小时 1 块 8 毛", 1.8), ("每小时 3 块 2", 3.2), ("一小时三块二", 3.2), ("两块五毛钱一个小时", 2.5),
    ("八毛一小时", 0.8), ("一小时五毛钱", 0.5), ("每小时 2 块 3 毛 5", 2.35),
])  # fmt: skip
@pytest.mark.parametrize("gpu", ["3090", "T4", "A10"])
def test_colloquial_kuai_and_mao_is_a_price_per_hour(said: str, price: float, gpu: str) -> None:
    args = _args(f"{gpu} {said}，{JOB['zh']}")
    assert (args.get("price_per_gpu_hour"), args.get("currency")) == (pytest.approx(price), "CNY"), args


@pytest.mark.parametrize(("said", "value"), [
    ("被抢占了重跑也行", True), ("允许被打断", True), ("被回收也无所谓", True), ("可以被抢占", True), ("中断了也没关系", True),
    ("不允许被抢占", False), ("不能被打断", False), ("fine if it gets killed", True), ("we don't mind preemption", True),
    ("it can be preempted", True), ("ok with interruptions", True), ("preemption is fine", True),
    ("it must not be preempted", False), ("we can't afford preemption", False),
])  # fmt: skip
def test_tolerating_interruptions_is_interruptible(said: str, value: bool) -> None:
    lang = "en" if said.isascii() else "zh"
    question = f"8 张 A100 跑 3 天，{said}，竞价还是按量" if lang == "zh" else f"8 A100 for 3 days, {said}: spot or on-demand?"
    assert _args(question).get("interruptible") is value


@pytest.mark.parametrize(("said", "amount"), [
    ("费用上限 {a} 万", 1e4), ("会不会超过 {a} 万", 1e4), ("花费上限{a}万", 1e4), ("不能超 {a} 万块", 1e4), ("卡在 {a} 万以内", 1e4),
    ("we have ${a}k to spend", 1e3), ("a ${a}k grant", 1e3), ("budget capped at ${a}k", 1e3),
])  # fmt: skip
@pytest.mark.parametrize("a", [3, 12])
def test_a_spending_limit_is_the_budget(said: str, amount: float, a: int) -> None:
    lang = "en" if said.isascii() else "zh"
    assert _args(f"{JOB[lang]} {said.format(a=a)}").get("budget") == a * amount


@pytest.mark.parametrize(("said", "jobs", "hours"), [
    ("一天大概 {n} 次，每次 {m} 分钟左右", None, None), ("{n} 组，每组 {m} 分钟", None, None), ("跑 {n} 次，每次 {m} 分钟", None, None),
    ("{n} times a day, {m} minutes each", None, None), ("{n} runs, each {m} min", None, None),
])  # fmt: skip
@pytest.mark.parametrize(("n", "m"), [(40, 15), (300, 12)])
def test_a_count_of_runs_with_a_measure_word_and_a_per_run_length(said: str, jobs: None, hours: None, n: int, m: int) -> None:
    lang = "en" if said.isascii() else "zh"
    question = f"A10 单卡，{said.format(n=n, m=m)}，按秒计费和按小时哪个划算" if lang == "zh" else \
        f"one A10, {said.format(n=n, m=m)}: per-second or hourly billing?"
    args = _args(question)
    assert (args.get("jobs"), args.get("job_hours")) == (n, pytest.approx(m / 60)), args


@pytest.mark.parametrize(("said", "current"), [
    ("平台按整小时计费，换成按秒计费能省多少", "hour"), ("按小时计费，改成按分钟呢", "hour"), ("按秒计费的话一共多少钱", "second"),
    ("our provider rounds every job up to a full hour; what would per-second billing save?", "hour"),
    ("billed per minute now, how much vs per-second billing?", "minute"),
])  # fmt: skip
def test_the_increment_billed_now_is_the_current_one(said: str, current: str) -> None:
    lang = "en" if said.isascii() else "zh"
    job = "500个任务，每个20分钟，A100 单卡，" if lang == "zh" else "500 jobs of 20 minutes on one A100; "
    assert _args(job + said).get("increment") == current


@pytest.mark.parametrize(("said", "prompt", "output"), [
    ("输入平均 {p} token，输出 {o}", 1, 1), ("输入约 {p} token，输出约 {o} token", 1, 1), ("prompts ~{p} tokens, answers ~{o}", 1, 1),
    ("average input {p} tokens and output of {o} tokens", 1, 1), ("inputs are {p} tokens, replies {o} tokens", 1, 1),
])  # fmt: skip
@pytest.mark.parametrize(("p", "o"), [(800, 300), (1200, 250)])
def test_serving_request_sizes_as_averages(said: str, prompt: int, output: int, p: int, o: int) -> None:
    lang = "en" if said.isascii() else "zh"
    question = f"部署 qwen2.5-7b，每天2万次请求，{said.format(p=p, o=o)}，需要多少钱" if lang == "zh" else \
        f"serve qwen2.5-7b, 20k requests a day, {said.format(p=p, o=o)}. cost?"
    args = _args(question)
    assert (args.get("prompt_tokens"), args.get("output_tokens")) == (p * prompt, o * output), args


@pytest.mark.parametrize(("said", "per_card"), [
    ("each node billed at $24/hr, 4 nodes of 8 H100", 3.0), ("H100 整机 48 元/时（8卡）", 6.0), ("每台每小时 56 元，整机 8 卡 A800", 7.0),
    ("A100 单卡 8 元/时", 8.0), ("$2.5 per H100-hour", 2.5),
])  # fmt: skip
def test_a_machine_price_is_divided_by_its_cards(said: str, per_card: float) -> None:
    lang = "en" if said.isascii() else "zh"
    assert _args(f"{said}，{JOB[lang]}").get("price_per_gpu_hour") == pytest.approx(per_card)


@pytest.mark.parametrize(("said", "model"), [
    ("glm 9b", "glm-4-9b"), ("a 9B glm", "glm-4-9b"), ("书生 8b", "internlm3-8b"), ("书生internlm2.5-7b", None), ("千问3-4b", "qwen3-4b"),
    ("internlm 20b", "internlm2-20b"),
])  # fmt: skip
def test_a_family_with_a_size_is_the_one_catalog_model_of_that_size(said: str, model: str | None) -> None:
    args = _args(f"{said} lora 微调，1亿token，A100")
    assert args.get("model") == (model or args.get("model")) and args.get("model")


@pytest.mark.parametrize(("said", "unit", "count"), [
    ("they quoted $2.3 per H100-hour for 64 cards, 12 months", "gpu_hour", 64), ("H100 每卡每月 1.2万，32张，签一年", "gpu_month", 32),
    ("vendor offers $1,500 per card per month for H100, 16 cards, 12-month term", "gpu_month", 16),
])  # fmt: skip
def test_a_quote_per_card_period_with_the_count_elsewhere(said: str, unit: str, count: int) -> None:
    args = _args(said + ("，合理吗" if not said.isascii() else ", fair?"))
    assert (args.get("unit"), args.get("gpu_count")) == (unit, count), args


@pytest.mark.parametrize(("said", "hours"), [("一个月按 720 小时算", 720), ("跑2个月，一个月按700小时算", 1400), ("assume 720 hours a month", 720)])
def test_hours_of_a_month_stated_win_over_the_default(said: str, hours: float) -> None:
    assert _args(f"8 张 A100 包月 vs 按量，{said}").get("wall_hours") == hours


@pytest.mark.parametrize("said", ["(full, 30M tokens)", "on 30M tokens, full.", "method: full, 30M tokens"])
def test_a_method_in_brackets_or_after_the_tokens(said: str) -> None:
    assert _args(f"fine-tune qwen2.5-7b {said} on 8 A100, cost?").get("method") == "full"


@pytest.mark.parametrize(("plan", "main"), [
    ("qwen2.5-72b 全参微调：先 {a} 张 A800 验证 2 天，然后 {b} 张 A800 跑 10 天", "finetune"),
    ("预训练计划：先用 {a} 张 H800 做可行性验证，跑 5 天，再扩到 {b} 张跑 60 天", "pretrain"),
    ("llama-3-8b LoRA: a 3-day pilot on {a} H100, then {b} H100 for 2 weeks", "finetune"),
])  # fmt: skip
@pytest.mark.parametrize(("a", "b"), [(8, 64), (16, 256)])
def test_an_unnamed_phase_after_a_validation_is_the_main_run(plan: str, main: str, a: int, b: int) -> None:
    stages = _args(plan.format(a=a, b=b) + ("，总共多少钱" if not plan.isascii() else ". Total plan cost?")).get("stages")
    assert [(s["stage"], s.get("gpu_count")) for s in stages] == [("validation", a), (main, b)], stages  # type: ignore[union-attr]


@pytest.mark.parametrize("said", ["每周跑 {d} 天", "一周用 {d} 天，每天 8 小时", "{d} days a week", "used {d} days a week, 10 hours a day"])
@pytest.mark.parametrize("d", [3, 5])
def test_a_weekly_schedule_with_no_period_is_compared_over_a_month(said: str, d: int) -> None:
    question = f"4 张 H100，{said.format(d=d)}，按量还是包月划算？" if not said.isascii() else \
        f"4 H100, {said.format(d=d)}: on-demand or monthly?"
    r = ask(question, offline=True)
    call = r.tool_calls[0]
    assert call.error is None and call.args["days_per_week"] == d and call.args["days"] == 30
    assert ("30" in r.answer.split("\n\n")[1]) and any(w in r.answer for w in ("Period compared", "比较的天数"))


@pytest.mark.parametrize(("question", "stages"), [
    ("预训练阶段先包月租{a}张H800 跑到一半扩到{b}张 扩容部分走阶梯价 这样分阶段算一下总成本",
     [("pretrain", "{a}", "monthly"), ("pretrain", "{b}", "tiered")]),
    ("Stage costs please  validation on-demand {a} H100  pretraining monthly on {b} H100  Our model is 30B",
     [("validation", "{a}", "on_demand"), ("pretrain", "{b}", "monthly")]),
])  # fmt: skip
@pytest.mark.parametrize(("a", "b"), [(8, 64), (1000, 2000)])
def test_a_dictated_plan_without_punctuation_keeps_its_stages(question: str, stages: list[tuple[str, str, str]], a: int, b: int) -> None:
    got = _args(question.format(a=a, b=b)).get("stages") or []
    want = [(s, int(n.format(a=a, b=b)), bill) for s, n, bill in stages]
    assert [(s["stage"], s.get("gpu_count"), s.get("billing")) for s in got] == want, got  # type: ignore[index]


@pytest.mark.parametrize(("question", "field", "value"), [
    ("qwen2.5-14b全流程 全参微调{t}亿token 上线后日均5000万token 服务一年 用A800 给个分阶段预算", "finetune_tokens_b", "{t}e-1"),
    ("报销单 A800 {n}张 用了2周 平均利用率50% 按需7元/卡时 里面有多少是浪费", "gpu_count", "{n}"),
    ("qwen3-30b-a3b 做 lora rank 64 seq 4096 数据 6 千万 token {n} 卡 H20 预计多少 GPU 时", "gpu_count", "{n}"),
])  # fmt: skip
@pytest.mark.parametrize(("t", "n"), [(3, 24), (5, 16)])
def test_a_dictated_question_reads_like_the_typed_one(question: str, field: str, value: str, t: int, n: int) -> None:
    assert _args(question.format(t=t, n=n)).get(field) == pytest.approx(float(value.format(t=t, n=n)))


@pytest.mark.parametrize(("said", "field", "value"), [
    ("数据五百亿 token——不对，是五十亿 token", "tokens_b", 5.0), ("100M tokens, sorry, I mean 200M tokens", "tokens_b", 0.2),
    ("16 张 A800，说错了，32 张", "gpu_count", 32), ("8 H100, correction: 16 H100", "gpu_count", 16),
])  # fmt: skip
def test_a_number_taken_back_is_not_read(said: str, field: str, value: float) -> None:
    lang = "en" if said.isascii() else "zh"
    job = "qwen2.5-7b 全参微调，A800，" if lang == "zh" else "full fine-tune of qwen2.5-7b on A800s, "
    assert _args(job + said).get(field) == pytest.approx(value)


@pytest.mark.parametrize(("question", "field", "value"), [
    ("我一般白天跑 6 个钟，一周 5 天，A100 按量还是包月划算", "hours_per_day", 6), ("晚上跑 8 小时，A100 按量还是包月", "hours_per_day", 8),
    ("每天用 A100 4 小时，一个月 20 天，按量还是包月？", "days", 20), ("4 A100, 20 days a month, 8 hours a day: monthly or on-demand?", "days", 20),
    ("weekday-ish usage: one RTX 4090, ~5 hrs/day, 6 days a week. monthly plan?", "days_per_week", 6),
    ("4090 一张挂了 3 天，利用率也就 1%，每小时 2 块，白给了多少", "avg_utilization", 0.01),
    ("Spot A100s for a 200-hour run on 8 cards: how much cheaper than on-demand?", "interruptible", True),
    ("可抢占实例 H800 16 卡，总共跑 500 小时，和按需比哪个省", "interruptible", True),
    ("Interruptible vs on-demand for 4 H800s over a 150-hour run?", "interruptible", True),
    ("8 张 H800 跑 500 小时，不能中断，竞价还是按量", "interruptible", False),
    ("300 eval jobs, each ~3 minutes on one L4. By-the-minute vs by-the-hour billing?", "increment", "minute"),
    ("qlora 训 qwen2.5-7b，数据一千万 token，预算三百以内，租啥", "budget", 300),
    ("Can I LoRA phi-3-medium on one 16GB V100? 20M tokens", "gpu", "V100-16GB"), ("两张 40G 的 A100 lora qwen2.5-14b 1亿token", "gpu", "A100-40GB"),
    ("qwen2.5-0.5b 全参预训练，50 亿 token，16 张 A800", "method", "pretrain"),
])  # fmt: skip
def test_set5_dev_reading_classes(question: str, field: str, value: object) -> None:
    assert _args(question).get(field) == value


@pytest.mark.parametrize(("first", "later", "field", "value"), [
    ("lora 微调 llama-3.2-3b，20万条，每条300 token，5 个 epoch，V100 单卡", "epoch 砍到 3 个，要多少卡时", "epochs", 3),
    ("full fine-tune llama-3.1-8b on 300M tokens with 8 A100", "数据缩到一亿呢", "tokens_b", 0.1),
    ("每天用 A100 4 小时，一个月 20 天，按量还是包月？", "每天开满 12 个小时的话，哪种付费方式合适", "days", 20),
])  # fmt: skip
def test_a_follow_up_changes_epochs_data_and_keeps_the_days(first: str, later: str, field: str, value: float) -> None:
    r = ask(later, history=ask(first, offline=True).history, offline=True)
    assert r.tool_calls[0].args.get(field) == pytest.approx(value), r.tool_calls[0].args


@pytest.mark.parametrize(("said", "lang"), [
    ("I left an {g} running over the weekend (about 60 hours) doing nothing, ${p}/hr. How bad is that?", "en"),
    ("2 {g}s sat idle for 60 hours at ${p}/hr, nobody touched them. What did that waste?", "en"),
    ("Our {g} was completely idle for 60 hours, ${p} an hour. Idle cost?", "en"),
    ("周末忘关了一台 {g}，60 小时一直空着，{p} 美元/小时，亏了多少", "zh"),
    ("{g} 闲置了 60 小时，每小时 {p} 美元，浪费了多少钱", "zh"), ("这台 {g} 60 小时啥也没跑，{p} 美元一小时，白花多少", "zh"),
])  # fmt: skip
@pytest.mark.parametrize(("gpu", "price"), [("A10G", 1.0), ("L4", 0.8)])
def test_idle_throughout_said_in_words_is_zero_utilization(said: str, lang: str, gpu: str, price: float) -> None:
    args = _args(said.format(g=gpu, p=price))
    assert (args.get("gpu"), args.get("avg_utilization"), args.get("period_hours")) == (gpu, 0, 60), args


@pytest.mark.parametrize("said", [
    "8 张 {g} 包月，这个月平均利用率 30%，闲置了多少钱", "8 {g}s idle 30% of the time over 100 hours, what did that waste?",
])  # fmt: skip
def test_a_stated_share_beats_the_idle_words(said: str) -> None:
    assert _args(said.format(g="L4")).get("avg_utilization") == pytest.approx(0.3 if "30%" in said and "idle" not in said else 0.7)


@pytest.mark.parametrize(("said", "n"), [
    ("{m}台 {g} 按量跑 50 小时，每卡时 2 元，多少钱", 1), ("租{m}台{g}，每天跑 8 小时，按量还是包月", 1),
    ("{m}台 H100 跑 qwen2.5-7b 全参微调，10亿token多少钱", 8), ("{m}台 A800 按量跑 50 小时，多少钱", 8),
])  # fmt: skip
@pytest.mark.parametrize(("gpu", "machines"), [("RTX-4090", 1), ("L40S", 2), ("A10G", 3)])
def test_a_machine_counted_without_its_cards_is_one_pcie_card_or_an_8_card_board(said: str, n: int, gpu: str, machines: int) -> None:
    args = _args(said.format(m=machines, g=gpu.removeprefix("RTX-")))
    assert args.get("gpu_count") == machines * n, args


@pytest.mark.parametrize("said", [
    "4090 pay-as-you-go 1.98 rmb/h vs monthly package, I use it ~8 hours a day for 30 days. which one?",
    "L4 on-demand at $0.8/hr or a monthly plan, 10 hours a day?", "3090 按量 0.9 元/小时还是包月？每天跑 10 小时",
    "A100 每天用 6 小时，包月划算吗",
])  # fmt: skip
def test_a_card_named_without_a_count_is_one_card_and_the_answer_says_so(said: str) -> None:
    r = ask(said, offline=True)
    call = r.tool_calls[0]
    assert call.name == "compare_billing" and call.result["inputs"]["gpu_count"] == 1
    assert any(a["name"] == "billing.gpu_count" for a in call.result["assumptions"])


@pytest.mark.parametrize("said", [
    "serve {m} to 1M requests a day, ~800 tokens in and 300 out, on L40S", "serve {m}: 1M requests/day, 800 in / 300 out tokens",
    "部署 {m}，每天 100 万次请求，每次 800 进 300 出", "{m} 推理服务，日均请求 100 万次，每次 800 token 进、300 出",
])  # fmt: skip
@pytest.mark.parametrize("model", ["qwen2.5-7b", "llama-3.1-8b"])
def test_a_request_s_tokens_said_as_an_in_out_pair(said: str, model: str) -> None:
    args = _args(said.format(m=model))
    assert (args.get("prompt_tokens"), args.get("output_tokens"), args.get("requests_per_day")) == (800, 300, 1e6), args


@pytest.mark.parametrize(("said", "jobs", "hours"), [
    ("A 30-minute job run 200 times a month on one H100, billed per hour: rounding loss?", 200, 0.5),
    ("A 20-minute task, 50 times a day, on one A10G billed hourly. Overpay?", 50, 1 / 3),
    ("每个任务半小时，一个月跑 200 次，单张 H100 按小时计费，多付多少", 200, 0.5),
    ("每次跑 20 分钟，一天跑 50 次，A10G 按小时计费亏多少", 50, 1 / 3),
    ("我一次实验跑一个半小时，一共跑 12 次，用 3090，按小时计费亏多少", 12, 1.5), ("按小时计费，单次任务跑 40 分钟，一个月 300 次，A10 亏多少", 300, 2 / 3),
    ("Our eval jobs take 6 minutes each, about 200 of them, on one A10G, billed by the hour: overpay?", 200, 0.1),
    ("short jobs, about half an hour each on one 4090, 40 of them: per-minute vs hourly billing?", 40, 0.5),
    ("runs take 20 min apiece on an L4, roughly 500 of them, billed hourly: overpay?", 500, 1 / 3),
])  # fmt: skip
def test_a_job_s_length_and_its_count_in_either_order(said: str, jobs: int, hours: float) -> None:
    args = _args(said)
    assert (args.get("jobs"), args.get("job_hours")) == (jobs, pytest.approx(hours, abs=1e-4)), args


@pytest.mark.parametrize(("said", "share"), [
    ("自己买 8 张 4090 还是租，每天用 12 个小时，用三年", 0.5), ("Buy 2 L40S or keep renting? busy 12 hours a day, 3 years", 0.5),
    ("Own vs rent 4 A100s, 12 hours a day, 5 days a week, over 3 years?", 0.357143), ("4 张 A100 买还是租，每周 5 天、每天 12 小时，用 3 年", 0.357143),
])  # fmt: skip
def test_a_schedule_is_the_utilization_of_owned_cards(said: str, share: float) -> None:
    r = ask(said, offline=True)
    assert r.intent == "compare_own_vs_rent" and r.tool_calls[0].args.get("utilization") == pytest.approx(share, abs=1e-4)


@pytest.mark.parametrize(("said", "n"), [
    ("{m} chatbot, 20k chats/day, cost on L40S?", 20e3), ("support bot on {m} handling 50k conversations a day on A10, monthly cost?", 50e3),
    ("serve {m} for 30k messages per day on L40S", 30e3), ("{m} on L40S with 40k daily requests, cost?", 40e3),
    ("客服机器人 {m}，每天 2 万次会话，用 L40S 一个月多少钱", 2e4), ("{m} 每天 5 万条对话，L40S 部署要多少钱", 5e4),
    ("{m} 一天处理 3 万个请求，部署在 A10 上成本多少", 3e4), ("{m} 日调用量 10 万，A10 部署多少钱", 1e5),
])  # fmt: skip
@pytest.mark.parametrize("model", ["qwen2.5-7b", "llama-3.1-8b"])
def test_a_daily_count_of_requests_in_any_of_their_names_is_the_serving_load(said: str, n: float, model: str) -> None:
    parsed = parse_question(said.format(m=model))
    assert (parsed.intent, parsed.args.get("requests_per_day")) == ("estimate_serving_cost", n), parsed.args


@pytest.mark.parametrize("said", [
    "{m}, daily output of 5 million tokens, L40S cost?", "{m} on L40S generating 5M tokens per day, monthly cost?",
    "每天要生成 500 万 token，用 {m}，L40S 要多少钱", "{m} 推理，日调用量 500 万 token，L40S 多少钱",
])  # fmt: skip
def test_tokens_a_day_are_a_token_load_not_a_request_count_nor_a_billing_mode(said: str) -> None:
    args = parse_question(said.format(m="qwen2.5-7b")).args
    assert (args.get("tokens_per_day"), args.get("requests_per_day"), args.get("billing")) == (5e6, None, None), args


@pytest.mark.parametrize(("said", "price", "unit"), [
    ("{g} 月租 7500 一张，贵不贵", 7500, "gpu_month"), ("{g} 包月 7500 一张，划算吗", 7500, "gpu_month"),
    ("{g} 年租 8 万一张，贵吗", 80000, "gpu_year"), ("{g} 一年 8 万一张，贵吗", 80000, "gpu_year"),
    ("{g} monthly rent 7500 per card, fair?", 7500, "gpu_month"), ("{g} monthly rent of 7500 per card, is that fair?", 7500, "gpu_month"),
    ("{g}, 7500 a month each, fair price?", 7500, "gpu_month"), ("8 {g}s at 1500/month apiece, good deal?", 1500, "gpu_month"),
])  # fmt: skip
@pytest.mark.parametrize("gpu", ["A100 80G", "H100"])
def test_an_amount_after_a_rent_word_or_before_each_is_a_card_s_price(said: str, price: float, unit: str, gpu: str) -> None:
    parsed = parse_question(said.format(g=gpu))
    assert (parsed.intent, parsed.args.get("price"), parsed.args.get("unit")) == ("check_quote", price, unit), parsed.args


@pytest.mark.parametrize(("said", "days"), [
    ("rent 8 H100 for a whole year, cost?", 365), ("rent 8 H100 for the entire month, cost?", 30),
    ("租 8 张 H100 一整年多少钱", 365), ("租 8 张 H100 整整一年多少钱", 365), ("租 8 张 H100 一整个月多少钱", 30),
    ("租 8 张 H100 整整两个月多少钱", 60), ("8 H100s for one full week, cost?", 7),
])  # fmt: skip
def test_a_whole_period_is_that_period(said: str, days: float) -> None:
    assert _args(said).get("days") == days


@pytest.mark.parametrize(("said", "hours"), [
    ("LoRA qwen2.5-7b 1亿token，最晚后天要结果，用 4090 多少钱", 48), ("LoRA qwen2.5-7b 1亿token，明天之前要结果，用 4090 多少钱", 24),
    ("LoRA qwen2.5-7b 1亿token，大后天交付，4090 够吗", 72), ("qlora llama-3.1-8b 5000万 token，最迟明天，A100 多少钱", 24),
    ("LoRA qwen2.5-7b on 100M tokens, need it by tomorrow, cost on 4090?", 24),
    ("LoRA qwen2.5-7b on 100M tokens by the day after tomorrow, cost on a 4090?", 48),
])  # fmt: skip
def test_a_deadline_named_as_a_day_from_today_is_whole_days(said: str, hours: float) -> None:
    r = ask(said, offline=True)
    assert r.tool_calls[0].args.get("deadline_hours") == hours, r.tool_calls[0].args
    assumed = next(p for p in r.answer.split("\n\n") if p.startswith(("**Assumed:**", "**假设：**")))
    assert "whole days from now" in assumed or "整天数" in assumed


@pytest.mark.parametrize("said", ["LoRA qwen2.5-7b 1亿token，周五之前要结果，4090 多少钱", "LoRA qwen2.5-7b on 100M tokens by Friday, cost on 4090?",
                                  "明天开始跑，LoRA qwen2.5-7b 1亿token，4090 要多久"])  # fmt: skip
def test_a_weekday_or_a_start_day_is_no_deadline_in_hours(said: str) -> None:
    assert "deadline_hours" not in _args(said)


@pytest.mark.parametrize(("said", "cards"), [
    ("3090 4090 A100 选哪个做 lora qwen2.5-7b", ["RTX-3090", "RTX-4090", "A100-80GB"]),
    ("3090 4090 or A100 for lora qwen2.5-7b?", ["RTX-3090", "RTX-4090", "A100-80GB"]),
    ("A10 L40S 4090 三选一，跑 qwen2.5-7b 推理", ["A10", "L40S", "RTX-4090"]),
    ("4090 3090 二选一，qlora llama-3.1-8b", ["RTX-4090", "RTX-3090"]),
])  # fmt: skip
def test_a_list_of_card_names_counts_no_card(said: str, cards: list[str]) -> None:
    args = _args(said)
    assert (args.get("gpus"), args.get("gpu_count"), args.get("max_gpus")) == (cards, None, None), args


@pytest.mark.parametrize("said", ["在 A10 L40S 4090 里选一个部署 qwen2.5-7b，每天 1 万次请求", "qwen2.5-7b 部署 L40S，每天 1 万请求，一个月多少钱",
                                  "qwen2.5-7b on L40S, 10k requests a day, monthly cost?"])  # fmt: skip
def test_a_count_of_requests_is_no_money(said: str) -> None:
    args = _args(said)
    assert (args.get("requests_per_day"), args.get("price_per_gpu_hour")) == (1e4, None), args


@pytest.mark.parametrize(("said", "days", "dpw"), [
    ("H20 单价 7 元/卡时，4 卡，一周用 5 天、每天 10 小时，持续 8 周，包月划算吗", 56, 5), ("每周只有周末两天跑，每天 12 小时，2 张 A100，连续 6 周，怎么计费最省", 42, 2),
    ("4 L40S about 9 hours a day, 5 days a week, for the next 12 weeks at $1.10/GPU-hr: monthly plan?", 84, 5),
    ("2 A100s, weekends only, 8 hours each day, for 10 weeks: on-demand or monthly?", 70, 2),
])  # fmt: skip
def test_days_a_week_over_a_period_of_weeks_is_the_period_used_on_that_share(said: str, days: float, dpw: float) -> None:
    from advisor.tools.billing import CompareBillingRequest

    args = _args(said)
    assert (args.get("days"), args.get("days_per_week")) == (days, dpw), args
    assert CompareBillingRequest(**args).usage()[0] == pytest.approx(days * dpw / 7 * args["hours_per_day"])


@pytest.mark.parametrize(("said", "increment"), [
    ("Billing is per-minute at $2.35 per H100 hour. 120 jobs of 15 min each on 8 GPUs: how much would hourly billing add?", "minute"),
    ("billed per-second, 300 jobs of 2 minutes on an A10, vs hourly billing?", "second"),
    ("平台按小时计费，不足一小时按一小时算，200 个任务每个 20 分钟，A10 亏多少", "hour"),
])  # fmt: skip
def test_the_increment_billed_now_and_its_hour_is_no_duration(said: str, increment: str) -> None:
    args = _args(said)
    assert (args.get("increment"), args.get("wall_hours")) == (increment, None), args


@pytest.mark.parametrize(("said", "prompt", "output"), [
    ("host phi-4 for an internal tool, maybe 2,000 requests a day, 600 tokens prompt and 400 tokens answer", 600, 400),
    ("serve qwen2.5-7b, 2k requests/day, 600 tokens of input and 400 tokens of output each, L40S cost?", 600, 400),
    ("部署 qwen2.5-7b，日均请求 2000 次，一次平均输入 600 token、输出 400，L40S 多少钱", 600, 400),
])  # fmt: skip
def test_a_request_s_tokens_with_the_noun_after_the_count(said: str, prompt: int, output: int) -> None:
    args = _args(said)
    assert (args.get("prompt_tokens"), args.get("output_tokens")) == (prompt, output), args


@pytest.mark.parametrize(("said", "tokens_b"), [
    ("llama-3.1-8b 全参，训练 token 总量 5000万，一台 8 卡 H100，大概几个小时", 0.05), ("qwen2.5-7b lora，token 数合计 2 亿，4 张 A100 多少钱", 0.2),
    ("full fine-tune llama-3.1-8b, total tokens 50M, on 8 H100: hours?", 0.05),
])  # fmt: skip
def test_a_token_total_named_before_its_number(said: str, tokens_b: float) -> None:
    assert _args(said).get("tokens_b") == pytest.approx(tokens_b)


@pytest.mark.parametrize(("said", "months"), [
    ("Annual contract: $21k per GPU per year for H100s, 32 GPUs, 3 years. Is that competitive?", 36),
    ("包年签 3 年，H100 每卡每年 15 万，贵吗", 36), ("H100 包年 15 万一张，贵吗", 12), ("yearly plan for 2 years at $2.1/hr per H100, fair?", 24),
])  # fmt: skip
def test_a_yearly_plan_held_for_years_is_that_term(said: str, months: float) -> None:
    assert _args(said).get("term_months") == months


@pytest.mark.parametrize("said", ["We're paying for 8 committed H800s. Over the past 2 weeks utilization averaged 18%. Is that acceptable?",
                                  "8 reserved H800s averaged 18% utilization over the past 2 weeks, wasted spend?"])  # fmt: skip
def test_a_count_with_a_commitment_word_before_its_card(said: str) -> None:
    assert _args(said).get("gpu_count") == 8


@pytest.mark.parametrize("said", [
    "lora qwen2.5-7b，1亿 token，不知道用 4090 还是 {g}，先按 2 张 {g} 算吧", "qlora qwen2.5-7b 5000万 token，4090 和 {g} 都行，就按 2 张 {g} 算",
    "lora qwen2.5-7b on 100M tokens, not sure between 4090 and {g}, assume 2 {g}s for now: cost?",
    "LoRA qwen2.5-7b, 100M tokens; could be a 4090 or an {g}, let's say 2 {g}s. Cost?",
])  # fmt: skip
@pytest.mark.parametrize(("gpu", "gid"), [("A100", "A100-80GB"), ("L40S", "L40S")])
def test_a_card_settled_on_for_the_figures_ends_the_choice(said: str, gpu: str, gid: str) -> None:
    p = parse_question(said.format(g=gpu))
    assert (p.intent, p.args.get("gpu"), p.args.get("gpu_count"), p.args.get("gpus")) == ("estimate_training_cost", gid, 2, None), p.args


@pytest.mark.parametrize("said", ["小程序接了个自己微调的 qwen2.5-7b，日均请求 3000 次，L40S 部署多少钱",
                                  "serve our fine-tuned llama-3.1-8b on L40S, 3k requests a day, monthly cost?"])  # fmt: skip
def test_a_model_already_tuned_names_no_training_stage(said: str) -> None:  # (the intent is read from the cue words)
    p = parse_question(said)
    assert "finetune" not in p.context.get("stage_names", []) and "serving" in p.context.get("stage_names", []), p.context


@pytest.mark.parametrize("said", [
    "qwen3-14b 全参微调 2 亿 token 后部署三个月，每天 2000 万 token，一共多少", "qwen3-14b：full 微调 2 亿 token → 上线 90 天（日均 2000 万 token），整体预算多少",
    "full fine-tune qwen3-14b on 200M tokens -> serve 90 days at 20M tokens/day, total project budget?",
])  # fmt: skip
def test_a_stage_ends_at_after_or_an_arrow(said: str) -> None:
    args = _args(said)
    assert (args.get("finetune_tokens_b"), args.get("serving_days"), args.get("serving_tokens_per_day")) == (0.2, 90, 2e7), args


@pytest.mark.parametrize(("said", "share"), [
    ("8 张 A100 上个月大部分时间空着，利用率估计三成左右，8 元一卡时，亏多少", 0.3), ("8 张 A100 上个月只有不到一半时间在跑，8 元一卡时，浪费多少", 0.5),
    ("8 张 A100 上个月有 60% 的时间是闲着的，8 元一卡时，浪费多少", 0.4), ("8 张 A100 上个月 GPU 使用率在 20% 到 30% 之间，8 元一卡时，浪费多少", 0.25),
    ("8 张 A100 上个月大概三分之一的时间在用，8 元一卡时，浪费多少", 1 / 3),
    ("8 A100s last month, busy maybe a third of the time, $1.8/GPU-hr. How much wasted?", 1 / 3),
    ("8 A100s last month, utilization between 20 and 30%, $1.8/hr, wasted spend?", 0.25),
    ("8 A100s last month, running about three quarters of the time, $1.8/hr, wasted spend?", 0.75),
    ("our 8 A100 were at 0.4 utilization over the past two weeks, $1.8/hr: how much did we waste?", 0.4),
])  # fmt: skip
def test_a_utilization_said_as_a_share_of_the_time_a_fraction_or_a_range(said: str, share: float) -> None:
    p = parse_question(said)
    assert p.intent == "analyze_usage" and p.args.get("avg_utilization") == pytest.approx(share, abs=1e-4), p.args


@pytest.mark.parametrize(("said", "jobs", "hours"), [
    ("按小时计费，每天 40 个短任务，每个 10 分钟，连续 30 天，A10 亏多少", 1200, 1 / 6), ("每周 20 个任务，每个 45 分钟，跑 8 周，H100 按小时计费多付多少", 160, 0.75),
    ("40 short jobs a day, 10 minutes each, for 30 days on an A10 billed hourly", 1200, 1 / 6),
    ("200 runs a month, 20 minutes each, for 3 months on an L4, billed hourly", 600, 1 / 3),
    ("一天跑 50 次，每次 20 分钟，A10G 按小时计费亏多少", 50, 1 / 3),
    ("按小时计费，300 个评测任务，单个耗时 7 分钟左右，A10 多付多少", 300, 7 / 60), ("按小时计费，300 个任务各跑 7 分钟，A10 多付多少", 300, 7 / 60),
    ("300 eval jobs averaging 7 minutes on an A10, billed hourly: overpay?", 300, 7 / 60),
    ("300 jobs, 7 minutes per job, one A10, hourly billing: overpay?", 300, 7 / 60),
])  # fmt: skip
def test_jobs_a_day_week_or_month_over_a_period_and_their_length_in_other_words(said: str, jobs: int, hours: float) -> None:
    r = ask(said, offline=True)
    args = r.tool_calls[0].args
    assert (args.get("jobs"), args.get("job_hours")) == (jobs, pytest.approx(hours, abs=1e-4)), args
    assert (jobs == 50 or jobs == 300) or any(w in r.answer for w in ("Jobs over the period", "整个周期的任务数"))


@pytest.mark.parametrize(("said", "hours"), [
    ("lora qwen2.5-7b 1亿token，4 张 A100，明天就要，6 个小时能跑完吗", 6), ("lora qwen2.5-7b 1亿token，4 张 A100，后天交付，8小时内能训完吗", 8),
    ("lora qwen2.5-7b 1亿token，4 张 A100，最晚后天，给 10 小时够不够", 10),
    ("LoRA qwen2.5-7b on 100M tokens on 4 A100s, deadline is tomorrow; can it be done in 6 hours?", 6),
    ("LoRA qwen2.5-7b on 100M tokens on 4 A100s, need it by tomorrow, within half a day?", 12),
    ("LoRA qwen2.5-7b on 100M tokens on 4 A100s by tomorrow: are 6 hours of compute enough?", 6),
])  # fmt: skip
def test_a_duration_asked_about_beats_the_day_it_is_due(said: str, hours: float) -> None:
    r = ask(said, offline=True)
    assert r.tool_calls[0].args.get("deadline_hours") == hours, r.tool_calls[0].args


@pytest.mark.parametrize(("said", "field", "value"), [
    ("买 8 张 4090 自建还是租，打算用两年半", "years", 2.5), ("8 张 4090 买还是租，折旧按三年半算", "years", 3.5),
    ("own vs rent 8 4090s over 2.5 years", "years", 2.5),
    ("qlora qwen2.5-7b on 50M tokens, we've got about 300 bucks, how many 4090s?", "budget", 300),
    ("qlora qwen2.5-7b on 50M tokens with a $300 ceiling, which GPU should we rent?", "budget", 300),
    ("qlora qwen2.5-7b on 50M tokens, $300 cap, which GPU should we rent?", "budget", 300),
    ("qlora qwen2.5-7b 5000万 token，手头大概 300 块，租什么卡", "budget", 300),
])  # fmt: skip
def test_half_years_and_budgets_in_other_words(said: str, field: str, value: float) -> None:
    assert _args(said).get(field) == value


@pytest.mark.parametrize("said", ["We're paying for 8 committed H800s. Over the past 2 weeks utilization averaged 18%. Is that acceptable?",
                                  "8 reserved H800s averaged 18% utilization over the past 2 weeks at $2/hr, wasted spend?",
                                  "8 张 H800 是包年的，过去两周平均利用率 18%，浪费多少"])  # fmt: skip
def test_a_billing_word_inside_a_counted_card_is_the_billing_mode(said: str) -> None:
    args = _args(said)
    assert (args.get("gpu_count"), args.get("billing_mode")) == (8, "committed"), args
