"""The intent is scored from the question's structure — what is asked × which quantities are present —
so the same structure in other words (and the other language) gets the same job."""

from __future__ import annotations

import pytest

from advisor.assistant import ask
from advisor.assistant.offline import intent as intent_mod
from advisor.assistant.offline.intent import features
from advisor.assistant.offline.lexicon import lexicon
from advisor.assistant.offline.parse import parse_question, read

CASES = {
    "check_quote": [  # a quoted price for a card (+ a term or a yes/no), no workload
        "$2.10/GPU-hour for H100 on a 12-month commitment, good deal?", "vendor offers A100 80GB at $1.4/hr — fair?",
        "H100 每卡每小时 14 元，签一年，贵不贵", "供应商给 A800 报价每卡每月 9000 元，合理吗",
        # is the price high, asked in other words
        "H100 每卡时 17 元，签一年，是不是有点贵", "4090 一小时 2.2 元，偏贵吗", "供应商给 A800 报每卡每小时 8 元，高不高",
        "H800 每卡时 15 元，贵了吗",
        # a rental price over its period asked good or bad (划算吗, 值吗, worth it?): the quote is judged, not the billing
        "一年租32张H800，每卡每月2万，划算吗", "租一年 16 张 A100，每张每月 1.2 万，这个价格划算吗？", "H20 一张一个月 6500，租 12 个月，划不划算",
        "16 A100s for 12 months at $1,400 per GPU per month — worth it?", "rent 32 H800 for a year at $2800 per card per month, worth it?",
    ],
    "estimate_serving_cost": [  # a daily load and a model, no training
        "serve qwen2.5-72b, 50M tokens a day on H20 — monthly cost?", "部署Qwen2.5-72B推理服务，每天5000万token，用H20",
        "We expect 200M tokens/day through llama-3.1-8b in production. How much per month?",
        "we're going to host mistral-7b for our chatbot, which GPUs and how much per month?",  # which card: the serving tool picks it
        "build an inference server for llama 3 70b on 2 H100s, how much a month?",  # building a service is no purchase
        "部署一个qwen2.5-14b的在线推理服务，用什么卡合适",
        # a model already trained: its training words name no job when no data amount is given
        "qwen2.5-7b 微调完之后要上线，每天 200 万 token，用 4090 部署一个月多少钱",
        "Our fine-tuned llama-3-8b will serve about 3M tokens a day. Monthly cost on L4s?",
        "我们已经微调好了 glm-4-9b，准备部署推理，每天 100 万 token，用 A10 一个月多少钱",
        "We've already fine-tuned mistral-7b. Hosting it for 2M tokens/day on an A10G, what's the monthly bill?",
        "once it's trained, llama-3-8b will answer about 4M tokens daily. cost per month on L40S?",
        "精调过的 qwen2.5-14b 上线给客服用，用什么卡", "we want to deploy our fine-tuned qwen2.5-14b for customer support. which GPU?",
        # two cards weighed for a daily load: a serving choice, not a training recommendation
        "每天 800 万 token 的调用，用 llama-3-8b，租 L4 划算还是 A10 划算", "For 30M tokens/day on qwen2.5-14b, is L40S or A100 cheaper to run?",
    ],
    "recommend_hardware": [  # several cards weighed, or which card, for a workload
        "A100 or H100 for a LoRA of llama-3-8b on 100M tokens?", "全参微调13B，20亿token，H800和A800比哪个划算",
        "What hardware should we rent to fine-tune qwen2.5-7b on 50k samples?", "微调Qwen2.5-7B，1亿token，租什么卡最划算？",
        "Pick the GPUs for a LoRA of llama 3 70b, 1M samples of 512 tokens.", "想用最少的钱把llama3-70b lora训完，数据1亿token，怎么配卡",
        "full fine-tune llama-3-8b on 500M tokens — how many H100s do we need?", "how many 4090s for a qlora of qwen2.5-7b on 20M tokens?",
        "LoRA qwen2.5-14b on 300M tokens, how many A100 GPUs would it take?", "qwen2.5-32b lora 5000万token，要几张A100",
        # which kind of card, machine or instance, a Latin name spaced from the Chinese around it
        "我们想全参训一个 7B 的模型，大概 2 亿 token，应该租哪种 GPU", "qwen2.5-7b lora 3000万 token 用什么 GPU 好",
        "qlora qwen2.5-14b 五千万 token，啥 GPU 合适", "glm-4-9b lora 训练 4000 万 token，租哪种实例划算",
        "全参微调 qwen2.5-7b，2 亿 token，选什么型号的机器", "LoRA qwen2.5-7b on 30M tokens — what kind of GPU should we rent?",
        "full fine-tune llama-3-8b, 200M tokens: which type of instance is cheapest?",
        "qlora mistral-7b on 20M tokens, what size of machine do we need?",
        "what machines should we get to fine-tune llama-3.1-8b on 100M tokens?",
        # how the hardware is arranged, which ones, what you would rent, one of three
        "qwen2.5-14b lora，数据 6000 万 token，五天内交付，硬件怎么安排", "全参训 qwen2.5-7b，2 亿 token，预算 1 万，能用哪些卡",
        "LoRA llama-3-8b on 60M tokens, budget $800: what would you rent?", "lora qwen3-8b 5000万token，A10、L40S、4090 三选一",
        "Need llama-3.1-8b full FT on 100M tokens in 12 hours — what's the setup?", "qwen2.5-7b 全参 1 亿 token，卡该怎么配",
        # two cards weighed for a job's data, asked as a cost difference
        "H100 和 A100 跑 qwen2.5-7b lora 5000 万 token 差多少钱", "A100 or H100 for a LoRA of llama-3-8b on 100M tokens, how much does each cost?",
    ],
    "compare_own_vs_rent": [  # owning words, cards and a utilization: not a usage analysis
        "Buy vs rent for 64 H100s over 3 years at 70% utilization?", "买8张H100自建还是一直租？利用率大概60%，按3年算",
        "does owning 16 H200s make sense at 30% utilization over 4 years?", "910B 买断还是租？128卡，预计使用率七成",
        "Is purchasing 8 H100 cheaper than renting if utilization is 40% over 4 years?",
        # building or assembling a machine weighed against renting on
        "build a box with 2x 4090 or keep renting?", "is it cheaper to put together a workstation with two 4090s than to keep renting one?",
        "自己组装一台双 4090 的主机，还是继续租？", "组一台 2 卡 4090 工作站 vs 租卡，三年下来哪个省", "与其每月租，不如自己配一台 4090 主机？",
    ],
    "analyze_usage": [  # a utilization or idle time, nothing to buy
        "our 32 A100s averaged 40% utilization last month at $2/GPU-hour, how much did we waste?",
        "32张卡利用率只有35%，每卡每小时10元，浪费了多少", "I left an A10G instance running 60 hours doing nothing at $1/hr, how bad?",
        # cards left running (forgotten, never switched off)
        "we forgot to shut down 4 A10Gs for 5 days, $1.1/hr each. how much did that burn?",
        "left 2 H100s running all weekend (48 hours), $3/hr. what did it cost?",
        "忘记关机了，两张 A100 开了 3 天，每卡时 10 元，亏了多少", "4 张 4090 一直开着没关，一周，每小时 2 元，浪费多少",
        "上周 4 张 A100 大部分时间都闲着，每卡每小时 9 元，损失多少", "8 张 4090 基本在吃灰，每小时 2 元，一个月亏多少",
        # what idle cards cost us, asked as a cost of ours (not what idle cost means)
        "帮我算一下8张A100的闲置成本", "what's our idle cost on 16 H100s?", "what does the idle time on our 8 A100s cost?",
        "我们一直租着 8 张 A100，利用率只有 20%，浪费了多少",
    ],
    "onboarding": [  # new on a team or in a role
        "new on the infra team — can you give me a quick overview of what matters for GPU costs?",
        "I'm new in the ML platform group, what should I learn first about renting GPUs?", "刚加入基础设施团队，租 GPU 这块从哪开始了解",
        # just moved into a role (转岗, first week on, just joined)
        "我刚转岗做算力采购，该先了解哪些东西", "first week on the ML infra team, what should I know about GPU costs?",
        "just joined the platform team as a finance analyst, where do I start with GPU spend?", "新上任负责算力预算，先要搞懂什么",
    ],
    "plan_project": [  # several stages with their amounts
        "small project on 4090s: qlora glm-4-9b 30M tokens, then serve ~1M tokens a day for 2 months. total?",
        "先qlora微调qwen2.5-7b 2000万token，然后每天100万token上线3个月，总共多少钱",
        "先用 lora 训 qwen2.5-7b（5000 万 token），训练完之后上线 3 个月每天 300 万 token，总成本",  # trained, with its data: a plan
        "LoRA llama-3-8b on 30M tokens; once we're done training it serves 2M tokens/day for 60 days. total?",
    ],
    "compare_billing": [  # many short jobs on a card: the billing increment, even asked as "what's the difference"
        "200 sweep jobs, ~12 minutes each, 1 A100 each. per-second vs per-hour billing — what's the difference?",
        "500个任务，每个20分钟，单张4090，按小时计费和按秒计费差多少",
        # a rental price weighed against a billing mode, or a cost asked: the billing, not a quote check
        "一年租32张H800，每卡每月2万，跟按量比哪个划算", "继续租 8 张 A100 包月划算还是按量划算",
    ],
    "search_knowledge": [  # why/what questions about billing modes or concepts, no job
        "Why are spot instances so much cheaper than on-demand?", "为什么竞价实例比按量便宜这么多？",
        "autodl关机了还扣钱吗？关机和释放实例有什么区别", "What is activation checkpointing?",
        "what is MFU?", "what is idle cost?", "什么是闲置成本？",  # one term to define is a topic
    ],
    "estimate_training_cost": [  # one card chosen in place of another: price the run on it
        "If we use H20s instead of H100s — LoRA qwen2.5-32b, 50M tokens, 8 GPUs — what's the bill?",
        "不用H100，换成H20跑qwen2.5-32b的LoRA，5000万token，8张卡，多少钱",
        "把训练好的 qwen2.5-7b 再用 2000 万 token 继续微调，4 张 A100 多少钱",  # a trained model trained further on new data
        "continue training our fine-tuned llama-3-8b on another 20M tokens with LoRA on 4 A100s — cost?",
    ],
    "out_of_scope": ["What's the weather in Shanghai tomorrow?", "帮我写一首关于春天的诗",
                     # acting on a system, or writing verse, even about a card
                     "帮我把这台 A100 服务器的驱动装一下", "can you install the CUDA drivers on our H100 box?",
                     "write a poem about H100s", "给 4090 写一首诗"],
}
METHOD_QUESTIONS = [  # how something is worked out, with no job given: the guides, not a clarification
    "How do I estimate how many GPUs I need for training?", "怎么判断训练需要几张卡", "how do I choose the right GPU for fine-tuning?",
    "如何选择适合微调的显卡", "how can we figure out which instance type to rent for inference?", "部署推理服务时怎么确定要多少张卡",
]
METHOD_WITH_A_JOB = {  # the same ask with a workload is the job itself
    "怎么选卡：qwen2.5-7b lora，3000 万 token": "recommend_hardware",
    "how should we pick GPUs for a LoRA of llama-3-8b on 50M tokens?": "recommend_hardware",
}


