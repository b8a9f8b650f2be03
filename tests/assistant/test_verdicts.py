"""Yes/no and choice questions get a verdict line before the figures, whatever the wording: A-not-A
questions, a choice between named options, "or not", a follow-up of a yes/no question, and a
question the tool cannot price (the verdict then says what it lacks)."""

from __future__ import annotations

import pytest

from advisor.assistant import ask
from advisor.assistant.offline.text import Scan
from advisor.assistant.offline.verdict import asks_verdict, mark

pytestmark = pytest.mark.usefixtures("clean_llm_env")


@pytest.mark.parametrize("text", [
    "预算3000块，全参微调qwen2.5-1.5b，5万条每条400token，能搞定不", "这个报价贵不贵", "包年划不划算", "值不值",
    "按量还是包月？", "按量计费还是包月更省", "哪个更划算", "哪种更便宜",
    "On-demand or monthly?", "hourly or monthly package better?", "cheap or not?", "thoughts? good or bad?",
    "which one is cheaper for us", "Is $2 an hour fair?",
    "这样安排合适吗？", "用4090跑70B可以吗", "这个价是否划算", "这个报价贵么", "多少钱？按量合适吗？",
    "not sure whether we should buy", "monthly is cheaper here, right?", "yes or no: sign it?",
    "Single A800 at ¥5.5/h, full fine-tune qwen2.5-0.5b on 300M tokens. Doable?", "is a 3-day deadline realistic",
    "feasible on 4 cards?",
])  # fmt: skip
def test_yes_no_and_choice_questions_ask_for_a_verdict(text: str) -> None:
    assert asks_verdict(Scan(text).question)


@pytest.mark.parametrize("text", [
    "预训练一个7B模型，1万亿token，多少钱", "LoRA微调Llama-3-8B要花多少", "不是一张，是四张",
    "How much will a 7B LoRA on 100M tokens cost?", "what about 16 cards?", "Estimate the bill for 8 H100s for a week",
    "你知道训练一次要多少钱吗", "什么是ZeRO-3？", "为什么按量比包月贵么",
])  # fmt: skip
def test_how_much_questions_do_not(text: str) -> None:
    assert not asks_verdict(Scan(text).question)


def _head(answer: str) -> str:
    return "\n\n".join(answer.split("\n\n")[:3])


@pytest.mark.parametrize(("first", "then", "lang"), [
    ("We need 8 H100s for about 10 days straight. On-demand or monthly?", "and if it's 45 days?", "en"),
    ("4张A100用20天，按量还是包月？", "那用两个月呢", "zh"),
])  # fmt: skip
def test_a_follow_up_of_a_yes_no_question_keeps_the_verdict(first: str, then: str, lang: str) -> None:
    r1 = ask(first, offline=True)
    r2 = ask(then, history=r1.history, offline=True)
    assert mark(lang).strip() in _head(r1.answer)
    assert mark(lang).strip() in _head(r2.answer), r2.answer[:400]


@pytest.mark.parametrize(("text", "lang", "word"), [
    ("两张3090自己买的话用三年，利用率90%，还要不要继续租", "zh", "购买价格"),
    ("At 30% utilization, does owning 2 RTX 3090s make sense over 3 years?", "en", "purchase price"),
])  # fmt: skip
def test_a_refused_yes_no_question_says_what_it_cannot_price(text: str, lang: str, word: str) -> None:
    r = ask(text, offline=True)
    head = _head(r.answer)
    assert mark(lang).strip() in head, r.answer[:400]
    verdict_line = next(p for p in r.answer.split("\n\n") if p.startswith(mark(lang).strip()))
    assert word in verdict_line


@pytest.mark.parametrize(("text", "lang"), [
    ("矩池云 A100 40G 一小时 4.5，帮我看下这个价", "zh"), ("H800 8卡整机一个月9万，签一年", "zh"),
    ("Quote: $1.80 per H100-hour on a 12-month term.", "en"),
    ("合同里写“平台可随时调整价格，不另行通知”，帮我看看", "zh"),
    ("32张A100，利用率只有40%，上个月的情况", "zh"),
    ("16 H100s at 60% utilization, own vs rent over 3 years", "en"),
])  # fmt: skip
def test_a_judgement_tool_answer_opens_with_its_verdict_however_it_is_asked(text: str, lang: str) -> None:
    r = ask(text, offline=True)
    assert r.intent in ("check_quote", "review_contract", "analyze_usage", "compare_own_vs_rent"), r.intent
    assert mark(lang).strip() in _head(r.answer), r.answer[:400]


