"""The LLM path with a scripted fake chat model: tool calls, streaming, recovery from bad
arguments, the grounding checks, follow-ups, and the fallback when the endpoint is down."""

from __future__ import annotations

import json

import pytest
from fakes import DownChatModel, ScriptedChatModel, call, last_tool_result
from langchain_core.messages import ToolMessage

from advisor.assistant import ask
from advisor.money import format_money

pytestmark = pytest.mark.usefixtures("clean_llm_env")

Q_EN = "LoRA fine-tune Llama-3-8B on 100 million tokens with 8 A100s, how much?"
ARGS_EN = {"model": "llama-3-8b", "method": "lora", "tokens_b": 0.1, "gpu": "A100", "gpu_count": 8}


def quote_cost(messages) -> str:
    """A final answer that quotes the tool's figures, as a good model does."""
    r = last_tool_result(messages)
    cur = r["cost"]["currency"]
    return (f"The run costs about {format_money(r['cost']['total'], cur)} "
            f"(range {format_money(r['cost']['low'], cur)}–{format_money(r['cost']['high'], cur)}) "
            f"on {r['gpu']['count']}× {r['gpu']['name']}.")


def test_fake_model_drives_a_tool_call_and_quotes_its_figures() -> None:
    model = ScriptedChatModel.of(call("estimate_training_cost", **ARGS_EN), quote_cost)
    r = ask(Q_EN, model=model)
    assert r.mode == "llm" and r.grounded and r.notice is None
    assert [c.name for c in r.tool_calls] == ["estimate_training_cost"]
    assert r.tool_calls[0].result["cost"]["currency"] == "USD"
    assert r.answer.startswith("The run costs about $")
    assert "estimate_training_cost" in model.bound_tools and "search_knowledge" in model.bound_tools
    assert r.lang == "en" and r.intent == "estimate_training_cost"
    json.dumps(r.model_dump(mode="json"))  # the whole result is JSON


def test_tokens_stream_through_on_token() -> None:
    tokens: list[str] = []
    model = ScriptedChatModel.of(call("estimate_training_cost", **ARGS_EN), quote_cost)
    r = ask(Q_EN, model=model, on_token=tokens.append)
    assert len(tokens) > 5
    assert "".join(tokens) == r.answer


def test_a_refused_value_comes_back_as_an_error_and_is_recovered() -> None:
    q = "LoRA fine-tune Llama-3-8B on 100 million tokens with 8 A100s at mfu 3, how much?"
    model = ScriptedChatModel.of(call("estimate_training_cost", **ARGS_EN, mfu=3),
                                 call("estimate_training_cost", **ARGS_EN), quote_cost)
    r = ask(q, model=model)
    assert r.mode == "llm" and r.grounded
    first, second = r.tool_calls
    assert first.result is None and "mfu" in first.error and "(0, 1]" in first.error
    assert second.result is not None
    errors = [m for m in model.received[1] if isinstance(m, ToolMessage)]
    assert errors and errors[-1].status == "error" and "call estimate_training_cost again" in errors[-1].content


def test_an_invented_number_in_the_answer_is_caught_and_replaced() -> None:
    model = ScriptedChatModel.of(call("estimate_training_cost", **ARGS_EN),
                                 "It will cost about $99,999 and take 4,321 hours.")
    r = ask(Q_EN, model=model)
    assert r.mode == "offline_fallback" and not r.grounded
    assert "$99,999" in r.grounding[0] and "4,321" in r.grounding[0]
    assert "99,999" not in r.answer
    total = r.tool_calls[0].result["cost"]["total"]
    assert format_money(total, "USD") in r.answer  # the templated explanation
    assert r.notice and "could not be traced" in r.notice
    assert r.answer.count("Read more") <= 1


def test_invented_tool_arguments_are_replaced_by_the_parsers_reading() -> None:
    q = "LoRA fine-tune an 8B model on 150 million tokens, how much?"
    model = ScriptedChatModel.of(call("estimate_training_cost", params_b=783, tokens_b=150, method="lora"),
                                 quote_cost)
    r = ask(q, model=model)
    args = r.tool_calls[0].args
    assert args["params_b"] == 8 and args["tokens_b"] == pytest.approx(0.15)
    assert r.tool_calls[0].result["inputs"]["params_b"] == 8
    assert not r.grounded and r.mode == "llm+repaired" and r.notice
    assert any("params_b" in g and "783" in g for g in r.repairs)
    assert any("tokens_b" in g for g in r.repairs)
    assert "Corrected from your question" in r.answer
    note = json.loads([m for m in model.received[1] if isinstance(m, ToolMessage)][-1].content)["note"]
    assert "corrected" in note


def test_an_untraceable_argument_the_parser_did_not_read_is_dropped() -> None:
    model = ScriptedChatModel.of(call("estimate_training_cost", **ARGS_EN, mfu=0.73), quote_cost)
    r = ask(Q_EN, model=model)
    assert "mfu" not in r.tool_calls[0].args
    assert any(g.startswith("estimate_training_cost.mfu") for g in r.repairs)


def test_figures_from_the_users_words_are_grounded() -> None:
    model = ScriptedChatModel.of(call("estimate_training_cost", **ARGS_EN),
                                 lambda m: quote_cost(m) + " You asked about 8 A100s and 100 million tokens.")
    assert ask(Q_EN, model=model).grounded


