"""The real client end to end (ChatOpenAI -> HTTP) against a stand-in server on 127.0.0.1:
tool schemas sent, tool results round-tripped, streaming, endpoint failures, key hygiene."""

from __future__ import annotations

import json
import logging

import pytest

from advisor.assistant import ask
from advisor.assistant.config import load_config
from advisor.money import format_money

pytestmark = pytest.mark.usefixtures("clean_llm_env")

SECRET = "sk-test-STANDIN-7f3a9c2e51"
Q = "LoRA fine-tune Llama-3-8B on 100 million tokens with 8 A100s, how much?"
ARGS = {"model": "llama-3-8b", "method": "lora", "tokens_b": 0.1, "gpu": "A100", "gpu_count": 8}


def cfg(url: str, **kw):
    return load_config(env={}, dotenv_path=None, base_url=url, model="stand-in", api_key=SECRET,
                       timeout_s=kw.pop("timeout_s", 10), max_retries=kw.pop("max_retries", 0), **kw)


def call_estimate(body):
    return {"tool_calls": [{"name": "estimate_training_cost", "arguments": ARGS}]}


def answer_from_tool(body):
    tool = [m for m in body["messages"] if m["role"] == "tool"][-1]
    r = json.loads(tool["content"])
    r = r.get("result", r)  # a result with a note that arguments were corrected
    cur = r["cost"]["currency"]
    return {"content": f"Expected cost {format_money(r['cost']['total'], cur)} on {r['gpu']['count']}× "
                       f"{r['gpu']['name']}, range {format_money(r['cost']['low'], cur)}–"
                       f"{format_money(r['cost']['high'], cur)}."}


def test_schemas_sent_results_round_tripped_and_tokens_streamed(stand_in) -> None:
    server = stand_in(call_estimate, answer_from_tool)
    tokens: list[str] = []
    r = ask(Q, config=cfg(server.url), on_token=tokens.append)
    assert r.mode == "llm" and r.grounded, r.grounding
    first, second = server.requests
    tools = {t["function"]["name"]: t["function"] for t in first["tools"]}
    assert {"estimate_training_cost", "recommend_hardware", "compare_billing", "plan_project",
            "search_knowledge"} <= set(tools)
    params = tools["estimate_training_cost"]["parameters"]["properties"]
    assert "billions" in params["params_b"]["description"]
    assert set(params["currency"]["enum"]) == {"USD", "CNY"}
    assert first["tool_choice"] == "auto"
    assert "lang" not in params and "prices_file" not in params
    assert first["stream"] is True and first["model"] == "stand-in"
    assert first["messages"][0]["role"] == "system" and "tool result" in first["messages"][0]["content"]
    tool_msgs = [m for m in second["messages"] if m["role"] == "tool"]
    assert tool_msgs and json.loads(tool_msgs[0]["content"])["cost"]["total"] == r.tool_calls[0].result["cost"]["total"]
    assert len(tokens) > 3 and "".join(tokens) == r.answer
    assistant = [m for m in second["messages"] if m["role"] == "assistant"]
    assert assistant and all(m.get("content") is not None for m in assistant)  # never content: null
    assert server.headers[0]["authorization"] == f"Bearer {SECRET}"


def test_endpoint_down_answers_offline_with_notice(closed_port, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    r = ask(Q, config=cfg(f"http://127.0.0.1:{closed_port}/v1"))
    assert r.mode == "offline_fallback" and r.notice == "LLM endpoint unreachable; answered offline."
    assert r.tool_calls[0].result["cost"]["total"] > 0
    assert SECRET not in caplog.text and SECRET not in r.model_dump_json()


def test_server_error_falls_back_with_its_status(stand_in) -> None:
    server = stand_in(lambda body: {"status": 500})
    r = ask("用8张A100做LoRA微调Llama3-8B要多少钱，数据1亿token", config=cfg(server.url))
    assert r.mode == "offline_fallback" and r.notice == "LLM 服务出错（HTTP 500），本次由离线助手回答。"


def test_rejected_key_falls_back_without_echoing_it(stand_in, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    server = stand_in(lambda body: {"status": 401})
    r = ask(Q, config=cfg(server.url))
    assert r.notice == "LLM endpoint refused the API key; answered offline."
    assert SECRET not in caplog.text and SECRET not in r.model_dump_json()


def test_timeout_falls_back(stand_in) -> None:
    server = stand_in(lambda body: {"sleep": 2, "content": "late"})
    r = ask(Q, config=cfg(server.url, timeout_s=0.3))
    assert r.mode == "offline_fallback" and r.notice == "LLM endpoint timed out; answered offline."


def test_a_mangled_argument_over_http_is_repaired_from_the_question(stand_in) -> None:
    bad = {"tool_calls": [{"name": "estimate_training_cost", "arguments": {**ARGS, "gpu_count": "eight"}}]}
    server = stand_in(lambda body: bad, answer_from_tool)
    r = ask(Q, config=cfg(server.url))
    assert r.mode == "llm+repaired" and r.notice
    assert r.tool_calls[0].args["gpu_count"] == 8 and r.tool_calls[0].result
    assert any("gpu_count" in line for line in r.repairs)
    tool_msg = [m for m in server.requests[1]["messages"] if m["role"] == "tool"][-1]
    assert "corrected" in tool_msg["content"]


def test_a_refused_argument_comes_back_to_the_model_with_the_next_step(stand_in) -> None:
    q = "LoRA fine-tune Llama-3-8B on 100 million tokens on A100 with mfu 3, how much?"  # the user's own mistake
    args = {"model": "llama-3-8b", "method": "lora", "tokens_b": 0.1, "gpu": "A100"}
    bad = {"tool_calls": [{"name": "estimate_training_cost", "arguments": {**args, "mfu": 3}}]}
    fixed = {"tool_calls": [{"name": "estimate_training_cost", "arguments": args}]}
    server = stand_in(lambda body: bad, lambda body: fixed, answer_from_tool)
    r = ask(q, config=cfg(server.url))
    assert r.tool_calls[0].error and "mfu" in r.tool_calls[0].error
    error_msg = [m for m in server.requests[1]["messages"] if m["role"] == "tool"][-1]
    assert "call estimate_training_cost again" in error_msg["content"]
    assert r.tool_calls[1].result is not None


def test_environment_switches_the_llm_on(stand_in, monkeypatch, capsys) -> None:
    server = stand_in(call_estimate, answer_from_tool)
    monkeypatch.setenv("OPENAI_BASE_URL", server.url)
    monkeypatch.setenv("ADVISOR_LLM_MODEL", "stand-in")
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("ADVISOR_LLM_RETRIES", "0")
    from advisor.cli import main

    assert main(["ask", "--json", Q]) == 0
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert data["mode"] == "llm" and data["grounded"] is True
    assert SECRET not in out.out and SECRET not in out.err


def test_a_config_mapping_without_a_key_answers_offline(stand_in) -> None:
    server = stand_in(call_estimate, answer_from_tool)
    r = ask(Q, offline=False, config={"base_url": "https://llm.example.com/v1", "model": "m", "api_key": None})
    assert r.mode == "offline_fallback" and r.notice == "No API key is set for the LLM endpoint; answered offline."
    ok = ask(Q, config={"base_url": server.url, "model": "stand-in", "api_key": SECRET, "max_retries": 0})
    assert ok.mode == "llm" and ok.grounded