@pytest.mark.parametrize("text", METHOD_QUESTIONS)
def test_how_a_thing_is_worked_out_is_a_guide_question(text: str) -> None:
    assert parse_question(text).intent == "search_knowledge"


@pytest.mark.parametrize(("text", "job"), METHOD_WITH_A_JOB.items())
def test_how_to_choose_for_a_stated_workload_is_the_job(text: str, job: str) -> None:
    assert parse_question(text).intent == job


@pytest.mark.parametrize("first", ["8 A100s, LoRA qwen2.5-14b on 80M tokens, cost?", "8 张 A100 LoRA 微调 qwen2.5-14b，8000 万 token，多少钱"])
@pytest.mark.parametrize("then", ["is that the cheapest option?", "这是最便宜的方案吗", "any cheaper card?", "有更便宜的卡吗"])
def test_a_follow_up_naming_no_job_asks_about_the_job_held(first: str, then: str) -> None:
    """No job of its own, a card asked about: the held workload's card choice; an unrelated question stays unrelated."""
    before = parse_question(first)
    r = parse_question(then, before)
    assert r.intent == "recommend_hardware" and r.args["model"] == "qwen2.5-14b" and r.args["tokens_b"] == pytest.approx(0.08)


@pytest.mark.parametrize("then", ["What's the weather in Shanghai tomorrow?", "明天上海天气怎么样"])
def test_an_unrelated_question_after_a_job_is_not_about_it(then: str) -> None:
    assert parse_question(then, parse_question("serve llama-3-8b at 5M tokens/day on L4, monthly cost?")).intent == "out_of_scope"
