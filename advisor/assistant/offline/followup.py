"""Follow-ups: "换成H100呢？", "what about 16 cards?", "用QLoRA呢", "what about spot?",
"预算50万够吗" keep the previous request and change only what they name.

Two decisions live here. :func:`decide` says whether a question continues the previous
one (and for which tool); :func:`merge` lays the new context over the old one, dropping
what the change makes stale — a new data amount replaces the old one whatever its form, a
new model replaces the old size, a new GPU drops the old GPU's price.
"""

from __future__ import annotations

import re
from typing import Any

from advisor.assistant.offline.intent import (
    TOOLS,
    Decision,
    choose,
    followup_evidence,
    held,
    scores,
)
from advisor.assistant.offline.lexicon import lexicon
from advisor.assistant.offline.project import PRICE_KEYS, TOOL_ARGS
from advisor.units import HOURS_PER_MONTH

ARG_KEYS_IGNORED = {
    "stage_names", "currency_said", "model_size_unknown", "model_size_b", "model_family", "gpu_changed_from",
    "model_unlisted", "asks_verdict", "quote_gpu_count", "share_said", "plan_stages", "plan_gpu", "gpu_share",
    "memory_only", "memory_nominal", "gpu_memory_said",
}  # fmt: skip
_DATA_KEYS = ("tokens_b", "dataset_tokens_b", "samples", "tokens_per_sample", "epochs")
_DURATION_KEYS = ("deadline_hours", "wall_hours", "period_hours", "duration_hours")
_MODEL_KEYS = ("model", "params_b", "active_params_b", "model_size_b", "model_size_unknown", "model_family", "model_unlisted")


def decide(previous_intent: str, pending: str | None, decision: Decision, ctx: dict[str, Any], norm: str,
           before: dict[str, Any] | None = None) -> str | None:
    """The intent this question continues, or ``None`` when it is a new question. ``before``: the
    conversation's context so far."""
    if previous_intent not in (*TOOLS, "clarify") or decision.intent in ("greeting", "help", "onboarding"):
        return None
    if previous_intent in TOOLS and decision.intent in ("clarify", "out_of_scope") and not decision.alternatives and (
        "beyond" not in decision.found
    ):  # no job of its own: "is that the cheapest option?", "这是最便宜的方案吗" ask about the one held
        joined = choose(set(decision.found) | held(before or {}), True)
        if decision.found & _JOB_ASKS and joined.stated and joined.intent in TOOLS and joined.intent != "search_knowledge":
            return joined.intent
        if "verdict" in decision.found and "topic" not in decision.found:
            return previous_intent  # "靠谱吗", "is that realistic?": a yes/no on the job held
    slots = {k for k in ctx if k not in ARG_KEYS_IGNORED}
    marker, reference = "marker" in decision.found, bool({"reference", "pointer"} & decision.found)
    if previous_intent in TOOLS and len(norm) < 40 and (_SCALE["factor"].search(norm) or (marker and _SCALE["times"].search(norm))):
        return previous_intent  # "流量翻倍呢", "what if traffic goes 10x?": the same request, scaled
    if decision.intent == "review_contract" or (
        decision.intent == "search_knowledge" and decision.stated and not (reference and slots)
        and (previous_intent not in TOOLS or _asks_another(previous_intent, decision, ctx, marker=marker, reference=reference))
    ):  # "什么是ZeRO-3？" is a side question; "要是只给 8 张卡，钱和时间怎么变" changes the job
        return None
    if previous_intent == "clarify":
        if not (slots or marker):
            return None
        if pending and (before or {}).get("amount_unsupported") and PRICE_KEYS & slots:
            return pending  # the price asked again in dollars or yuan ("每卡时 15 元" after "2 欧元"): the same job
        if decision.stated and decision.intent in TOOLS:
            return decision.intent
        return pending or decision.intent
    complete = ("model" in ctx or "params_b" in ctx) and any(k in ctx for k in ("tokens_b", "dataset_tokens_b", "samples"))
    if complete and not marker and not reference:
        return None
    own = slots - {"billing_modes", "billing", "stage_names", "stages", "gpus", "exclude_gpus"}
    switch = decision.stated and decision.intent in TOOLS and decision.intent not in (previous_intent, "search_knowledge")
    if switch and not _asks_another(previous_intent, decision, ctx, marker=marker, reference=reference):
        return previous_intent  # "利用率到90%呢" after own-vs-rent, "改成按量计费呢" after an estimate
    if switch:  # "spot or on-demand?" / "which GPU is cheapest?" alone are about the same job
        return decision.intent if (marker or reference or not own) else None
    if not (marker or reference or slots):
        return None
    if previous_intent == "recommend_hardware" and "gpu" in ctx and "gpus" not in ctx and not decision.stated:
        return "estimate_training_cost"  # picked one GPU from a recommendation: price it
    return previous_intent


