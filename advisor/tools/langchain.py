"""The seven tools as LangChain tools, for the LLM agent.

Each tool's argument schema is derived from the tool's own pydantic request model, so the
model sees the same field descriptions ("set it when ...") and ``Literal`` choices that the
CLI documents; fields the assistant sets itself (``lang``, ``prices_file``) are hidden.
A refused call comes back to the model as an error ``ToolMessage`` that names the bad
argument, what is accepted and the next step, so the model can correct itself.

Every call goes through an optional *guard* (the assistant's argument grounding) and
returns ``(content, artifact)``: compact JSON for the model, and for the assistant the
validated arguments, the full report and the guard's notes.

LangChain is imported here and in :mod:`advisor.assistant` only (docs/INTERNALS.md).
"""

from __future__ import annotations

import json
import typing
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from advisor.errors import AdvisorError, InputError
from advisor.tools import TOOL_NAMES

__all__ = ["Guard", "llm_schema", "make_tools", "request_model", "tool_description"]

Guard = Callable[[str, dict[str, Any]], tuple[dict[str, Any], list[str]]]
"""``guard(tool_name, args) -> (args, notes)``: may fix arguments before the call; a guard
with an ``observe(result)`` method is shown every report the tools return."""

HIDDEN_FIELDS = ("lang", "prices_file")
"""Set by the assistant (the turn's language, the user's settings), never by the model."""

WHEN: dict[str, str] = {
    "estimate_training_cost": (
        "Use when the user asks what one training or fine-tuning run costs or how long it takes "
        "(a model or parameter count plus an amount of data). Returns cost with a low-high range, "
        "GPU-hours, wall time, memory fit, every billing mode, assumptions and findings."
    ),
    "recommend_hardware": (
        "Use when the user asks which GPU, how many, or which is cheaper/faster for a workload "
        "('4090 or A100?', '用什么卡'). Returns ranked options, the cheapest and the fastest."
    ),
    "compare_billing": (
        "Use when the user compares billing modes (on-demand, daily, monthly, yearly, spot, "
        "off-peak, per-task) for renting given GPUs for a period. Returns each mode's total and "
        "the break-even points."
    ),
    "plan_project": (
        "Use when the user asks for a whole project across stages (validation, pre-training, "
        "fine-tuning, serving). Returns each stage's cost and share of the total."
    ),
    "review_contract": (
        "Use when the user pastes a GPU rental contract or clauses, or names a contract file, "
        "and asks what to watch out for. Returns the traps found with quotes, and missing protections."
    ),
    "analyze_usage": (
        "Use when the user reports GPU utilization or idle cards, or gives usage/billing export "
        "files. Returns the money wasted and what to change."
    ),
    "search_knowledge": (
        "Use when the user asks how or why (practices, terms, billing modes, contracts, "
        "onboarding). Returns guide sections to quote and cite; it computes no prices."
    ),
}


def request_model(name: str) -> type[BaseModel]:
    """The pydantic request model of tool ``name`` (read from its signature)."""
    func = _function(name)
    hints = typing.get_type_hints(func)
    for arg in typing.get_args(hints.get("request")) or (hints.get("request"),):
        if isinstance(arg, type) and issubclass(arg, BaseModel):
            return arg
    raise InputError("tool", name, "a tool whose first argument is its pydantic request model")


def _function(name: str) -> Callable[..., BaseModel]:
    if name not in TOOL_NAMES:
        raise InputError("tool", name, ", ".join(TOOL_NAMES))
    import advisor.tools as tools

    return getattr(tools, name)


@lru_cache(maxsize=16)
def llm_schema(name: str) -> type[BaseModel]:
    """The argument schema shown to the model: the request's fields minus :data:`HIDDEN_FIELDS`,
    with ``currency`` as a closed choice."""
    req = request_model(name)
    fields: dict[str, Any] = {}
    for field, info in req.model_fields.items():
        if field in HIDDEN_FIELDS:
            continue
        fields[field] = (info.annotation, info)
    if "currency" in fields:
        fields["currency"] = (
            Literal["USD", "CNY"] | None,
            Field(None, description="USD or CNY. Set CNY when the user prices in 元/RMB/人民币 or writes in Chinese "
                                    "without a currency; USD for $; leave empty otherwise."),
        )
    model = create_model(
        f"{req.__name__.removesuffix('Request')}Args",
        __config__=ConfigDict(extra="forbid"),
        __doc__=(req.__doc__ or "").strip() or None,
        **fields,
    )
    return model


