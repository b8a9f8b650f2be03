"""``ask(..., offline=True)``: the embedded assistant — tool calls, templated answers in the
question's language, follow-ups in both languages, clarifying questions, refusals, history."""

from __future__ import annotations

import json

import pytest

from advisor.assistant import ask
from advisor.errors import InputError
from advisor.money import format_money

pytestmark = pytest.mark.usefixtures("clean_llm_env")


def test_estimate_answer_carries_the_key_figures_in_chinese() -> None:
    r = ask("用8张A100全参微调Llama-3-8B，1亿token，要多少钱", offline=True)
    assert r.mode == "offline" and r.lang == "zh" and r.grounded and r.notice is None
    (tc,) = r.tool_calls
    assert tc.name == "estimate_training_cost" and tc.args["gpu_count"] == 8
    res = tc.result
    cur = res["cost"]["currency"]
    for figure in (res["cost"]["total"], res["cost"]["low"], res["cost"]["high"]):
        assert format_money(figure, cur) in r.answer
    assert "卡时" in r.answer and "显存" in r.answer and "区间" in r.answer
    assert r.citations and all(c.path.startswith("knowledge/guides/zh/") for c in r.citations)
    assert "knowledge/guides" not in r.answer  # the answer names the guide, not its file
    assert {f.rule_id for f in r.findings} == {f["rule_id"] for f in res["findings"]}
    assert all(f.lang == "zh" for f in r.findings)


def test_english_followups_keep_the_rest_of_the_request() -> None:
    first = ask("LoRA on Llama-3-8B, 100k samples of 512 tokens, 2 epochs, 4x L40S", offline=True)
    spot = ask("what about spot?", history=first.history, offline=True)
    args = spot.tool_calls[0].args
    assert args["billing"] == "spot" and args["gpu"] == "L40S" and args["samples"] == 100000
    assert "spot billing" in spot.answer and spot.lang == "en"
    more = ask("and with 16 cards?", history=spot.history, offline=True)
    assert more.tool_calls[0].args["gpu_count"] == 16 and more.tool_calls[0].args["billing"] == "spot"


def test_chinese_followup_changes_only_the_gpu() -> None:
    first = ask("用8张A100全参微调Llama-3-8B，1亿token，要多少钱", offline=True)
    second = ask("换成H100呢？", history=first.history, offline=True)
    a, b = first.tool_calls[0].args, second.tool_calls[0].args
    assert b["gpu"] == "H100-SXM" and {k: v for k, v in b.items() if k != "gpu"} == {k: v for k, v in a.items() if k != "gpu"}
    assert second.tool_calls[0].result["gpu"]["name"].startswith("H100")
    assert "沿用上一个问题的条件" in second.answer


def test_history_survives_json_and_continues() -> None:
    first = ask("Full fine-tune of Gemma-2-9B on 300M tokens using 8 H100s — how much?", offline=True)
    history = json.loads(json.dumps(first.history))
    second = ask("what about on A100s instead?", history=history, offline=True)
    assert second.tool_calls[0].args["model"] == "gemma-2-9b" and second.tool_calls[0].args["gpu"] == "A100-80GB"
    assert len(second.history) == 4 and second.history[0]["role"] == "user"


def test_unclear_job_gets_a_clarifying_question_then_continues() -> None:
    r = ask("想微调个模型，大概多少钱", offline=True)
    assert r.intent == "clarify" and not r.tool_calls and "模型" in r.answer and "？" in r.answer
    r2 = ask("Llama3 8B，2万条数据，每条500 token", history=r.history, offline=True)
    assert r2.tool_calls[0].name == "estimate_training_cost" and r2.tool_calls[0].args["samples"] == 20000
    en = ask("how much will it cost?", offline=True)
    assert en.intent == "clarify" and en.answer.endswith("?")


def test_missing_inputs_of_a_tool_become_a_question_not_an_error() -> None:
    r = ask("Is monthly billing worth it if we only use the cards 8 hours a day?", offline=True)
    assert r.tool_calls[0].error and r.answer.startswith("**What I understood:** a billing comparison: 8 h a day")
    assert "To compare billing modes, I need" in r.answer
    assert "Traceback" not in r.answer


def test_unknown_gpu_reply_names_the_value_and_the_close_matches() -> None:
    from advisor.assistant.offline.compose import refusal, run_tool

    call = run_tool("estimate_training_cost", {"model": "llama-3-8b", "tokens_b": 0.1, "gpu": "H1000"}, "en")
    assert call.result is None and "H1000" in call.error
    reply = refusal(call, "en")
    assert reply.startswith("I could not estimate the cost: unknown gpu 'H1000'") and "did you mean" in reply
    assert refusal(call, "zh").startswith("无法估算费用")


def test_refusal_in_chinese_names_what_to_fix() -> None:
    r = ask("Qwen2.5-72B做QLoRA，用什么卡最省钱？", offline=True)
    assert r.tool_calls[0].name == "recommend_hardware"
    assert "训练数据有多少" in r.answer


def test_search_and_onboarding_cite_guides() -> None:
    r = ask("What's the difference between spot and on-demand instances?", offline=True)
    assert r.intent == "search_knowledge" and r.citations
    assert r.citations[0].path in r.answer.replace("#", " #") or r.citations[0].title.split(" › ")[0] in r.answer
    onboard = ask("我是刚入职的算法工程师，教我一下怎么控制训练成本", offline=True)
    assert onboard.intent == "onboarding" and "advisor learn" in onboard.answer and onboard.citations


def test_plan_names_the_stages_it_could_not_price() -> None:
    r = ask("Lay out a budget for the whole project: a feasibility run, then pretraining a 7B on 1T tokens, "
            "then fine-tuning and serving it.", offline=True)
    assert r.tool_calls[0].name == "plan_project" and r.tool_calls[0].result
    assert "Not priced yet" in r.answer and "serving" in r.answer


def test_greeting_help_and_language_override() -> None:
    assert "Hello" in ask("hi", offline=True).answer
    assert "估算" in ask("你能做什么", offline=True).answer
    r = ask("Full fine-tune of Gemma-2-9B on 300M tokens using 8 H100s — how much?", offline=True, lang="zh")
    assert r.lang == "zh" and "费用" in r.answer


def test_no_llm_configured_means_offline_and_forcing_it_says_so() -> None:
    assert ask("hi").mode == "offline" and ask("hi").notice is None
    forced = ask("你好", offline=False)
    assert forced.mode == "offline_fallback" and forced.notice == "未配置 LLM，本次由离线助手回答。"


@pytest.mark.parametrize(("question", "history"), [("", None), ("  ", None), ("hi", "not a list"),
                                                   ("hi", [{"role": "bot", "content": "x"}])])
def test_bad_input_is_one_clear_error(question, history) -> None:
    with pytest.raises(InputError):
        ask(question, history=history, offline=True)


def test_settings_supply_defaults_the_question_leaves_open() -> None:
    q = "Full fine-tune of Gemma-2-9B on 300M tokens using 8 H100s — how much?"
    r = ask(q, offline=True, tool_defaults={"currency": "CNY", "budget": 100, "hours_per_day": 3})
    inputs = r.tool_calls[0].result["inputs"]
    assert inputs["currency"] == "CNY" and inputs["budget"] == 100 and "hours_per_day" not in inputs
    said = ask("Full fine-tune of Gemma-2-9B on 300M tokens using 8 H100s at $2.5/GPU-hour — how much?",
               offline=True, tool_defaults={"currency": "CNY"})
    assert said.tool_calls[0].result["cost"]["currency"] == "USD"  # the question's currency wins