_JOB_ASKS = frozenset(("which", "best", "cost", "saving", "weigh", "fit", "how_many", "quote"))
"""What a follow-up with no job of its own may ask about the job held (a card, a cost, a yes/no, a saving)."""
_FIELD_OF_SLOT = {"avg_utilization": "utilization", "share_said": "utilization", "tokens": "tokens_per_day",
                  "duration_hours": "days", "wall_hours": "days", "price_per_gpu_hour": "price", "billing_modes": "billing"}


def _field(slot: str, fields: set[str]) -> bool:
    """A slot is a request field by name, by :data:`_FIELD_OF_SLOT`, or as a plan stage's field ("serving_tokens_per_day")."""
    return slot in fields or _FIELD_OF_SLOT.get(slot) in fields or any(f.endswith("_" + slot) for f in fields)


def _asks_another(previous: str, decision: Decision, ctx: dict[str, Any], *, marker: bool, reference: bool) -> bool:
    """Whether a follow-up clearly asks another job than ``previous``: the new job's score on the question
    beats the previous job's plus what keeps it (lexicon ``followup_evidence``: a follow-up marker or a
    reference, every value given being a field of the previous request)."""
    given = {k for k in ctx if k not in ARG_KEYS_IGNORED and k not in ("stage_names", "stages", "gpus")}
    given |= {"share_said"} & set(ctx)
    if given & {"budget", "price_per_gpu_hour", "monthly_fee"}:
        given -= {"price", "unit"}  # the quote's reading of that same amount ("budget is $800")
    fields = set(TOOL_ARGS.get(previous, ()))
    found = set(decision.found) | {name for name, on in (
        ("marker", marker), ("reference", reference),
        ("fields", bool(given) and all(_field(k, fields) for k in given))) if on}
    scored = scores(found)
    keep = sum(e.weight for e in followup_evidence() if e.holds(found))
    return scored.get(decision.intent, (0.0,))[0] > scored.get(previous, (0.0,))[0] + keep


