"""Follow-ups of the decision tools change one field of the same request, however it is worded:
a new daily load or a load factor for serving, a new utilization for own-vs-rent (not a usage
analysis), and a daily load written without the word "token"."""

from __future__ import annotations

import pytest

from advisor.assistant.offline import parse_question

SERVING = [
    ("部署Qwen2.5-72B推理服务，每天5000万token，用H20，一个月多少钱", 5e7),
    ("Serve llama-3.1-8b at 20M tokens per day on L4s. Monthly cost?", 2e7),
]


@pytest.mark.parametrize(("first", "load"), SERVING)
@pytest.mark.parametrize(("then", "factor"), [
    ("流量翻倍呢", 2), ("what if traffic goes 10x?", 10), ("traffic doubles?", 2), ("请求量涨到3倍呢", 3),
])  # fmt: skip
def test_a_load_factor_scales_the_daily_load(first: str, load: float, then: str, factor: float) -> None:
    r = parse_question(then, previous=parse_question(first))
    assert r.intent == "estimate_serving_cost"
    assert r.args["tokens_per_day"] == pytest.approx(load * factor)


@pytest.mark.parametrize(("first", "load"), SERVING)
@pytest.mark.parametrize(("then", "value"), [("流量涨到一天2亿呢", 2e8), ("每天1亿token呢", 1e8), ("and at 150M tokens a day?", 1.5e8)])
def test_a_new_daily_load_replaces_the_old(first: str, load: float, then: str, value: float) -> None:
    r = parse_question(then, previous=parse_question(first))
    assert r.intent == "estimate_serving_cost" and r.args["tokens_per_day"] == pytest.approx(value)


@pytest.mark.parametrize("text", [
    "要做个32B的内部问答服务，日请求量折合8000万token，用H20部署，一年下来多少钱",
    "Inference for a 70B model, 80M tokens daily, on 4 MI300X — annual cost?",
    "客服机器人用qwen2.5-14b，每天8000万，L20部署要多少钱",
])  # fmt: skip
def test_daily_loads_in_other_words(text: str) -> None:
    r = parse_question(text)
    assert r.intent == "estimate_serving_cost" and r.args["tokens_per_day"] == pytest.approx(8e7)


@pytest.mark.parametrize("first", [
    "16张H100，利用率60%，买还是租划算，算3年",
    "At 60% utilization, does owning 16 H100s make sense over 3 years?",
    "16张H20，利用率估计只有60%，买下来划算吗",
])  # fmt: skip
@pytest.mark.parametrize(("then", "share"), [("利用率到90%呢", 0.9), ("what if utilization drops to 35%?", 0.35), ("只有40%的话还划算吗", 0.4)])
def test_a_new_utilization_keeps_own_vs_rent(first: str, then: str, share: float) -> None:
    r1 = parse_question(first)
    assert r1.intent == "compare_own_vs_rent"
    r2 = parse_question(then, previous=r1)
    assert r2.intent == "compare_own_vs_rent" and r2.args["utilization"] == pytest.approx(share)
    assert r2.args["gpu_count"] == 16