def tool_description(name: str) -> str:
    doc = (_function(name).__doc__ or "").strip()
    first = " ".join(doc.split("\n\n")[0].split())
    return f"{first} {WHEN.get(name, '')}".strip()


def compact(result: dict[str, Any], lang: str) -> dict[str, Any]:
    """What the model reads of a report: one language, no duplicate texts, assumptions as
    ``{name: value}`` (their sources stay in the full report), the top of long lists."""
    out: dict[str, Any] = {}
    for key, value in result.items():
        if key == "summary" and isinstance(value, dict):
            out[key] = value.get(lang) or value.get("en")
        elif key == "findings" and isinstance(value, list):
            out[key] = [{k: v for k, v in f.items() if k not in ("text", "lang", "source")} for f in value]
        elif key == "assumptions" and isinstance(value, list):
            out[key] = {a.get("name"): a.get("value") for a in value if isinstance(a, dict)}
        elif key in ("options", "pareto", "hits") and isinstance(value, list):
            out[key] = value[:6]
        else:
            out[key] = value
    return _one_language(out, lang)


def _one_language(value: Any, lang: str) -> Any:
    """Drop ``*_zh`` twins of English texts when the conversation is in English."""
    if isinstance(value, dict):
        return {k: _one_language(v, lang) for k, v in value.items() if lang == "zh" or not str(k).endswith("_zh")}
    if isinstance(value, list):
        return [_one_language(v, lang) for v in value]
    return value


def _hint(name: str, message: str) -> str:
    return f"Error: {message}. Fix that argument and call {name} again, or ask the user for it."


def _validation_message(name: str) -> Callable[[ValidationError], str]:
    def handle(exc: ValidationError) -> str:
        from advisor.engine.models import input_error

        return _hint(name, input_error(exc).one_line())

    return handle


def _tool_error_message(exc: Exception) -> str:
    return str(exc)


def make_tools(
    *,
    lang: str = "en",
    guard: Guard | None = None,
    names: tuple[str, ...] = TOOL_NAMES,
    defaults: dict[str, Any] | None = None,
) -> list[Any]:
    """LangChain ``StructuredTool``s for ``names``; tools whose module is not installed are
    left out (the model cannot call what does not exist). ``defaults`` (the user's settings:
    currency, budget, price sheet) fill the fields a call leaves open."""
    from langchain_core.tools import StructuredTool

    tools = []
    for name in names:
        try:
            schema = llm_schema(name)
        except (ImportError, AttributeError):
            continue
        tools.append(
            StructuredTool.from_function(
                func=_runner(name, lang, guard, defaults or {}),
                name=name,
                description=tool_description(name),
                args_schema=schema,
                response_format="content_and_artifact",
                handle_tool_error=_tool_error_message,
                handle_validation_error=_validation_message(name),
            )
        )
    return tools


def _runner(name: str, lang: str, guard: Guard | None, defaults: dict[str, Any]) -> Callable[..., tuple[str, dict[str, Any]]]:
    def run(**kwargs: Any) -> tuple[str, dict[str, Any]]:
        from langchain_core.tools import ToolException

        schema = llm_schema(name).model_fields
        # LangChain fills in the schema's defaults; keep what the model chose (a default means the same to the tool)
        args = {k: v for k, v in kwargs.items() if v is not None and not (k in schema and schema[k].default == v)}
        notes: list[str] = []
        if guard is not None:
            args, notes = guard(name, args)
        req_model = request_model(name)
        call = dict(args)
        if "lang" in req_model.model_fields and "lang" not in call:
            call["lang"] = lang
        for key, value in defaults.items():
            if key in req_model.model_fields and call.get(key) is None and value is not None:
                call[key] = value
                args[key] = value
        try:
            report = _function(name)(**call)
        except AdvisorError as exc:
            raise ToolException(_hint(name, exc.one_line())) from None
        result = report.model_dump(mode="json")
        observe = getattr(guard, "observe", None)
        if callable(observe):
            observe(result)
        content = json.dumps(compact(result, lang), ensure_ascii=False, separators=(",", ":"), default=str)
        if notes:
            content = json.dumps({"note": "some arguments were corrected to match the question: " + "; ".join(notes),
                                  "result": json.loads(content)}, ensure_ascii=False, separators=(",", ":"))
        return content, {"args": _jsonable(args), "result": result, "grounding": notes}

    run.__name__ = name
    return run


def _jsonable(args: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(args, ensure_ascii=False, default=str))


