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
from advisor.present.fmt import money
from advisor.present.fmt import number as num
from advisor.units import HOURS_PER_DAY, HOURS_PER_MONTH

_CONVERTED = re.compile(r"converted to [A-Z]{3} at [\d.]+ \([\d-]+")
_POWERS = (12, 9, 8, 6, 4, 3)
_SKIP = {"lang", "query", "k", "text", "path", "files", "stages", "gpus", "exclude_gpus", "billing_modes", "top_k"}


def label(key: str, lang: str) -> str:
    """How a request field is named to the user (glossary ``field.<key>``)."""
    return term(f"field.{key}", lang) if has(f"field.{key}") else key.replace("_", " ")


def tokens_text(billions: float, lang: str) -> str:
    """``0.1`` -> ``100M tokens`` / ``1亿 token``."""
    return term("understood.tokens", lang, n=_count(float(billions) * 1e9, lang, "tokens"))


def _count(n: float, lang: str, kind: str = "count") -> str:
    """A large number in the language's own steps (glossary ``scale.<kind>.<power of ten>``):
    ``1.5亿`` / ``150M`` tokens, ``5万`` samples."""
    for power in _POWERS:
        words = entries().get(f"scale.{kind}.{power}", {}).get(lang)
        if words and n >= 10**power:
            return words.format(n=num(n / 10**power))
    return num(n)


def _model(inp: dict[str, Any], lang: str) -> str:
    if inp.get("model"):
        return str(inp["model"])
    if inp.get("params_b"):
        size = f"{num(float(inp['params_b']))}B"
        return term("understood.model_size", lang, size=size)
    return ""


def _data(inp: dict[str, Any], given: dict[str, Any], lang: str) -> str:
    epochs = inp.get("epochs")
    ep = ""
    if epochs:
        ep = term("understood.epochs", lang, n=num(float(epochs)))
    if given.get("samples") or (inp.get("samples") and not given.get("tokens_b")):
        per = inp.get("tokens_per_sample")
        samples = _count(float(inp["samples"]), lang)
        return term("understood.samples", lang, n=samples) + (term("understood.per_sample", lang, n=num(float(per))) if per else "") + ep
    if given.get("dataset_tokens_b"):
        return tokens_text(float(given["dataset_tokens_b"]), lang) + ep
    if inp.get("tokens_b"):
        return tokens_text(float(inp["tokens_b"]), lang)
    return ""


def _cards(inp: dict[str, Any], lang: str) -> str:
    gpu, n = inp.get("gpu"), inp.get("gpu_count")
    if not gpu:
        return ""
    return term("count.gpus", lang, n=n, gpu=gpu) if n else str(gpu)


def _price(given: dict[str, Any], inp: dict[str, Any], lang: str) -> str:
    cur = inp.get("currency") or given.get("currency") or ""
    if given.get("price_per_gpu_hour"):
        p = num(float(given["price_per_gpu_hour"]))
        return term("understood.your_price", lang, p=p, cur=cur)
    provider = given.get("provider") or inp.get("provider")
    if provider or cur:
        return term("understood.provider_prices" if provider else "understood.list_prices", lang, provider=provider, cur=cur)
    return ""


def _schedule(inp: dict[str, Any], given: dict[str, Any], lang: str) -> str:
    parts = []
    if given.get("hours_per_day"):
        h = num(float(given["hours_per_day"]))
        parts.append(term("understood.per_day", lang, h=h))
    if given.get("days"):
        d = num(float(given["days"]))
        parts.append(term("understood.days", lang, d=d))
    wall = given.get("wall_hours")
    if wall and not parts:
        parts.append(term("understood.wall", lang, h=num(float(wall))))
    if given.get("deadline_hours"):
        d = num(float(given["deadline_hours"]))
        parts.append(term("understood.deadline", lang, h=d))
    if given.get("jobs"):
        jobs, each = num(float(given["jobs"])), given.get("job_hours")
        parts.append(term("understood.jobs", lang, n=jobs) + (term("understood.job_hours", lang, h=num(float(each))) if each else ""))
    if given.get("billing"):
        parts.append(term("understood.billing", lang, mode=mode(str(given["billing"]), lang)))
    return term("understood.comma", lang).join(parts)