IN_SCOPE = {  # no domain word, but a billing mode, a stage or a concept the guides explain: never out of scope
    "compare_billing": ["夜里闲时跑预处理能便宜多少？大概30%的任务可以放到晚上", "could we push the preprocessing to off-peak hours?"],
    "search_knowledge": ["为什么要先做小规模测试再扩容？", "why do people run a pilot before scaling up?"],
}
KNOWLEDGE_NOT_UNCLEAR = [  # a how-to question with nothing to price is for the guides; only a job's cue words alone are unclear
    "算力租赁合同一般要注意哪些条款", "签算力合同有哪些坑要注意", "what should we look for in a GPU rental contract?",
]


@pytest.mark.parametrize("text", KNOWLEDGE_NOT_UNCLEAR)
def test_a_how_to_question_with_nothing_to_price_goes_to_the_guides(text: str) -> None:
    assert parse_question(text).intent == "search_knowledge"


@pytest.mark.parametrize(("expected", "text"), [(k, t) for k, texts in CASES.items() for t in texts])
def test_the_same_structure_gets_the_same_job(expected: str, text: str) -> None:
    assert parse_question(text).intent == expected


@pytest.mark.parametrize(("job", "text"), [(k, t) for k, texts in IN_SCOPE.items() for t in texts])
def test_a_question_naming_a_billing_mode_stage_or_concept_is_in_scope(job: str, text: str) -> None:
    assert parse_question(text).intent not in ("out_of_scope", "clarify")


def test_every_feature_the_evidence_names_can_be_read() -> None:
    """A feature misspelt in knowledge/lexicon.yaml would silently never hold."""
    lex = lexicon()
    readable = set(lex["asks"]) | set(lex["present"]) | {"serving", "training", "quote", "own", "fit", "contract",
                                                          "domain", "verdict", "topic", "workload", "gpus2",
                                                          "gpu_changed", "modes", "modes2", "stages2", "doc_file",
                                                          "usage_file", "quantity"}
    named = {f for e in lex["intent_evidence"] for key in ("all", "any", "also", "none") for f in e.get(key, ())}
    assert named <= readable, named - readable
    assert {"workload", "data", "gpu", "verdict"} <= features(read("LoRA llama-3-8b on 100M tokens on H100, enough?"))