def merge(old: dict[str, Any], new: dict[str, Any], intent: str) -> tuple[dict[str, Any], list[str], list[str]]:
    """``old`` context overlaid with ``new``; returns (context, changed keys, dropped keys)."""
    ctx = dict(old)
    dropped: list[str] = []

    def drop(*keys: str) -> None:
        for k in keys:
            if k in ctx and k not in new:
                del ctx[k]
                dropped.append(k)

    if "tokens_b" in new:
        drop(*_DATA_KEYS)
    elif "dataset_tokens_b" in new:
        drop("tokens_b", "samples", "tokens_per_sample")
    elif "samples" in new:
        drop("tokens_b", "dataset_tokens_b")
    elif "epochs" in new and "tokens_b" in ctx:
        ctx["dataset_tokens_b"] = ctx.pop("tokens_b")  # the old total was one pass over the data
    if "requests_per_day" in new:  # a new daily load replaces the old one, whatever its form
        drop("tokens_per_day")
    elif "tokens_per_day" in new:
        drop("requests_per_day")
    if "model" in new:
        drop(*_MODEL_KEYS)
    elif "params_b" in new and "model" in ctx:
        drop(*[k for k in _MODEL_KEYS if k != "params_b"])
    if "gpu" in new and new["gpu"] != old.get("gpu"):
        drop("price_per_gpu_hour", "gpus")
        if "price_per_gpu_hour" not in new and "currency" in ctx and not any(k in ctx for k in ("budget", "price")):
            drop("currency")
    if "gpus" in new:
        drop("gpu")
    if "exclude_gpus" in new:  # "不要 4090" after "不要 H100": both stay out, and out of the old candidates
        out = [*old.get("exclude_gpus", []), *new["exclude_gpus"]]
        new = {**new, "exclude_gpus": list(dict.fromkeys(out))}
        if [g for g in ctx.get("gpus", []) if g not in out]:
            ctx["gpus"] = [g for g in ctx["gpus"] if g not in out]
        else:
            drop("gpus")
    if intent == "recommend_hardware" and "gpu" not in new and "gpus" not in new:
        drop("gpu", "price_per_gpu_hour")  # asking which GPU: the old choice is not a candidate
    if any(k in new for k in _DURATION_KEYS):
        drop(*_DURATION_KEYS)
    if "billing_modes" in new:
        drop("billing", "billing_modes")
        modes = new["billing_modes"]
        if intent == "compare_billing" and modes == ["off_peak"] and "offpeak_share" not in new:
            new = {**new, "offpeak_share": 1.0}  # "what about off-peak?" = run it all off-peak
    if "share_said" in new and "avg_utilization" in old and "avg_utilization" not in new:
        new = {**new, "avg_utilization": new["share_said"]}  # "利用率到90%呢": the new share replaces the old one
    if intent == "check_quote":  # "what if it's 24 months?", "16 of them?": the quote's term or card count
        months = next((new[k] / HOURS_PER_MONTH for k in _DURATION_KEYS if k in new), None)
        if months and months >= 1 and "term_months" not in new:
            new = {**new, "term_months": round(months, 6)}
        if "gpu_count" in new and "quote_gpu_count" not in new and str(ctx.get("unit", "gpu")).startswith("gpu"):
            new = {**new, "quote_gpu_count": new["gpu_count"]}
    if "stage_names" in new and intent != "plan_project":
        new = {k: v for k, v in new.items() if k not in ("stage_names", "stages")}
    if ctx.get("plan_stages") and "plan_stages" not in new:  # "Change serving to 50M tokens a day": that stage only
        ctx["plan_stages"] = [{**s, **{f: new[k] for k, (name, f) in _STAGE_FIELDS.items() if k in new and s["stage"] == name}}
                              for s in ctx["plan_stages"]]
    changed = [k for k, v in new.items() if k not in ARG_KEYS_IGNORED and old.get(k) != v]
    ctx.update(new)
    return ctx, changed, dropped


_STAGE_FIELDS = {"serving_tokens_per_day": ("serving", "tokens_per_day"), "serving_days": ("serving", "days"),
                 "finetune_tokens_b": ("finetune", "tokens_b"), "pretrain_tokens_b": ("pretrain", "tokens_b"),
                 "finetune_method": ("finetune", "method")}
"""A plan's flat field and the same value in its explicit stage."""


_SCALE = {name: re.compile(p) for name, p in lexicon()["followup_scale"].items()}


def scale(old: dict[str, Any], new: dict[str, Any], norm: str) -> list[str]:
    """"卡数翻倍呢？", "with twice the GPUs?", "if the dataset doubles?": the previous count or data
    amount times the factor, written into ``new``; returns the keys scaled."""
    m = _SCALE["factor"].search(norm) or _SCALE["times"].search(norm)
    if m is None:
        return []
    if "n" in m.groupdict() and m.group("n"):
        factor = float(m.group("n"))
    else:
        factor = 2.0 if m.group("x2") else 3.0 if m.group("x3") else 0.5
    near = norm[max(0, m.start() - 16) : m.end() + 16]
    keys: list[str] = []
    if _SCALE["load"].search(near) and any(k in old for k in ("tokens_per_day", "requests_per_day")):
        keys += [k for k in ("tokens_per_day", "requests_per_day") if k in old and k not in new]
    elif _SCALE["cards"].search(near) and "gpu_count" in old and "gpu_count" not in new:
        keys.append("gpu_count")
    elif _SCALE["data"].search(near):
        keys += [k for k in ("tokens_b", "dataset_tokens_b", "samples") if k in old and k not in new]
    for k in keys:
        value = old[k] * factor
        new[k] = int(value) if isinstance(old[k], int) and value == int(value) else round(value, 9)
    return keys
