"""The first lines of every answer: what the assistant understood, in the user's language, and
the decisive assumptions it made (epochs, tokens per sample, price sheet and provider, storage
retention, deadline) — in the answer text, not only in the JSON.

The job is restated from the tool's normalised ``inputs`` (what was actually priced) with the
request's own arguments (what the user said); assumption lines come from the report's
``assumptions`` whose names ``knowledge/lexicon.yaml`` lists as decisive, for fields the user
did not give.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from pydantic import ValidationError

from advisor.assistant.offline.lexicon import lexicon
from advisor.findings import Assumption
from advisor.glossary import entries, has, mode, term
from advisor.present.common import assumption_source, assumption_value, keyed
from advisor.present.fmt import number as num

_CONVERTED = re.compile(r"converted to [A-Z]{3} at [\d.]+ \([\d-]+")
HEAD = {"en": "**What I understood:** ", "zh": "**我的理解：** "}
ASSUMED = {"en": "**Assumed:** ", "zh": "**假设：** "}
_SEP = {"en": "; ", "zh": "；"}
_COLON = {"en": ": ", "zh": "："}
_SKIP = {"lang", "query", "k", "text", "path", "files", "stages", "gpus", "billing_modes", "top_k"}


def label(key: str, lang: str) -> str:
    """How a request field is named to the user (glossary ``field.<key>``)."""
    return term(f"field.{key}", lang) if has(f"field.{key}") else key.replace("_", " ")


def tokens_text(billions: float, lang: str) -> str:
    """``0.1`` -> ``100M tokens`` / ``1亿 token``."""
    n = float(billions) * 1e9
    if lang == "zh":
        if n >= 1e8:
            return f"{num(n / 1e8)}亿 token"
        if n >= 1e4:
            return f"{num(n / 1e4)}万 token"
        return f"{num(n)} token"
    for scale, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")):
        if n >= scale:
            return f"{num(n / scale)}{suffix} tokens"
    return f"{num(n)} tokens"


def _count(n: float, lang: str) -> str:
    if lang == "zh" and n >= 1e4:
        return f"{num(n / 1e4)}万"
    return num(n)


def _model(inp: dict[str, Any], lang: str) -> str:
    if inp.get("model"):
        return str(inp["model"])
    if inp.get("params_b"):
        size = f"{num(float(inp['params_b']))}B"
        return f"a {size} model" if lang == "en" else f"{size} 参数模型"
    return ""


def _data(inp: dict[str, Any], given: dict[str, Any], lang: str) -> str:
    epochs = inp.get("epochs")
    ep = ""
    if epochs:
        ep = f" × {num(float(epochs))} epochs" if lang == "en" else f" × {num(float(epochs))} 轮"
    if given.get("samples") or (inp.get("samples") and not given.get("tokens_b")):
        per = inp.get("tokens_per_sample")
        samples = _count(float(inp["samples"]), lang)
        if lang == "en":
            return f"{samples} samples" + (f" × {num(float(per))} tokens" if per else "") + ep
        return f"{samples} 条样本" + (f" × 每条 {num(float(per))} token" if per else "") + ep
    if given.get("dataset_tokens_b"):
        return tokens_text(float(given["dataset_tokens_b"]), lang) + ep
    if inp.get("tokens_b"):
        return tokens_text(float(inp["tokens_b"]), lang)
    return ""


def _cards(inp: dict[str, Any], lang: str) -> str:
    gpu, n = inp.get("gpu"), inp.get("gpu_count")
    if not gpu:
        return ""
    if n:
        return f"{n}× {gpu}" if lang == "en" else f"{n} 张 {gpu}"
    return str(gpu)


def _price(given: dict[str, Any], inp: dict[str, Any], lang: str) -> str:
    cur = inp.get("currency") or given.get("currency") or ""
    if given.get("price_per_gpu_hour"):
        p = num(float(given["price_per_gpu_hour"]))
        return f"your price {p} {cur}/GPU-hour" if lang == "en" else f"按您给的单价 {p} {cur}/卡·时"
    provider = given.get("provider") or inp.get("provider")
    if provider:
        return f"{provider} list prices, {cur}" if lang == "en" else f"{provider} 的目录价，{cur}"
    if cur:
        return f"catalog list prices, {cur}" if lang == "en" else f"目录价（价目表），{cur}"
    return ""


def _schedule(inp: dict[str, Any], given: dict[str, Any], lang: str) -> str:
    parts = []
    if given.get("hours_per_day"):
        h = num(float(given["hours_per_day"]))
        parts.append(f"{h} h a day" if lang == "en" else f"每天 {h} 小时")
    if given.get("days"):
        d = num(float(given["days"]))
        parts.append(f"for {d} days" if lang == "en" else f"共 {d} 天")
    wall = given.get("wall_hours")
    if wall and not parts:
        parts.append(f"for {num(float(wall))} h" if lang == "en" else f"租用 {num(float(wall))} 小时")
    if given.get("deadline_hours"):
        d = num(float(given["deadline_hours"]))
        parts.append(f"deadline {d} h" if lang == "en" else f"工期 {d} 小时内")
    if given.get("jobs"):
        jobs, each = num(float(given["jobs"])), given.get("job_hours")
        parts.append(f"{jobs} jobs" + (f" of {num(float(each))} h" if each else "") if lang == "en"
                     else f"{jobs} 个任务" + (f"，每个 {num(float(each))} 小时" if each else ""))
    if given.get("billing"):
        parts.append(mode(str(given["billing"]), lang) + (" billing" if lang == "en" else "计费"))
    return ", ".join(parts) if lang == "en" else "，".join(parts)


def understood(tool: str, given: dict[str, Any], report: dict[str, Any] | None, lang: str) -> str:
    """One line restating the job that was priced (``given``: the call's arguments)."""
    inp = {**given, **((report or {}).get("inputs") or {})}
    parts: list[str] = []
    if tool in ("estimate_training_cost", "recommend_hardware", "plan_project", "estimate_serving_cost"):
        model = _model(inp, lang)
        if tool in ("estimate_training_cost", "recommend_hardware") and inp.get("method"):
            method = term(f"method.{inp['method']}", lang)
            model = f"{method} of {model}" if lang == "en" else f"{model} {method}"
        parts += [model, _data(inp, given, lang) if tool != "estimate_serving_cost" else ""]
        if inp.get("tokens_per_day"):
            per_day = tokens_text(float(inp["tokens_per_day"]) / 1e9, lang)
            parts.append(f"{per_day} a day" if lang == "en" else f"每天 {per_day}")
    if tool == "plan_project":
        names = [s.get("stage") for s in given.get("stages") or [] if isinstance(s, dict)]
        names = names or [s.get("stage") for s in (report or {}).get("stages", []) if isinstance(s, dict)]
        if names:
            parts.append(("stages: " if lang == "en" else "阶段：") + " → ".join(str(n) for n in names))
    if tool == "recommend_hardware" and given.get("max_gpus"):
        parts.append(f"at most {given['max_gpus']} GPUs" if lang == "en" else f"最多 {given['max_gpus']} 张卡")
    if tool == "review_contract":
        text = given.get("text") or ""
        parts.append(f"a contract ({len(text)} characters)" if text and lang == "en" else
                     f"一份合同（{len(text)} 字）" if text else str(given.get("path") or ""))
    elif tool == "search_knowledge":
        query = " ".join(str(given.get("query", "")).split())
        query = query if len(query) <= 60 else query[:57] + "…"
        parts.append(f"a question about “{query}”" if lang == "en" else f"一个关于“{query}”的问题")
    elif tool == "analyze_usage":
        for key in ("gpu_count", "avg_utilization", "period_hours"):
            if given.get(key) is not None:
                parts.append(f"{label(key, lang)} {_value(key, given[key])}")
        if given.get("files"):
            parts.append(", ".join(map(str, given["files"])))
    elif tool not in ("estimate_training_cost", "recommend_hardware", "plan_project", "estimate_serving_cost",
                      "compare_billing"):
        parts += [f"{label(k, lang)} {_value(k, v)}" for k, v in given.items()
                  if k not in _SKIP and v is not None and k not in ("currency",)]
    parts.append(_cards(inp, lang))
    parts.append(_schedule(inp, given, lang))
    if tool not in ("review_contract", "search_knowledge", "analyze_usage", "check_quote"):
        parts.append(_price(given, inp, lang))
    text = _SEP[lang].join(p for p in parts if p)
    job = JOBS.get(tool, JOBS["clarify"])[lang]
    text = f"{job}: {text}" if text and tool in JOBS and lang == "en" else f"{job}：{text}" if text and tool in JOBS else text or job
    return HEAD[lang] + text + ("." if lang == "en" else "。")


JOBS = {
    "estimate_training_cost": {"en": "a training cost estimate", "zh": "估算训练费用"},
    "recommend_hardware": {"en": "a hardware choice", "zh": "选择硬件"},
    "compare_billing": {"en": "a billing comparison", "zh": "比较计费方式"},
    "plan_project": {"en": "a project plan", "zh": "规划项目"},
    "estimate_serving_cost": {"en": "a serving cost estimate", "zh": "估算推理服务成本"},
    "check_quote": {"en": "a quote check", "zh": "核对报价"},
    "compare_own_vs_rent": {"en": "owning against renting", "zh": "比较自购与租用"},
    "analyze_usage": {"en": "a utilization check", "zh": "分析利用率"},
    "review_contract": {"en": "a contract review", "zh": "审查合同"},
    "onboarding": {"en": "a newcomer's request to learn the cost practice", "zh": "新人想系统学习算力成本知识"},
    "clarify": {"en": "a question I cannot tie to one job yet", "zh": "一个还不能对应到具体任务的问题"},
}


def _value(key: str, value: Any) -> str:
    if isinstance(value, float) and key in ("avg_utilization", "utilization") and value <= 1:
        return f"{value * 100:.0f}%"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return num(float(value))
    return str(value)


def assumed(given: dict[str, Any], report: dict[str, Any] | None, notes: list[dict[str, Any]], lang: str) -> str:
    """The decisive assumptions the answer rests on (defaults for what the user did not say)."""
    prefixes = tuple(str(p) for p in lexicon().get("decisive_assumptions", []))
    lines: list[str] = []
    seen: set[str] = set()
    for a in [*notes, *((report or {}).get("assumptions") or [])]:
        name = str(a.get("name", ""))
        field = name.split(".")[-1] if name.startswith("workload.") else name
        if not name.startswith(prefixes) or name in seen or given.get(field) is not None or \
                given.get(name.split(".")[1] if name.startswith("workload.") else name) is not None:
            continue
        seen.add(name)
        typed: Assumption | None = None
        with contextlib.suppress(ValidationError):
            typed = Assumption.model_validate(a)
        value = a.get("value")
        unit = a.get("unit") or ""
        if isinstance(value, int | float) and not isinstance(value, bool):
            shown = f"{float(value):.2f}".rstrip("0").rstrip(".") if float(value) < 100 else num(float(value))
        elif isinstance(value, str) and f"{name}.{value}" in entries():  # "method" -> "full fine-tune"
            shown = term(f"{name}.{value}", lang)
        elif typed is not None:  # a described value ("the H100 CNY market …"): the presenter's words, up to its colon
            shown, unit = assumption_value(typed.model_copy(update={"unit": None}), lang).split("：")[0].split(": ")[0], ""
        else:
            shown = str(value)
        full = str(a.get("source") or "")
        source = full.split(";")[0].split(": ")[0].strip()
        conv = _CONVERTED.search(full)
        if conv:  # which sheet: another market's offers converted at a dated rate
            source += f", {conv.group(0)})"
        if typed is not None and not (conv and lang == "en"):  # its public source, never a module or file path
            source = assumption_source(typed, lang).split(_SEP[lang])[0].split(_COLON[lang])[0].strip()
        source = "" if source == shown else source
        if lang == "zh":
            lines.append(f"{_assumption_name(name, lang)} {shown}" + (f"（来源：{source}）" if source else ""))
        else:
            lines.append(f"{_assumption_name(name, lang)} {shown} {unit}".rstrip() + (f" ({source})" if source else ""))
    if not lines:
        return ""
    return ASSUMED[lang] + _SEP[lang].join(lines[:4]) + ("." if lang == "en" else "。")


def _assumption_name(name: str, lang: str) -> str:
    """The glossary's name of an assumption, else the name of the request field it stands for."""
    short = name.split(".")[1] if name.startswith("workload.") else name
    return keyed("assumption", name, lang) or label(short, lang)
