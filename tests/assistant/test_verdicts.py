"""Yes/no and choice questions get a verdict line before the figures, whatever the wording: A-not-A
questions, a choice between named options, "or not", a follow-up of a yes/no question, and a
question the tool cannot price (the verdict then says what it lacks)."""

from __future__ import annotations

import pytest

from advisor.assistant import ask
from advisor.assistant.offline.text import Scan
from advisor.assistant.offline.verdict import MARK, asks_verdict

pytestmark = pytest.mark.usefixtures("clean_llm_env")


@pytest.mark.parametrize("text", [
    "预算3000块，全参微调qwen2.5-1.5b，5万条每条400token，能搞定不", "这个报价贵不贵", "包年划不划算", "值不值",
    "按量还是包月？", "按量计费还是包月更省", "哪个更划算", "哪种更便宜",
    "On-demand or monthly?", "hourly or monthly package better?", "cheap or not?", "thoughts? good or bad?",
    "which one is cheaper for us", "Is $2 an hour fair?",
])  # fmt: skip
def test_yes_no_and_choice_questions_ask_for_a_verdict(text: str) -> None:
    assert asks_verdict(Scan(text).question)


@pytest.mark.parametrize("text", [
    "预训练一个7B模型，1万亿token，多少钱", "LoRA微调Llama-3-8B要花多少", "不是一张，是四张",
    "How much will a 7B LoRA on 100M tokens cost?", "what about 16 cards?", "Estimate the bill for 8 H100s for a week",
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
    assert MARK[lang].strip() in _head(r1.answer)
    assert MARK[lang].strip() in _head(r2.answer), r2.answer[:400]


@pytest.mark.parametrize(("text", "lang", "word"), [
    ("两张3090自己买的话用三年，利用率90%，还要不要继续租", "zh", "购买价格"),
    ("At 30% utilization, does owning 2 RTX 3090s make sense over 3 years?", "en", "purchase price"),
])  # fmt: skip
def test_a_refused_yes_no_question_says_what_it_cannot_price(text: str, lang: str, word: str) -> None:
    r = ask(text, offline=True)
    head = _head(r.answer)
    assert MARK[lang].strip() in head, r.answer[:400]
    verdict_line = next(p for p in r.answer.split("\n\n") if p.startswith(MARK[lang].strip()))
    assert word in verdict_line
