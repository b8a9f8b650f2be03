"""The LangChain tools (advisor/tools/langchain.py): schemas the model can act on, results
as compact JSON plus the full report, refusals as actionable error messages."""

from __future__ import annotations

import json

import pytest

from advisor.tools import TOOL_NAMES
from advisor.tools.langchain import HIDDEN_FIELDS, make_tools


@pytest.fixture(scope="module")
def tools() -> dict:
    return {t.name: t for t in make_tools(lang="en")}


def invoke(tool, **args):
    return tool.invoke({"type": "tool_call", "name": tool.name, "args": args, "id": "call_test"})


def test_all_seven_tools_with_described_fields(tools) -> None:
    assert set(tools) == set(TOOL_NAMES)
    for name, tool in tools.items():
        assert "Use when" in tool.description, name
        props = tool.args_schema.model_json_schema()["properties"]
        assert not set(HIDDEN_FIELDS) & set(props), name
        undocumented = [k for k, v in props.items() if not v.get("description")]
        assert not undocumented, (name, undocumented)
        if "currency" in props:
            assert set(props["currency"]["anyOf"][0]["enum"]) == {"USD", "CNY"}


def test_closed_choices_are_enums(tools) -> None:
    props = tools["estimate_training_cost"].args_schema.model_json_schema()["properties"]
    for field in ("method", "precision", "billing"):
        assert props[field]["anyOf"][0].get("enum"), field


def test_a_call_returns_compact_json_and_the_full_report(tools) -> None:
    msg = invoke(tools["compare_billing"], gpu="H100", gpu_count=8, wall_hours=336)
    assert msg.status == "success"
    content = json.loads(msg.content)
    assert isinstance(content["summary"], str) and isinstance(content["assumptions"], dict)
    assert msg.artifact["result"]["inputs"]["gpu"].startswith("H100")
    assert msg.artifact["args"] == {"gpu": "H100", "gpu_count": 8, "wall_hours": 336}


@pytest.mark.parametrize(("name", "args", "needle"), [
    ("estimate_training_cost", {"model": "llama-3-8b", "tokens_b": 0.1, "method": "lora-ish"}, "method"),
    ("estimate_training_cost", {"model": "llama-3-8b", "tokens_b": 0.1, "gpu": "H1000"}, "did you mean"),
    ("compare_billing", {"gpu": "H100", "wall_hours": -5}, "wall_hours"),
    ("search_knowledge", {"query": ""}, "query"),
])
def test_refusals_name_the_argument_and_the_next_step(tools, name, args, needle) -> None:
    msg = invoke(tools[name], **args)
    assert msg.status == "error"
    assert needle in msg.content and f"call {name} again" in msg.content
    assert "Traceback" not in msg.content


def test_the_guard_sees_and_may_change_every_call() -> None:
    seen = []

    def guard(name, args):
        seen.append((name, dict(args)))
        return {**args, "gpu_count": 4}, ["gpu_count: 9 replaced by 4"]

    (tool,) = make_tools(lang="zh", guard=guard, names=("compare_billing",))
    msg = invoke(tool, gpu="A100", gpu_count=9, wall_hours=100)
    assert seen == [("compare_billing", {"gpu": "A100", "gpu_count": 9, "wall_hours": 100})]
    assert msg.artifact["result"]["inputs"]["gpu_count"] == 4 and msg.artifact["grounding"]
    assert "corrected" in json.loads(msg.content)["note"]
    assert msg.artifact["result"]["inputs"]["lang"] == "zh"