@pytest.mark.parametrize(("text", "intent"), [
    ("3090 on 矩池云, I use it 4h per day for a month. hourly or monthly package better?", "compare_billing"),
])
def test_a_provider_without_the_card_is_priced_on_the_market_and_said(text: str, intent: str) -> None:
    r = ask(text, offline=True)
    assert r.intent == intent and r.tool_calls and not r.tool_calls[-1].error
    assert "provider without this card" in r.answer and mark("en").strip() in _head(r.answer)


@pytest.mark.parametrize(("text", "lang"), [
    ("这个配置够吗？", "zh"), ("我们的卡够不够用", "zh"), ("Is it enough?", "en"), ("Would that be within budget?", "en"),
])  # fmt: skip
def test_a_yes_no_question_that_needs_a_clarification_says_what_it_lacks(text: str, lang: str) -> None:
    """No job yet: the verdict line comes first and names what it needs, then the clarifying question."""
    result = ask(text, offline=True)
    assert result.intent == "clarify"
    head = _head(result.answer)
    assert mark(lang) in head
    assert ("暂时给不出结论" if lang == "zh" else "no yes or no yet") in head


@pytest.mark.parametrize(("text", "lang"), [
    ("做微调有必要用H100吗", "zh"), ("混合精度训练是否值得开？", "zh"),
    ("Should we always use mixed precision?", "en"), ("Is gradient checkpointing worth it?", "en"),
])  # fmt: skip
def test_a_general_yes_no_question_answered_from_the_guides_opens_with_it_depends(text: str, lang: str) -> None:
    result = ask(text, offline=True)
    assert result.intent == "search_knowledge"
    assert mark(lang) in _head(result.answer)


@pytest.mark.parametrize(("text", "words"), [
    ("lora fine-tune llama-3-8b on 200M tokens with 4 A100s, can we make it by Friday?", ("It takes about", "days")),
    ("full fine-tune of qwen2.5-7b on 500M tokens with 8 A100s - can we get it done before the end of the month?", ("It takes about", "days")),
    ("qwen2.5-7b 全参微调 5 亿 token，8 张 A100，下周五之前能出结果吗", ("约需", "还剩几天")),
])  # fmt: skip
def test_a_deadline_named_by_a_date_gives_the_time_and_asks_the_days_left(text: str, words: tuple[str, ...]) -> None:
    head = _head(ask(text, offline=True).answer)
    assert all(w in head for w in words), head


@pytest.mark.parametrize(("text", "word"), [
    ("qwen2.5-7b 全参微调 5 亿 token，8 张 A100，3天来得及吗", "来得及"),
    ("llama-3-8b lora 2亿token，4张4090，一周赶得上吗", "来得及"),
    ("lora llama-3-8b on 200M tokens with 4 A100s, is 5 days enough?", "Yes"),
])  # fmt: skip
def test_a_time_asked_whether_it_suffices_is_the_deadline(text: str, word: str) -> None:
    verdict = next(p for p in ask(text, offline=True).answer.split("\n\n") if p.startswith(("**Verdict", "**结论")))
    assert verdict.split("** ", 1)[1].startswith(word), verdict


@pytest.mark.parametrize(("text", "words"), [
    ("serve qwen2.5-72b on 1 RTX 4090 for 1M tokens a day, is it enough?", ("No", "one copy", "8× RTX-4090")),
    ("部署 qwen2.5-72b 推理，每天 100 万 token，1 张 4090 够不够", ("不够", "一份模型", "8 张 RTX-4090")),
    ("can 2 L40S host llama-3.1-70b for 2M tokens/day?", ("No", "one copy")),
])  # fmt: skip
def test_cards_that_cannot_hold_one_copy_of_the_model_say_so(text: str, words: tuple[str, ...]) -> None:
    head = _head(ask(text, offline=True).answer)
    assert all(w in head for w in words), head
