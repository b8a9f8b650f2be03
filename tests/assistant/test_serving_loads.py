"""Serving loads as people state them: daily users times each one's requests ("2,000 employees x 30 queries
a day", "2万 users daily, each 10 request", "300 个员工，每人每天 50 次提问"), a daily token load named by its
side ("5M output tokens/day", "1B generated tok a day"), a request's tokens as a pair with their names
("600 prompt + 250 output tokens each") and a request's length with a hedge ("answers maybe 400 tokens").
Also the abbreviations of a utilization ("35% avg util"), a product question asked after a greeting, and an
amount counted in 万 read as yuan in any language."""

from __future__ import annotations

import pytest

from advisor.assistant import ask
from advisor.assistant.offline.parse import parse_question


def _args(text: str) -> dict[str, object]:
    parsed = parse_question(text)
    return {"intent": parsed.intent, **{k: v for k, v in parsed.args.items() if v is not None}}


@pytest.mark.parametrize(("text", "requests"), [
    ("serve llama-3.3-70b for our copilot, ~2,000 employees x 30 queries a day", 60_000),
    ("serve qwen2.5-14b to 500 staff × 20 chats a day", 10_000),
    ("deploy qwen2.5-7b for our app, 2万 users daily, each 10 request", 200_000),
    ("serve llama-3-8b, 5k users, each 12 queries daily", 60_000),
    ("部署 qwen2.5-7b 给 300 个员工用，每人每天 50 次提问", 15_000),
    ("上线 qwen2.5-7b 客服，日活 2 万，每人每天 5 次对话", 100_000),
])  # fmt: skip
def test_users_times_each_ones_requests_is_the_daily_load(text: str, requests: int) -> None:
    args = _args(text)
    assert args["intent"] == "estimate_serving_cost" and args["requests_per_day"] == requests, args


@pytest.mark.parametrize(("text", "tokens"), [
    ("is a single L40S enough to host gemma-3-12b for ~5M output tokens/day?", 5e6),
    ("serving qwen3-235b-a22b at 1B output tok/day on H200 - how many GPUs?", 1e9),
    ("serve llama-3-8b, 20M generated tokens a day", 2e7),
    ("部署 qwen2.5-32b，每天 3000 万输出 token，要几张卡", 3e7),
])  # fmt: skip
def test_a_daily_token_load_named_by_its_side_is_the_load(text: str, tokens: float) -> None:
    args = _args(text)
    assert args["intent"] == "estimate_serving_cost" and args["tokens_per_day"] == tokens, args
    assert "params_b" not in args  # "1B output tok/day" is a load, not a model size


@pytest.mark.parametrize(("text", "prompt", "output"), [
    ("llama-3.1-8b chat, 1.5M requests/day, 600 prompt + 250 output tokens each", 600, 250),
    ("serve llama 70b, 60k requests a day, 1200 input / 300 output tokens", 1200, 300),
    ("部署 qwen2.5-7b，每天 10 万次请求，每次 800 输入 + 200 输出 token", 800, 200),
])  # fmt: skip
def test_a_requests_tokens_named_as_a_pair(text: str, prompt: int, output: int) -> None:
    args = _args(text)
    assert args["intent"] == "estimate_serving_cost", args
    assert (args["prompt_tokens"], args["output_tokens"]) == (prompt, output)
    assert "samples" not in args


@pytest.mark.parametrize("text", ["serve llama-3.3-70b, answers maybe 400 tokens", "serve llama-3.3-70b, replies roughly 400 tokens",
                                  "serve llama-3.3-70b, responses typically 400 tokens", "部署 llama-3.3-70b，回答一般 400 token"])
def test_a_hedged_answer_length_is_the_output_tokens(text: str) -> None:
    assert _args(text)["output_tokens"] == 400


@pytest.mark.parametrize(("text", "share"), [
    ("We pay on-demand for 48 A100s and the dashboard says 35% avg util over the last two weeks. How bad is that in $?", 0.35),
    ("16 H100 reserved, 40% avg. GPU utilization last month, how much wasted?", 0.40),
    ("8 A100s on demand at 55% mean util for 30 days, waste?", 0.55),
])  # fmt: skip
def test_an_abbreviated_average_utilization(text: str, share: float) -> None:
    args = _args(text)
    assert args["intent"] == "analyze_usage" and args["avg_utilization"] == share, args


@pytest.mark.parametrize("text", [
    "hi - what kinds of questions can I ask you?", "what does this advisor actually do?",
    "what is this tool for?", "这个工具能干嘛", "我能问你些什么问题", "你好，你都能回答哪些问题？",
])  # fmt: skip
def test_what_the_product_does_asked_in_other_words_is_help(text: str) -> None:
    assert parse_question(text).intent == "help"


@pytest.mark.parametrize("text", ["what does the H100 do?", "what can I ask about spot pricing?"])
def test_a_question_about_something_else_is_not_help(text: str) -> None:
    assert parse_question(text).intent != "help"


@pytest.mark.parametrize("text", ["first day here. what does this advisor actually do?", "hey, first day here -- what kind of questions can I ask you?"])
def test_a_newcomer_asking_what_it_does_gets_the_onboarding_path(text: str) -> None:
    assert parse_question(text).intent == "onboarding"


@pytest.mark.parametrize("text", ["MFU 是个啥？", "ZeRO-3 是个什么东西", "啥叫 spot 实例"])
def test_colloquial_what_is_questions_look_the_term_up(text: str) -> None:
    assert parse_question(text).intent == "search_knowledge"


@pytest.mark.parametrize("text", ["H20 8卡 machine 3.6万/month, 1 year contract, ok price or not",
                                  "quote: 8x H800 node 9.8万 a month, 12 months - fair?"])
def test_an_amount_in_wan_is_yuan_in_any_language(text: str) -> None:
    r = ask(text, offline=True)
    assert r.intent == "check_quote" and "¥" in r.answer and "$" not in r.answer.split("\n\n")[2], r.answer[:400]