def understood(tool: str, given: dict[str, Any], report: dict[str, Any] | None, lang: str) -> str:
    """One line restating the job that was priced (``given``: the call's arguments)."""
    inp = {**given, **((report or {}).get("inputs") or {})}
    parts: list[str] = []
    if tool in ("estimate_training_cost", "recommend_hardware", "plan_project", "estimate_serving_cost"):
        model = _model(inp, lang)
        if tool in ("estimate_training_cost", "recommend_hardware") and inp.get("method"):
            method = term(f"method.{inp['method']}", lang)
            model = term("understood.method_of", lang, method=method, model=model)
        parts += [model, _data(inp, given, lang) if tool != "estimate_serving_cost" else ""]
        if inp.get("tokens_per_day"):
            per_day = tokens_text(float(inp["tokens_per_day"]) / 1e9, lang)
            parts.append(term("understood.a_day", lang, n=per_day))
    if tool == "plan_project":
        said = [_stage(s, lang) for s in _plan_stages(given)]
        names = [str(s.get("stage")) for s in (report or {}).get("stages", []) if isinstance(s, dict)]
        shown = said or [term(f"stage.{n}", lang) if has(f"stage.{n}") else n for n in names]
        if shown:
            parts.append(term("understood.stages", lang, names=term("understood.then", lang).join(shown)))
    if tool == "recommend_hardware" and given.get("max_gpus"):
        parts.append(term("understood.max_gpus", lang, n=given["max_gpus"]))
    if tool == "recommend_hardware" and given.get("exclude_gpus"):
        parts.append(term("understood.excluded", lang, names=", ".join(given["exclude_gpus"])))
    if tool == "review_contract":
        text = given.get("text") or ""
        parts.append(term("understood.contract", lang, n=len(text)) if text else str(given.get("path") or ""))
    elif tool == "search_knowledge":
        query = " ".join(str(given.get("query", "")).split())
        query = query if len(query) <= 60 else query[:57] + "…"
        parts.append(term("understood.question", lang, query=query))
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
    if not (tool == "plan_project" and any(s.get("gpu") for s in _plan_stages(given))):  # each stage said its cards
        parts.append(_cards(inp, lang))
    parts.append(_schedule(inp, given, lang))
    if given.get("budget") and tool != "check_quote":  # a budget is the job's limit, said with the job
        parts.append(term("understood.budget", lang, amount=money(given["budget"], inp.get("currency") or given.get("currency"))))
    if tool not in ("review_contract", "search_knowledge", "analyze_usage", "check_quote"):
        parts.append(_price(given, inp, lang))
    text = term("sep.clause", lang).join(p for p in parts if p)
    known = has(f"understood.job.{tool}")
    job = term(f"understood.job.{tool}" if known else "understood.job.clarify", lang)
    text = f"{job}{term('sep.colon', lang)}{text}" if text and known else text or job
    return term("understood.head", lang) + text + term("sep.end", lang)


_FLAT_STAGE_FIELDS = {"pretrain": {"tokens_b": "pretrain_tokens_b"},
                      "finetune": {"tokens_b": "finetune_tokens_b", "method": "finetune_method"},
                      "serving": {"tokens_per_day": "serving_tokens_per_day", "days": "serving_days"}}
"""The plan request's flat fields of each stage (used when the stage list only names the stage)."""


def _plan_stages(given: dict[str, Any]) -> list[dict[str, Any]]:
    """The stages a plan request names, each with its own values and, where it has none, the flat fields'."""
    listed = [s for s in given.get("stages") or [] if isinstance(s, dict)]
    if not listed:
        listed = [{"stage": name} for name, fields in _FLAT_STAGE_FIELDS.items() if given.get(next(iter(fields.values())))]
    out = []
    for spec in listed:
        flat = _FLAT_STAGE_FIELDS.get(str(spec.get("stage")), {})
        out.append({**{k: given[f] for k, f in flat.items() if given.get(f) is not None}, **spec})
    return out


def _stage(spec: dict[str, Any], lang: str) -> str:
    """One stage as the user gave it: its name (or method), cards, data or daily load, time, billing and term."""
    name = str(spec.get("stage"))
    method = spec.get("method")
    head = term(f"method.{method}", lang) if name == "finetune" and has(f"method.{method}") else \
        term(f"stage.{name}", lang) if has(f"stage.{name}") else name
    parts = [head, _cards(spec, lang)]
    if spec.get("tokens_b"):
        parts.append(tokens_text(float(spec["tokens_b"]), lang))
    if spec.get("tokens_per_day"):
        parts.append(term("understood.a_day", lang, n=tokens_text(float(spec["tokens_per_day"]) / 1e9, lang)))
    days = spec.get("days") or (float(spec["months"]) * HOURS_PER_MONTH / HOURS_PER_DAY if spec.get("months") else None)
    if days:
        parts.append(term("understood.days", lang, d=num(round(float(days), 1))))
    if spec.get("deadline_hours"):
        parts.append(term("understood.deadline", lang, h=num(float(spec["deadline_hours"]))))
    if spec.get("billing"):
        parts.append(term("understood.billing", lang, mode=mode(str(spec["billing"]), lang)))
    if spec.get("term_months"):
        parts.append(term("understood.term", lang, n=num(float(spec["term_months"]))))
    return term("understood.comma", lang).join(p for p in parts if p)


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
            source = assumption_source(typed, lang).split(term("sep.clause", lang))[0].split(term("sep.colon", lang))[0].strip()
        source = "" if source == shown else source
        line = term("understood.assumption", lang, name=_assumption_name(name, lang), value=shown, unit=unit).rstrip()
        lines.append(line + (term("understood.source", lang, source=source) if source else ""))
    if not lines:
        return ""
    return term("understood.assumed", lang) + term("sep.clause", lang).join(lines[:4]) + term("sep.end", lang)


def _assumption_name(name: str, lang: str) -> str:
    """The glossary's name of an assumption, else the name of the request field it stands for."""
    short = name.split(".")[1] if name.startswith("workload.") else name
    return keyed("assumption", name, lang) or label(short, lang)
