"""A bill asked of nothing named ("how much is the monthly bill going to be?", "这个月大概要花多少") gets one
question on what the bill is for, not a guide or a guessed job; the answer to that question is priced as the
bill. A spend on something outside compute (an office party, catering, renovation) stays out of scope."""

from __future__ import annotations

import pytest

from advisor.assistant import ask
from advisor.assistant.offline.parse import parse_question

BILLS = [
    "how much is the monthly bill going to be?", "what will this cost us?", "what are we going to spend on this?",
    "roughly what will our spend be next month?", "how much are we going to spend this month?",
    "这个月大概要花多少", "下个月账单大概多少", "下个月大概得花多少", "明年大概会花多少", "这个月的算力账单大概多少",
]
ELSEWHERE = [
    "公司年会大概要花多少钱", "装修办公室要花多少", "我们团建一个月要花多少", "员工工资每个月支出多少",
    "what will the catering for the offsite cost us?",
]


@pytest.mark.parametrize("text", BILLS)
def test_a_bill_of_nothing_named_asks_what_it_is_for(text: str) -> None:
    parsed = parse_question(text)
    assert (parsed.intent, parsed.missing) == ("clarify", ["bill"])


@pytest.mark.parametrize("text", ELSEWHERE)
def test_a_spend_outside_compute_is_out_of_scope(text: str) -> None:
    assert parse_question(text).intent == "out_of_scope"


@pytest.mark.parametrize(("text", "then", "gpu", "count"), [
    ("这个月大概要花多少", "8张A100，每月跑300小时", "A100", "8"),
    ("how much is the monthly bill going to be?", "16 H100s on demand, running about 10 hours a day", "H100", "16"),
])
def test_the_answer_to_what_the_bill_is_for_is_priced(text: str, then: str, gpu: str, count: str) -> None:
    first = ask(text, offline=True)
    assert first.intent == "clarify" and ("哪些" in first.answer or "What is the bill for" in first.answer)
    second = ask(then, history=first.history, offline=True)
    assert second.intent == "compare_billing"
    head = second.answer.splitlines()[0]
    assert gpu in head and count in head, head
