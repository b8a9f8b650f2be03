"""The tools as the LLM sees them: one compact request schema per tool, generated from the
tools' own pydantic request models (every tool in :data:`advisor.tools.TOOL_NAMES`).

A model is shown the fields a user states in a question — the request's required fields,
plus the ``core`` field names of ``knowledge/assistant/llm.yaml`` (a tool with few fields is
shown whole) — with their ``Literal`` choices as enums and the first sentence of their
descriptions. Every other field keeps its default and stays out of the schema: the Python
and CLI requests stay complete. ``lang`` and ``prices_file`` are set by the assistant.
``plan_project.stages`` items get a full item schema.

:func:`openai_tool` is the OpenAI ``tools`` entry: the plain (compact) form by default, or
the OpenAI strict form (every property required, optional ones nullable, no extra keys).
:func:`compact` is what the model reads of a report.

LangChain and the OpenAI SDK are imported inside functions only (docs/INTERNALS.md).
"""

from __future__ import annotations

import copy
import json
import re
import typing
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

import advisor.tools as tools
from advisor.config import knowledge_dir
from advisor.datafile import read_mapping
from advisor.errors import DataError, InputError
from advisor.tools import TOOL_NAMES

__all__ = ["HIDDEN_FIELDS", "compact", "llm_schema", "llm_settings", "openai_tool", "openai_tools", "request_model",
           "tool_description"]

HIDDEN_FIELDS = ("lang", "prices_file")
"""Set by the assistant (the turn's language, the user's settings), never by the model."""

@lru_cache(maxsize=1)
def llm_settings() -> dict[str, Any]:
    """``knowledge/assistant/llm.yaml`` (schema selection and reply checks)."""
    path = knowledge_dir() / "assistant" / "llm.yaml"
    data = read_mapping(path)
    if not isinstance(data.get("schema"), dict):
        raise DataError(str(path), "expected `schema:` and `reply:` sections")
    return data


@lru_cache(maxsize=64)
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

    return getattr(tools, name)


_SENTENCE_END = re.compile(r"(?<!e\.g)(?<!i\.e)(?<!\bvs)\. ")


def _short(text: str | None, limit: int) -> str:
    text = " ".join((text or "").split())
    end = _SENTENCE_END.search(text)
    text = text[: end.start() + 1] if end else text
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def shown_fields(name: str) -> list[str]:
    """The request fields of ``name`` a model is shown, in the request's order."""
    conf = llm_settings()["schema"]
    fields = {k: f for k, f in request_model(name).model_fields.items() if k not in HIDDEN_FIELDS}
    if len(fields) <= int(conf["whole_up_to"]):
        return list(fields)
    core = set(conf["core"])
    return [k for k, f in fields.items() if f.is_required() or k in core]


def _stage_item() -> type[BaseModel]:
    """``plan_project`` stages: the stage name plus the estimate fields a stage reads."""
    # lazy: loads numpy only when this runs (cold start)
    from advisor.tools.plan import StageSpec

    conf = llm_settings()["schema"]
    est = request_model("estimate_training_cost").model_fields
    fields: dict[str, Any] = {}
    for key, info in StageSpec.model_fields.items():
        fields[key] = (info.annotation, Field(info.default, description=_describe(key, info.description)))
    for key in conf["stage_fields"]:
        if key in est and key not in fields:
            info = est[key]
            fields[key] = (_optional(info.annotation), Field(None, description=_describe(key, info.description)))
    return create_model("StageArgs", __config__=ConfigDict(extra="forbid"), **fields)


def _describe(key: str, description: str | None) -> str:
    """The first sentence of a field's description, or the data file's text for the field."""
    conf = llm_settings()["schema"]
    own = conf.get("descriptions", {}).get(key)
    return own or _short(description, int(conf["description_chars"])) or key.replace("_", " ")


def _optional(annotation: Any) -> Any:
    args = typing.get_args(annotation)
    if type(None) in args:
        return annotation
    return annotation | None


@lru_cache(maxsize=32)
def llm_schema(name: str) -> type[BaseModel]:
    """The compact argument model of tool ``name`` (see the module docstring)."""
    req = request_model(name)
    limit = int(llm_settings()["schema"]["description_chars"])
    fields: dict[str, Any] = {}
    for key in shown_fields(name):
        info = req.model_fields[key]
        annotation: Any = info.annotation
        if key == "stages":
            annotation = list[_stage_item()] | None  # type: ignore[misc]
        elif key == "currency":
            annotation = Literal["USD", "CNY"] | None
        default = ... if info.is_required() else None
        if not info.is_required():
            annotation = _optional(annotation)
        fields[key] = (annotation, Field(default, description=_describe(key, info.description)))
    return create_model(f"{req.__name__.removesuffix('Request')}Args", __config__=ConfigDict(extra="forbid"),
                        __doc__=_short(req.__doc__, limit) or None, **fields)


def tool_description(name: str) -> str:
    """The tool's first sentence and when to use it (its docstring's "Use when ..." sentence,
    or llm.yaml ``schema.when`` for tools whose docstring has none)."""
    doc = " ".join((_function(name).__doc__ or "").split())
    use = re.search(r"\bUse (?:it )?when\b.*", doc)
    when = _short(use.group(0), 240) if use else llm_settings()["schema"]["when"].get(name, "")
    return f"{_short(doc, 160)} {when}".strip()


def _plain(schema: dict[str, Any]) -> dict[str, Any]:
    """The compact JSON schema: nested models inlined, ``X | None`` shown as ``X``, no titles
    or null defaults."""
    defs = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return walk(copy.deepcopy(defs[node["$ref"].split("/")[-1]]))
            options = node.get("anyOf")
            if isinstance(options, list):
                real = [o for o in options if o.get("type") != "null"]
                if len(real) == 1:
                    rest = {k: v for k, v in node.items() if k not in ("anyOf", "default")}
                    return walk({**real[0], **rest})
            return {k: walk(v) for k, v in node.items() if k != "title" and not (k == "default" and v is None)}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(schema)


@lru_cache(maxsize=64)
def _tool_json(name: str, strict: bool) -> str:
    model = llm_schema(name)
    if strict:
        from openai.lib._pydantic import to_strict_json_schema

        params = to_strict_json_schema(model)
    else:
        params = _plain(model.model_json_schema())
    params.pop("title", None)
    params.pop("description", None)
    function: dict[str, Any] = {"name": name, "description": tool_description(name), "parameters": params}
    if strict:
        function["strict"] = True
    return json.dumps({"type": "function", "function": function}, ensure_ascii=False)


def openai_tool(name: str, *, strict: bool = False) -> dict[str, Any]:
    """The OpenAI ``tools`` entry of ``name`` (a fresh dict each call)."""
    return json.loads(_tool_json(name, strict))


def openai_tools(*, strict: bool = False) -> list[dict[str, Any]]:
    """Every installed tool's entry; tools whose module is missing are left out."""
    out = []
    for name in TOOL_NAMES:
        try:
            out.append(openai_tool(name, strict=strict))
        except (ImportError, AttributeError):
            continue
    return out


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
