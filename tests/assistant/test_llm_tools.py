"""The tools as the LLM sees them (advisor/tools/langchain.py): compact schemas generated from
every tool's request model, enums for closed choices, a full stage item schema, and OpenAI
strict mode accepted by the OpenAI SDK's own schema converter."""

from __future__ import annotations

import json

import pytest

from advisor.tools import TOOL_NAMES
from advisor.tools.langchain import (
    HIDDEN_FIELDS,
    llm_schema,
    openai_tool,
    openai_tools,
    request_model,
    shown_fields,
)


def test_every_tool_of_the_descriptors_has_a_schema_with_described_fields() -> None:
    tools = {t["function"]["name"]: t["function"] for t in openai_tools()}
    assert set(tools) == set(TOOL_NAMES)
    for name, fn in tools.items():
        assert "Use " in fn["description"], name
        props = fn["parameters"]["properties"]
        assert not set(HIDDEN_FIELDS) & set(props), name
        assert all(v.get("description") for v in props.values()), name
        required = {k for k, f in request_model(name).model_fields.items() if f.is_required()}
        assert required <= set(props) and set(fn["parameters"].get("required", [])) == required, name
        if "currency" in props:
            assert set(props["currency"]["enum"]) == {"USD", "CNY"}


def test_large_requests_show_only_the_fields_a_user_states() -> None:
    est = set(shown_fields("estimate_training_cost"))
    full = set(request_model("estimate_training_cost").model_fields)
    assert {"model", "params_b", "method", "tokens_b", "gpu", "gpu_count", "price_per_gpu_hour", "billing"} <= est
    assert len(est) <= len(full) // 2
    assert not {"optimizer_in_backward", "chunked_loss", "lora_targets", "tensor_parallel"} & est
    assert set(shown_fields("search_knowledge")) == {"query", "k"}  # a small tool is shown whole


def test_closed_choices_are_enums() -> None:
    props = openai_tool("estimate_training_cost")["function"]["parameters"]["properties"]
    for field in ("method", "precision", "billing"):
        assert props[field].get("enum"), field


def test_plan_stages_have_a_full_item_schema() -> None:
    item = openai_tool("plan_project")["function"]["parameters"]["properties"]["stages"]["items"]
    assert item["properties"]["stage"]["enum"] == ["validation", "pretrain", "finetune", "serving"]
    assert {"method", "tokens_b", "gpu", "gpu_count", "tokens_per_day", "days"} <= set(item["properties"])
    assert item["required"] == ["stage"] and item["additionalProperties"] is False


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_strict_mode_is_accepted_by_the_openai_sdk(name: str) -> None:
    from openai import pydantic_function_tool

    strict = openai_tool(name, strict=True)["function"]
    assert strict["strict"] is True
    params = strict["parameters"]
    assert set(params["required"]) == set(params["properties"]) and params["additionalProperties"] is False
    tool = pydantic_function_tool(llm_schema(name), name=name)
    assert tool["function"]["strict"] is True


def test_the_compact_schemas_are_at_most_half_the_full_request_schemas() -> None:
    compact = len(json.dumps(openai_tools(), separators=(",", ":")))
    full = sum(len(json.dumps(request_model(n).model_json_schema(), separators=(",", ":"))) for n in TOOL_NAMES)
    assert compact <= full / 2, (compact, full)


def test_a_schema_validates_what_the_model_sends() -> None:
    schema = llm_schema("compare_billing")
    assert schema(gpu="H100", wall_hours=336).gpu == "H100"
    with pytest.raises(ValueError):
        schema(gpu="H100", wall_hours=336, optimizer="sgd")