def test_two_tools_that_tie_ask_which_job_and_the_answer_keeps_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Within the margin, the assistant asks which of the two jobs is meant (naming both), and the
    reply "the cost" runs that job with everything said before."""
    asks, present, evidence, selection, quantities = intent_mod._vocabulary()
    monkeypatch.setattr(intent_mod, "_vocabulary", lambda: (asks, present, evidence, {**selection, "margin": 100}, quantities))
    first = parse_question("LoRA llama-3-8b on 100M tokens, which GPU and what does it cost?")
    assert first.intent == "clarify"
    assert len(first.choices) >= 2 and first.choices[0] == "recommend_hardware"
    assert "recommend hardware" in (first.clarify_question or "") and "estimate the cost" in (first.clarify_question or "")
    monkeypatch.undo()
    reply = parse_question("estimate the cost please", first)
    assert reply.intent == "estimate_training_cost"
    assert reply.args.get("model") and reply.args.get("tokens_b") == pytest.approx(0.1)


@pytest.mark.parametrize(("quote", "then"), [
    ("供应商报H100每卡时18元，贵不贵", "按美元看呢，这价格跟海外云比算贵吗"),
    ("vendor quotes A100 80GB at $1.60 per GPU-hour, fair?", "and compared with the market, is that price still ok?"),
])  # fmt: skip
def test_a_price_question_in_a_quote_conversation_keeps_checking_the_quote(quote: str, then: str) -> None:
    first = parse_question(quote)
    assert first.intent == "check_quote"
    assert parse_question(then, first).intent == "check_quote"


@pytest.mark.parametrize("text", ["Is this a good price?", "这个报价合理吗？", "is that a fair deal?"])
def test_a_price_question_with_nothing_to_check_asks_what_to_do(text: str) -> None:
    assert parse_question(text).intent == "clarify"


FIRST_TURNS = {
    "estimate_training_cost": ["用8张A100 LoRA微调Qwen2.5-7B，2亿token，多少钱", "LoRA llama-3-8b on 200M tokens with 8 A100s, what's the cost?"],
    "estimate_serving_cost": ["部署Qwen2.5-72B推理服务，每天5000万token，用H20，一个月多少钱",
                              "Serve llama-3.1-8b at 20M tokens per day on L4s. Monthly cost?"],
    "check_quote": ["供应商报H100每卡时18元，签一年，贵不贵", "vendor quotes A100 80GB at $1.60 per GPU-hour on a 12-month term, fair?"],
    "compare_own_vs_rent": ["16张H100，利用率60%，买还是租划算，算3年", "At 60% utilization, does owning 16 H100s make sense over 3 years?"],
    "compare_billing": ["包月还是按量？16张H100用两个月", "16 H100s for two months: monthly or on-demand?"],
}
KEEPS = ["那用 H100 呢", "what about 16 cards?", "换成A800的话呢", "what if we use H200s instead?", "same thing with 32 GPUs?",
         "卡数翻倍呢", "如果用 H20 呢，贵不贵", "and with H100s, is it still worth it?"]


@pytest.mark.parametrize(("job", "first"), [(k, t) for k, texts in FIRST_TURNS.items() for t in texts])
@pytest.mark.parametrize("then", KEEPS)
def test_a_follow_up_that_changes_a_field_keeps_the_job(job: str, first: str, then: str) -> None:
    """"那用 H100 呢", "what about 16 cards?", "…贵不贵" change a card, a count or ask yes/no: the same job
    (a quote or yes/no word alone is not another job)."""
    assert parse_question(then, parse_question(first)).intent == job


@pytest.mark.parametrize("first", FIRST_TURNS["estimate_training_cost"])
@pytest.mark.parametrize("then", ["换成包月", "改成按量计费呢", "what about spot?", "switch it to monthly billing"])
def test_a_new_billing_mode_for_an_estimate_keeps_the_estimate(first: str, then: str) -> None:
    r = parse_question(then, parse_question(first))
    assert r.intent == "estimate_training_cost" and r.args.get("billing")


@pytest.mark.parametrize("first", FIRST_TURNS["estimate_training_cost"])
@pytest.mark.parametrize(("then", "job"), [
    ("包月和按量哪个划算？", "compare_billing"), ("spot or on-demand for this one?", "compare_billing"),
    ("那用什么卡最划算？", "recommend_hardware"), ("which GPU would be cheapest for this?", "recommend_hardware"),
])  # fmt: skip
def test_a_follow_up_that_clearly_asks_another_job_switches(first: str, then: str, job: str) -> None:
    r = parse_question(then, parse_question(first))
    assert r.intent == job and r.is_followup and r.context.get("model")  # the job said before is kept


MORE_CASES = {  # set3 dev classes, each in other words and both languages
    "estimate_training_cost": [  # a fit question in other words: a memory check, no data needed
        "3090 两张，lora gemma-2-27b，显存吃得消不", "80G 显存能放下 yi-34b 的全参训练吗？", "单张 4090 做 qwen2.5-7b 的 qlora 吃不消吧？",
        "Can 8x A100 40GB hold a full fine-tune of qwen2.5-32b with ZeRO-3?", "will 2 L40S hold a LoRA of llama-3-70b?",
    ],
    "search_knowledge": ["ZeRO-2 和 ZeRO-3 在显存上差在哪", "LoRA 和 QLoRA 区别在哪？", "按量和包月到底差在哪里"],
    "check_quote": [  # a stated price for a card: "how does that compare", "what is the market…" ask about the quote
        "L40S at $0.89/GPU-hr for 36 months: how does that compare with the market?",
        "what is the market saying about A100 at $1.2/hr for 12 months?", "H800 一卡一月 ¥9000，租 32 张，这个价位在市场上算什么水平",
    ],
    "onboarding": ["第一次用这个工具，能带我走一遍吗", "I'm new here, can you walk me through it?"],  # no domain word, still in scope
    "review_contract": ["Review the terms: support and software licenses billed separately, not included in the hourly rate."],
}


@pytest.mark.parametrize(("expected", "text"), [(k, t) for k, texts in MORE_CASES.items() for t in texts])
def test_more_structures_get_their_job(expected: str, text: str) -> None:
    assert parse_question(text).intent == expected


@pytest.mark.parametrize(("first", "then", "job"), [
    ("qwen2.5-14b 全参微调，1亿token，16卡A800，多少钱", "要是只给 8 张卡，钱和时间分别怎么变", "estimate_training_cost"),
    ("Full fine-tune llama-3-8b on 300M tokens with 16 H100s, cost?", "if we only had 8 GPUs, how would cost and time change?",
     "estimate_training_cost"),
    ("Plan: full fine-tune mistral-7b on 100M tokens, then serve 20M tokens/day for 365 days", "Change serving to 50M tokens a day.",
     "plan_project"),
    ("先全参微调qwen2.5-7b 2亿token，然后上线每天1000万token跑半年，总共多少钱", "上线那部分改成每天5000万token呢", "plan_project"),
    ("qwen2.5-14b 全参微调，1亿token，16卡A800，多少钱", "什么是ZeRO-3？", "search_knowledge"),  # a side question
])  # fmt: skip
def test_a_how_question_or_a_stage_value_in_a_follow_up_changes_the_job(first: str, then: str, job: str) -> None:
    """A "how would it change" question that gives a field of the job (a card count, a plan stage's load)
    keeps the job; a definition with nothing of the job is a side question."""
    assert parse_question(then, parse_question(first)).intent == job


STATED_CLAUSES = {  # session 5 classes: each the structure in other words, both languages
    "review_contract": [  # a contract said to hold a clause, in the user's words (no quoted text): review it
        "合同里规定：每月最低消费30万，用不满也按30万收，这条有没有坑", "供应商协议写着关机后照常计费，这个能签吗",
        "他们合同里说实例释放后数据马上删除，我们要注意什么", "合同约定 SLA 99.5%，赔偿最多当月费用的10%，可以接受吗",
        "The agreement says reserved hours we don't use expire at the end of each month. Is that normal?",
        "Their MSA states they may terminate with 7 days notice while we must give 90. Should we push back?",
        "The vendor's terms say partial hours are billed as full hours and reserved capacity is non-refundable. Worried?",
        "Our SLA only credits 5% of the monthly fee for long outages — is that standard?",
    ],
    "search_knowledge": [  # a billing mode or two cards asked about, nothing to price: the guides
        "按量计费的实例关机以后还扣钱吗", "how do reserved instances work?", "包年计费一般怎么退订？",
        "What's the difference between H100 and H200?", "为什么H100比A100贵这么多", "L40S 和 A100 差在哪",
    ],
    "out_of_scope": [  # a recommendation or a question outside compute cost: say so, do not guess a job
        "推荐一部好看的电影", "推荐几本学英语的书", "Recommend a good laptop for college.",
        "Who won the football game last night?", "帮我订一张去北京的机票",
    ],
    "compare_own_vs_rent": [  # buying words with a count, or "buy … or rent"
        "我们考虑采购16张H20，利用率大概50%，用3年，买划算还是租划算", "购入 32 张 A800 放自己机房，五年下来比租便宜吗",
    ],
    "analyze_usage": [  # cards sitting idle, with a price: the waste
        "we've got 16 A100s sitting idle 12 hours a day at $1.8/hr. what does that cost us monthly?",
        "8张H800每天有一半时间空转，每卡每小时15元，一个月白花多少",
    ],
    "recommend_hardware": ["14B lora 数据 10 万条每条 1k token，给个硬件方案", "qwen2.5-7b 全参 2 亿 token，出个配置方案"],
}


@pytest.mark.parametrize(("expected", "text"), [(k, t) for k, texts in STATED_CLAUSES.items() for t in texts])
def test_what_is_asked_about_what_decides_the_job(expected: str, text: str) -> None:
    assert parse_question(text).intent == expected


SEQUENCES = {
    "plan_project": [  # phases in sequence: two stages, or two card groups each for a time
        "先租 4 张 A800 试跑 5 天，效果好再上 32 张 H100 跑一个月，一共多少钱", "试点阶段 2 张 L40S 跑一周，正式阶段 16 张 A100 跑 20 天，各多少钱",
        "First a 5-day pilot on 4 L40S, then 30 days on 64 H100s. Total cost?",
        "先预训练再微调：3B 模型预训练 500 亿 token，微调 1000 万 token，两个阶段分别多少钱",
        "We'll pretrain a 2B on 40B tokens, then instruction-tune it on 10M tokens. What does each step cost?",
    ],
    "recommend_hardware": [  # a choice among cards, asked in other words
        "Choose between H100 and H200 for a LoRA of llama-3.1-70b on 80M tokens.",
        "在 A800 和 H800 之间选一个来全参微调 qwen2.5-14b，2 亿 token", "qwen2.5-32b lora，3000 万 token，给个卡型和卡数",
        "微调 llama3-8b，2000 万 token，不想用 A100，还有什么选择",
    ],
    "estimate_training_cost": ["只有一张 24G 的 4090，qwen2.5-7b 做 lora 能跑起来吗"],  # a fit question: a memory check
    "clarify": ["So is the other option cheaper or not?", "第二个方案是不是更省？"],  # points at something never said
    "out_of_scope": ["帮我查一下明天的天气", "给我讲个笑话吧"],
}


@pytest.mark.parametrize(("expected", "text"), [(k, t) for k, texts in SEQUENCES.items() for t in texts])
def test_a_sequence_a_choice_or_a_pointer_decides_the_job(expected: str, text: str) -> None:
    assert parse_question(text).intent == expected


@pytest.mark.parametrize(("first", "then", "job"), [
    ("Which GPU for LoRA of qwen2.5-14b on 100M tokens?", "budget is $800", "recommend_hardware"),  # a field alone
    ("qwen2.5-14b lora 1亿token，用什么卡最划算", "最多 8 张卡", "recommend_hardware"),
    ("用8张A100 lora qwen2.5-7b，数据1亿token，多少钱", "数据再加一倍", "estimate_training_cost"),  # a factor, no marker
    ("LoRA qwen2.5-7b on 100M tokens with 8 A100s, cost?", "triple the data", "estimate_training_cost"),
    ("32 张 A100 上个月利用率 30%，每卡时 8 元，浪费多少", "利用率提到 70% 能省多少", "analyze_usage"),  # a change verb
    ("qwen2.5-14b lora 1亿token，用什么卡最划算", "就用 4 张 A800 吧，多少钱", "estimate_training_cost"),  # picked a card
])  # fmt: skip
def test_a_follow_up_giving_only_fields_of_the_job_keeps_it(first: str, then: str, job: str) -> None:
    r = parse_question(then, parse_question(first))
    assert r.intent == job and r.is_followup


NOTHING_SAID_BEFORE = {
    "clarify": [  # points at an earlier answer or option that was never given: ask, do not guess
        "用之前算的那个方案，再便宜点行吗", "Same as before, but cheaper?", "Can you redo it with the earlier numbers?",
        "这两个哪个好", "Which of the two is better?",
    ],
    "out_of_scope": [  # a request outside the product, even naming a GPU or a price
        "Write a limerick about GPUs.", "帮我写个小红书文案", "What's the best gaming monitor under $400?",
    ],
    "estimate_training_cost": [  # a plan word with one stage only is that stage's estimate
        "for the roadmap slide: LoRA qwen2.5-14b on 60M tokens with 8 A100s, rough cost?",
        "写进项目规划里：qwen2.5-7b lora，5000万 token，4 张 A800，大概多少钱",
    ],
}


@pytest.mark.parametrize(("expected", "text"), [(k, t) for k, texts in NOTHING_SAID_BEFORE.items() for t in texts])
def test_a_pointer_a_request_or_a_single_stage_plan_word(expected: str, text: str) -> None:
    assert parse_question(text).intent == expected


@pytest.mark.parametrize("text", [
    "We need a 7B LoRA run on 40k samples done in 2 days. How much would it cost?",
    "what would pretraining a 3B model on 100B tokens run us on 128 H100s?", "a 13B model run on 200M tokens with 8 A100s, cost?",
])  # fmt: skip
def test_a_model_size_or_a_token_count_before_run_is_no_job_count(text: str) -> None:
    r = parse_question(text)
    assert "jobs" not in r.context and r.intent == "estimate_training_cost"


@pytest.mark.parametrize(("text", "job"), [
    ("对方的合同里续约那块怎么处理比较好，帮我把关一下", "review_contract"),
    ("Can you check our cloud agreement for price-increase traps and how to push back?", "review_contract"),
    ("What should we watch out for in the provider's SLA before signing?", "review_contract"),
    ("算力租赁合同一般要注意哪些条款", "search_knowledge"), ("What should we look for in a GPU rental contract?", "search_knowledge"),
])  # fmt: skip
def test_someones_own_contract_is_reviewed_contracts_in_general_are_a_guide(text: str, job: str) -> None:
    assert parse_question(text).intent == job


@pytest.mark.parametrize(("expected", "text"), [
    # a card choice with a constraint is a recommendation even when one card is named ("X or another?", "有没有便宜点的")
    ("recommend_hardware", "qwen2.5-7b全参微调 3亿token 三天内跑完 最多16张卡 用A800还是别的"),
    ("recommend_hardware", "老板让用4090训qwen2.5-7b lora 数据2000万token 预算3000块 换别的卡会不会更省"),
    ("recommend_hardware", "用H800太贵了 qwen2.5-14b lora 8000万token 有没有便宜点的方案"),
    ("recommend_hardware", "预算只有五千 想qlora一个14b 数据1千万token 租啥卡"),
    ("recommend_hardware", "We were going to use H100s for a QLoRA of llama-3.1-8b on 20M tokens, is there another card that works?"),
    ("recommend_hardware", "Full FT of qwen2.5-7b on 300M tokens in 3 days on A800s, or a different card?"),
    # how many of the one named card, with a deadline: the estimate sizes the count
    ("estimate_training_cost", "qwen2.5-72b lora 数据1亿 token 48小时内 H100要几张"),
    ("estimate_training_cost", "LoRA of a 34B model on 150M tokens on H100s, 36 hour deadline: how many GPUs and what does it cost?"),
    # what the product does not do, near its words: one honest line, not a guess at a job
    ("out_of_scope", "帮我算一下公司今年的企业所得税"), ("out_of_scope", "can you file our GPU expenses as a tax deduction for us?"),
    ("out_of_scope", "租卡合同的违约金条款在法律上有效吗 我们能告他们吗"), ("out_of_scope", "is this contract legally enforceable? can we sue?"),
    ("out_of_scope", "帮我登录服务器把训练任务停掉"), ("out_of_scope", "please restart the training job on our cluster"),
    ("out_of_scope", "帮我找几篇关于LoRA的论文"), ("out_of_scope", "find me the latest papers on QLoRA"),
    ("out_of_scope", "显卡挖矿一天能赚多少钱"), ("out_of_scope", "how much does a 4090 cost on ebay for gaming"),
    # a price or time asked about nothing named: ask what to work out
    ("clarify", "整个下来多少钱啊"), ("clarify", "多久能搞完"), ("clarify", "what would that cost us per month?"),
    ("clarify", "which option is cheaper?"), ("clarify", "怎么算最省"),
    # idle time in other words, and bought cards weighed against renting
    ("analyze_usage", "nobody has used our 8 H100s for two weeks, at $2.4/GPU-hour what did that cost us?"),
    ("analyze_usage", "集群里32张4090 上周整整7天没跑任务 2块一卡时 白花了多少"),
    ("compare_own_vs_rent", "we bought 48 H100s, they're about 55% busy over 4 years, would renting have been cheaper?"),
    ("compare_own_vs_rent", "去年买了16张A100 利用率大概四成 用3年 是不是租更划算"),
])  # fmt: skip
def test_a_card_choice_a_count_a_limit_or_nothing_named(expected: str, text: str) -> None:
    assert parse_question(text).intent == expected


@pytest.mark.parametrize("first", ["lora微调qwen3-8b 语料3000万token 预算5000 推荐什么卡",
                                   "Recommend hardware for a LoRA of qwen2.5-32b on 100M tokens within 3 days"])
@pytest.mark.parametrize(("then", "out"), [
    ("不要4090", ["RTX-4090"]), ("除了H100以外呢", ["H100-SXM"]), ("4090没货", ["RTX-4090"]), ("A100就算了", ["A100-80GB"]),
    ("no H100s please", ["H100-SXM"]), ("exclude the A100", ["A100-80GB"]), ("skip the 4090, we can't get it", ["RTX-4090"]),
    ("H100s are out of stock", ["H100-SXM"]), ("what about without B200?", ["B200"]),
])  # fmt: skip
def test_leaving_a_card_out_after_a_recommendation_keeps_recommending_without_it(first: str, then: str, out: list[str]) -> None:
    r = parse_question(then, parse_question(first))
    assert r.intent == "recommend_hardware" and r.args["exclude_gpus"] == out and "gpu" not in r.args


def test_exclusions_add_up_and_leave_the_named_candidates() -> None:
    r = parse_question("A100 H100 L40S 哪个适合 lora微调qwen3-8b 语料3000万token")
    r = parse_question("不要L40S", r)
    assert r.args["exclude_gpus"] == ["L40S"] and r.args["gpus"] == ["A100-80GB", "H100-SXM"]
    r = parse_question("no H100 either", r)
    assert r.args["exclude_gpus"] == ["L40S", "H100-SXM"] and r.args["gpus"] == ["A100-80GB"]


@pytest.mark.parametrize(("first", "then"), [
    ("用8张H100 lora微调qwen2.5-14b 数据1亿token 多少钱", "不要H100了 太贵"),
    ("LoRA qwen2.5-14b on 100M tokens with 8 H100s, cost?", "no H100s, they're too expensive"),
])  # fmt: skip
def test_leaving_out_the_priced_card_asks_which_card_instead(first: str, then: str) -> None:
    r = parse_question(then, parse_question(first))
    assert r.intent == "recommend_hardware" and r.args["exclude_gpus"] == ["H100-SXM"] and r.args["model"] == "qwen2.5-14b"


@pytest.mark.parametrize("text", ["不用H100 用8张A100 lora qwen2.5-7b 5千万token 多少钱",
                                  "instead of H100s, what would 8 A100s cost for a LoRA of qwen2.5-7b on 50M tokens?"])
def test_a_card_named_in_place_of_another_is_no_exclusion(text: str) -> None:
    r = parse_question(text)
    assert r.intent == "estimate_training_cost" and r.args["gpu"] == "A100-80GB" and "exclude_gpus" not in r.context


@pytest.mark.parametrize("text", [
    "Can I LoRA phi-3-medium on one V100 16GB?", "能不能用一张4090 lora qwen2.5-7b", "一张3090能qlora qwen2.5-14b吗",
    "can we full fine-tune llama-3.1-8b on a single A100 80GB?",
])  # fmt: skip
def test_a_yes_no_on_a_method_and_a_card_with_no_data_is_a_memory_check(text: str) -> None:
    r = parse_question(text)
    assert r.intent == "estimate_training_cost" and r.context.get("memory_only") and r.args["gpu_count"] == 1


@pytest.mark.parametrize(("expected", "text"), [
    ("estimate_training_cost", "Can I LoRA qwen2.5-7b on one A100 within 3 days? 50M tokens"),  # a data amount: the real job
    ("clarify", "Can you redo that with the numbers from my spreadsheet?"), ("clarify", "按我表格里的数重新算一下"),  # never given
    ("recommend_hardware", "我们要在 48 小时内把 qwen3-14b 全参训完，数据 1.5 亿 token，卡不限，给个方案"),
    ("recommend_hardware", "full fine-tune of qwen3-14b on 150M tokens within 48 hours, no limit on GPUs: propose a setup"),
    ("estimate_serving_cost", "做个 AI 起名小程序，qwen2.5-3b，一张 3090 跑，日活两千左右，一个月得多少钱"),
    ("estimate_serving_cost", "a small app on qwen2.5-3b, one 3090, about 2,000 daily active users: monthly cost?"),
])  # fmt: skip
def test_a_setup_asked_a_product_for_users_or_numbers_never_given(expected: str, text: str) -> None:
    assert parse_question(text).intent == expected


@pytest.mark.parametrize(("text", "asked"), [
    ("qwen2.5-7b 全参能塞下不？数据 2千万 token，塞得下的话要多少钱", True), ("这样合理不？我们下周签", True), ("8张卡够不", True),
    ("为什么竞价这么便宜", False), ("用4090多少钱？", False),
])  # fmt: skip
def test_a_trailing_not_before_a_question_mark_asks_yes_or_no(text: str, asked: bool) -> None:
    assert parse_question(text).asks_verdict is asked


@pytest.mark.parametrize("then", ["能不能再快点", "钱和时间怎么变", "便宜点行吗", "how would that change the cost?", "any faster?"])
def test_a_follow_up_asking_for_more_or_less_of_the_answer_keeps_the_job(then: str) -> None:
    r = parse_question(then, parse_question("用8张A100 lora微调qwen2.5-14b 数据1亿token 多少钱"))
    assert r.intent == "estimate_training_cost" and r.is_followup and r.args["gpu_count"] == 8


@pytest.mark.parametrize("first", ["8 A100s, LoRA qwen2.5-14b on 80M tokens, cost?", "serve llama-3-8b at 5M tokens/day on L4, monthly cost?"])
@pytest.mark.parametrize("then", ["is that realistic?", "靠谱吗", "还能更快吗", "is that doable?"])
def test_a_bare_yes_no_after_a_job_is_a_verdict_on_it(first: str, then: str) -> None:
    before = ask(first, offline=True)
    r = ask(then, history=before.history, offline=True)
    assert r.intent == before.intent
    assert any(m in "\n\n".join(r.answer.split("\n\n")[:3]) for m in ("**Verdict:**", "**结论：**"))


@pytest.mark.parametrize("then", ["明天会下雨吗", "明天上海天气怎么样"])
def test_a_yes_no_about_something_else_is_not_about_the_job(then: str) -> None:
    assert parse_question(then, parse_question("serve llama-3-8b at 5M tokens/day on L4, monthly cost?")).intent == "out_of_scope"


SET6_CLASSES = {  # set6 dev classes, each in other words and both languages
    "check_quote": [  # one billing mode named with a card's price and a yes/no: the mode is the price's unit
        "L4 at $0.55 an hour on-demand - cheap or not?", "spot H100 at $1.9/hr, is that a good price?",
        "A100 按量每卡时 6 块，贵不贵", "H20 包年每卡每月 5000，合理吗",
        # a card's rate looked at, a contract term named: the price is checked, not a contract
        "L20 报价 每卡每月 2300 元，合同 12 个月，帮我看下价格", "A800 per card per month ¥5200 on a 6-month contract, can you check the price?",
    ],
    "compare_billing": [  # the same price with a period of use and another mode weighed: the billing
        "8 A100s on-demand at $2/hr for 2 weeks, would monthly be cheaper?", "A100 按量每卡时 6 块，用一个月，包月会不会更省",
    ],
    "clarify": [  # a cost of nothing named
        "租卡的话一个月大概多少？", "What will next quarter's compute bill be?", "训练一次大概多少？",
    ],
    "out_of_scope": [  # off-domain definitions, text work, scripts, tuning the hardware itself
        "python 里 list 和 tuple 有啥区别", "what's the difference between a list and a tuple in python?",
        "can you proofread my paper abstract? it's about protein folding", "帮我润色一下这段论文摘要",
        "write me a bash script that rotates nginx logs every night", "写个每天晚上自动备份数据库的脚本",
        "有没有办法给 4090 超频或者改功耗墙，让训练快点", "how do I overclock my 3090 to train faster?", "can I undervolt the A100s to save power?",
    ],
    "onboarding": ["hey, first day here -- what kind of questions can I ask you?", "今天第一天入职，你能帮我做什么"],
    "recommend_hardware": [
        "we want to pretrain a tiny 0.3B model on 10B tokens, budget ¥8000, what to rent?", "qlora qwen2.5-14b 3000 万 token，预算 2000 元，租啥",
        "帮我选个配置：qwen3-8b lora，8000 万 token，三天内",  # a setup chosen
        "用 H800 训 qwen2.5-32b lora，数据 5000 万 token，需要几张卡、多少钱",  # how many of one named card, the cost too
        "LoRA qwen2.5-32b on 50M tokens with H800s: how many do we need and what does it cost?",
    ],
    "review_contract": [  # a clause told in the user's words, or shown after a look-at word
        "the agreement lets them change prices with 7 days notice. should we push back?",
        "our terms require us to pay 3 months upfront, non-refundable. is that normal?", "看下这个条款：甲方需预付 6 个月费用，且不可退。",
    ],
}


@pytest.mark.parametrize(("expected", "text"), [(k, t) for k, texts in SET6_CLASSES.items() for t in texts])
def test_set6_structures_get_their_job(expected: str, text: str) -> None:
    assert parse_question(text).intent == expected


@pytest.mark.parametrize(("text", "gpu", "count"), [
    ("想拿 deepseek-r1-distill-llama-8b lora 一下，50w 条数据，每条 256 token，不知道用 4090 还是 3090，先按 2 张 3090 算吧", "RTX-3090", 2),
    ("qwen2.5-7b lora 5000 万 token，A100 还是 H100 都行，就按 4 张 H100 算", "H100-SXM", 4),
    ("lora qwen2.5-7b on 50M tokens, not sure between 4090 and A100 — let's go with 2 A100s", "A100-80GB", 2),
    ("full fine-tune llama-3-8b on 100M tokens, H100 or H200? for now assume 8 H200s", "H200", 8),
])  # fmt: skip
def test_a_card_picked_from_the_ones_weighed_is_the_jobs(text: str, gpu: str, count: int) -> None:
    r = parse_question(text)
    assert r.intent == "estimate_training_cost" and r.args["gpu"] == gpu and r.args["gpu_count"] == count and "gpus" not in r.args


@pytest.mark.parametrize("then", ["we actually need it done in 3 days. still possible?", "and in 2 days, on time?", "3 天内还来得及吗"])
def test_an_elliptical_yes_no_after_a_job_gets_a_verdict(then: str) -> None:
    before = ask("qlora qwen3-32b on 150M tokens with 4x L40S, how long and how much?", offline=True)
    r = ask(then, history=before.history, offline=True)
    assert r.intent == "estimate_training_cost"
    assert any(m in "\n\n".join(r.answer.split("\n\n")[:3]) for m in ("**Verdict:**", "**结论：**")), r.answer[:400]


@pytest.mark.parametrize(("text", "share"), [
    ("our 4 A10Gs on-demand ran 24/7 for a month but only did work 6 hours a day at $1/hr. what did the idle time cost?", 0.25),
    ("8 张 4090 按量开着，一天只用 4 个小时，其余时间空着，每小时 2 块，一个月白花多少", 4 / 24),
    ("we keep 2 H100s running all month but use them 12 hours a day, 5 days a week, at $3/hr — how much is wasted?", 12 / 24 * 5 / 7),
    ("16 张 A100 一直开着，每天只跑 8 小时任务，每卡时 8 元，闲置浪费多少", 8 / 24),
])  # fmt: skip
def test_idle_asked_with_a_schedule_of_use_is_usage_at_that_share(text: str, share: float) -> None:
    r = parse_question(text)
    assert r.intent == "analyze_usage" and r.args["avg_utilization"] == pytest.approx(share, abs=1e-5)