def test_endpoint_down_answers_offline_with_a_notice() -> None:
    r = ask(Q_EN, model=DownChatModel())
    assert r.mode == "offline_fallback"
    assert r.notice == "LLM endpoint unreachable; answered offline."
    assert r.tool_calls[0].name == "estimate_training_cost" and r.tool_calls[0].result
    r_zh = ask("用8张A100做LoRA微调Llama3-8B要多少钱，数据1亿token", model=DownChatModel(error="timeout"))
    assert r_zh.mode == "offline_fallback" and r_zh.notice == "LLM 服务响应超时，本次由离线助手回答。"


def test_followup_in_llm_mode_keeps_the_request() -> None:
    first = ask(Q_EN, model=ScriptedChatModel.of(call("estimate_training_cost", **ARGS_EN), quote_cost))
    model = ScriptedChatModel.of(call("estimate_training_cost", **{**ARGS_EN, "billing": "spot"}), quote_cost)
    second = ask("what about spot?", history=first.history, model=model)
    assert second.tool_calls[0].args["billing"] == "spot" and second.grounded
    sent = model.received[0]
    assert any("estimate_training_cost" in str(m.content) for m in sent[:-1])  # previous call in the history
    assert second.history[-1]["parsed"]["is_followup"] is True


def test_followup_after_an_llm_turn_falls_back_offline_with_the_same_request() -> None:
    q = "用8张A100全参微调Llama-3-8B，1亿token，要多少钱"
    args = {"model": "llama-3-8b", "method": "full", "tokens_b": 0.1, "gpu": "A100", "gpu_count": 8}
    first = ask(q, model=ScriptedChatModel.of(call("estimate_training_cost", **args), quote_cost))
    second = ask("换成H100呢？", history=first.history, model=DownChatModel())
    assert second.mode == "offline_fallback" and second.notice
    got = second.tool_calls[0].args
    assert got["gpu"] == "H100-SXM" and got["model"] == "llama-3-8b" and got["gpu_count"] == 8
    assert second.lang == "zh"


def test_a_model_that_answers_without_tools_cannot_invent_prices() -> None:
    r = ask(Q_EN, model=ScriptedChatModel.of("That will be roughly $4,321."))
    assert not r.grounded and r.mode == "offline_fallback" and r.notice
    assert "4,321" not in r.answer
    assert r.tool_calls and r.tool_calls[0].result  # the offline path priced it


def test_search_knowledge_results_become_citations() -> None:
    model = ScriptedChatModel.of(call("search_knowledge", query="spot instances reclaim", k=3),
                                 lambda m: "Spot capacity can be reclaimed; keep checkpoints frequent.")
    r = ask("What is a spot instance?", model=model)
    assert r.grounded and r.citations
    assert all(c.path.startswith("knowledge/guides/") for c in r.citations)


def test_chinese_followup_in_llm_mode_and_a_chinese_answer() -> None:
    q = "用8张A100全参微调Llama-3-8B，1亿token，要多少钱"
    args = {"model": "llama-3-8b", "method": "full", "tokens_b": 0.1, "gpu": "A100", "gpu_count": 8}
    first = ask(q, model=ScriptedChatModel.of(call("estimate_training_cost", **args), quote_cost))
    assert first.lang == "zh"

    def zh_answer(messages) -> str:
        r = last_tool_result(messages)
        return f"换成 {r['gpu']['name']} 后约 {format_money(r['cost']['total'], r['cost']['currency'])}。"

    second = ask("换成H100呢？", history=first.history,
                 model=ScriptedChatModel.of(call("estimate_training_cost", **{**args, "gpu": "H100"}), zh_answer))
    assert second.mode == "llm" and second.grounded and second.answer.startswith("换成 H100")
    assert second.tool_calls[0].args["gpu_count"] == 8


def test_a_clarifying_question_from_the_model_is_kept() -> None:
    r = ask("训练大模型要多少钱？", model=ScriptedChatModel.of("请问训练哪个模型、数据有多少？"))
    assert r.mode == "llm" and r.grounded and not r.tool_calls
    assert r.answer == "请问训练哪个模型、数据有多少？"


def test_tool_findings_and_argument_language_follow_the_question() -> None:
    q = "用8张A100全参微调Llama-3-8B，1亿token，要多少钱"
    args = {"model": "llama-3-8b", "method": "full", "tokens_b": 0.1, "gpu": "A100", "gpu_count": 8}
    r = ask(q, model=ScriptedChatModel.of(call("estimate_training_cost", **args), quote_cost))
    assert r.tool_calls[0].result["inputs"]["lang"] == "zh"
    assert all(f.lang == "zh" for f in r.findings)


def test_settings_defaults_fill_what_the_model_left_open() -> None:
    model = ScriptedChatModel.of(call("estimate_training_cost", **ARGS_EN), quote_cost)
    r = ask(Q_EN, model=model, tool_defaults={"currency": "CNY", "approval_threshold": 5000})
    inputs = r.tool_calls[0].result["inputs"]
    assert inputs["currency"] == "CNY" and inputs["approval_threshold"] == 5000
    assert r.grounded and "¥" in r.answer


def test_numbers_from_an_earlier_result_of_the_turn_may_be_used() -> None:
    q = "Which GPU should we rent to LoRA fine-tune Llama-3-8B on 100 million tokens?"

    def price_the_cheapest(messages):
        best = last_tool_result(messages)["cheapest"]
        return call("estimate_training_cost", model="llama-3-8b", method="lora", tokens_b=0.1,
                    gpu=best["gpu"], gpu_count=best["gpu_count"])

    model = ScriptedChatModel.of(call("recommend_hardware", model="llama-3-8b", method="lora", tokens_b=0.1),
                                 price_the_cheapest, quote_cost)
    r = ask(q, model=model)
    rec, est = r.tool_calls
    assert est.args["gpu_count"] == rec.result["cheapest"]["gpu_count"]
    assert r.grounded, r.grounding
