"""What the tools cannot price is said so, in the asker's language, never guessed: a currency the price data
does not hold (EUR, GBP, JPY …) is named as not available; an amount written in one is never read as a
dollar or yuan price — the price is asked for, and the answer in dollars or yuan continues the same job."""

from __future__ import annotations

import pytest

from advisor.assistant import ask
from advisor.assistant.offline.parse import parse_question

JOBS = {
    "en": "fine-tune llama 3 8b on 200M tokens with lora on 4 A100s, what's the cost?",
    "zh": "用 4 张 A100 lora 微调 llama-3-8b，2 亿 token，多少钱",
}
SHOWN_IN = [  # (language, follow-up, currency named)
    ("en", "show that in euros", "EUR"), ("en", "can you give it in GBP?", "GBP"), ("en", "what is that in yen?", "JPY"),
    ("en", "convert it to Swiss francs", "CHF"), ("zh", "换成欧元", "EUR"), ("zh", "用日元显示", "JPY"),
    ("zh", "折合成港币是多少", "HKD"), ("zh", "按英镑算呢", "GBP"),
]


@pytest.mark.parametrize(("lang", "then", "code"), SHOWN_IN)
def test_a_currency_the_data_does_not_hold_keeps_the_job_and_says_so(lang: str, then: str, code: str) -> None:
    before = ask(JOBS[lang], offline=True)
    r = ask(then, history=before.history, offline=True)
    assert r.intent == before.intent == "estimate_training_cost"
    notice = {"en": f"I cannot show amounts in {code}", "zh": f"无法按 {code} 显示金额"}[lang]
    used = {"en": "The figures below are in USD", "zh": "以下金额按 CNY 计"}[lang]
    assert notice in r.answer and used in r.answer, r.answer


@pytest.mark.parametrize("text", ["what is our bill in dollars?", "换回人民币", "in CNY please", "us$2.2/hr for an A100, fair?",
                                  "A100 每卡时 15 元，贵吗"])
def test_dollars_and_yuan_are_no_foreign_currency(text: str) -> None:
    r = parse_question(text, parse_question(JOBS["en"]))
    assert "currency_unsupported" not in r.context and "price_currency" not in r.missing


@pytest.mark.parametrize(("text", "job"), [
    ("€2/hr for an A100, fair?", "check_quote"), ("A100 每卡时 2 欧元，贵吗", "check_quote"),
    ("2 euros per GPU-hour for H100 on a 1-year term, good deal?", "check_quote"),
    ("供应商报 H100 每卡每月 1500 英镑，签一年，划算吗", "check_quote"),
    ("8 张 4090 跑两周，每卡时 300 日元，一共多少钱", "compare_billing"),
])  # fmt: skip
def test_an_amount_in_a_foreign_currency_is_asked_again_for_the_same_job(text: str, job: str) -> None:
    r = parse_question(text)
    assert r.intent == "clarify" and r.pending == job and r.missing[:1] == ["price_currency"]
    assert not {"price", "price_per_gpu_hour"} & set(r.args)  # never read as a price in dollars or yuan
    lang = r.language
    answer = {"en": "$2.2/hr", "zh": "每卡时 15 元"}[lang]
    again = parse_question(answer, r)
    assert again.intent == job and again.is_followup, again.reason


@pytest.mark.parametrize("text", ["€2/hr for an A100, fair?", "A100 每卡时 2 欧元，贵吗"])
def test_the_question_for_the_price_is_in_the_askers_language(text: str) -> None:
    r = ask(text, offline=True)
    said = {"en": "I price in USD and CNY only", "zh": "我只按美元和人民币计价"}
    lang = "zh" if "欧元" in text else "en"
    assert said[lang] in r.answer and said["en" if lang == "zh" else "zh"] not in r.answer
