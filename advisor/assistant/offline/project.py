"""From what the question said (the *context*) to one tool's arguments, and what is missing.

The context uses the argument names of INTERNALS.md "Tool requests" wherever they exist,
plus a few neutral names (``duration_hours``, ``billing_modes``, ``stage_names``) that mean
different arguments for different tools: a plain duration is a deadline for an estimate,
the rental period for a billing comparison and the observed period for a usage analysis.
Keeping the context apart from the arguments is what lets a follow-up switch tools and
keep what was said.
"""

from __future__ import annotations

import re
from typing import Any

from advisor.assistant.offline.lexicon import SERVING_PRECISIONS, lexicon
from advisor.assistant.offline.slots_time import days_of
from advisor.units import HOURS_PER_DAY, HOURS_PER_MONTH

WORKLOAD = (
    "model", "params_b", "active_params_b", "method", "tokens_b", "dataset_tokens_b", "epochs",
    "samples", "tokens_per_sample", "seq_len", "micro_batch_size", "gradient_checkpointing",
    "flash_attention", "precision", "zero_stage", "mfu", "lora_rank", "lora_targets",
)  # fmt: skip
DATA = ("tokens_b", "dataset_tokens_b", "samples")

TOOL_ARGS: dict[str, tuple[str, ...]] = {
    "estimate_training_cost": WORKLOAD + (
        "gpu", "gpu_count", "price_per_gpu_hour", "currency", "market", "billing", "deadline_hours", "provider",
        "budget", "approval_threshold", "has_validation_run", "parallel_experiments", "urgent",
        "interruptible", "checkpoint_interval_hours", "price_locked", "project_months",
        "storage_retention_days", "egress_gb", "idle_wait_hours", "support_cost",
    ),
    "recommend_hardware": WORKLOAD + (
        "price_per_gpu_hour", "currency", "market", "billing", "deadline_hours", "provider", "budget",
        "approval_threshold", "has_validation_run", "parallel_experiments", "urgent",
        "interruptible", "checkpoint_interval_hours", "price_locked", "project_months",
        "storage_retention_days", "egress_gb", "idle_wait_hours",
        "max_gpus", "gpus", "exclude_gpus", "billing_modes", "top_k",
    ),
    "compare_billing": (
        "gpu", "gpu_count", "wall_hours", "hours_per_day", "price_per_gpu_hour", "currency", "market",
        "provider", "interruptible", "offpeak_share", "urgent",
        # issue #12's fields for many short jobs and part-time schedules, and the tool's others
        "jobs", "job_hours", "days", "days_per_week", "increment", "deadline_hours", "offpeak_discount", "parallel_experiments",
    ),
    "plan_project": ("model", "params_b", "currency", "market", "gpu", "stages", "tokens_b", "pretrain_tokens_b", "finetune_tokens_b",
                     "finetune_method", "serving_tokens_per_day", "serving_days", "budget", "approval_threshold"),
    "review_contract": ("text", "path", "lang", "monthly_fee"),
    "analyze_usage": ("files", "gpu", "gpu_count", "avg_utilization", "price_per_gpu_hour", "period_hours", "currency",
                      "billing_mode"),
    "search_knowledge": ("query", "lang", "k"),
    # the decision tools (issue #12's fixed request fields, and the context's names for the rest)
    "estimate_serving_cost": ("model", "params_b", "tokens_per_day", "requests_per_day", "prompt_tokens", "output_tokens",
                              "gpu", "gpus", "gpu_count", "precision", "currency", "provider", "price_per_gpu_hour", "gpu_share"),
    "check_quote": ("gpu", "price", "unit", "gpu_count", "term_months", "currency", "provider"),
    "compare_own_vs_rent": ("gpu", "gpu_count", "utilization", "years", "currency", "price_per_gpu_hour", "provider",
                            "base_gpus", "peak_gpus"),
}  # fmt: skip

"""Exactly the argument names of INTERNALS.md "Tool requests", per tool (recommend takes
"the workload fields above", read as every estimate field but ``gpu``/``gpu_count``)."""

_DOC_EXT = (".pdf", ".docx", ".md", ".txt")
_FALLBACK_DURATION = {
    # argument: context keys tried in order
    "deadline_hours": ("deadline_hours", "duration_hours", "wall_hours"),
    "wall_hours": ("wall_hours", "duration_hours", "deadline_hours"),
    "period_hours": ("period_hours", "duration_hours", "wall_hours", "idle_wait_hours"),  # "sat idle for 60 hours"
}


def context_from_values(values: dict[str, Any]) -> dict[str, Any]:
    """The context of one question: slot values with tokens placed and private keys dropped."""
    ctx = {k: v for k, v in values.items() if not k.startswith("_") and k not in ("tokens",)}
    tokens = values.get("tokens")
    if tokens is not None:
        if "samples" in ctx and "tokens_per_sample" not in ctx:
            ctx["tokens_per_sample"] = max(1, round(tokens / ctx["samples"]))  # "5万条，共5000万token"
        elif "samples" not in ctx:
            ctx["dataset_tokens_b" if "epochs" in ctx else "tokens_b"] = round(tokens / 1e9, 9)
    modes = ctx.get("billing_modes", [])
    if len(modes) == 1:
        ctx["billing"] = modes[0]
    elif not modes and "billing_hint" in ctx:
        ctx["billing"] = ctx["billing_hint"]
    ctx.pop("billing_hint", None)
    if "stage_names" in ctx:
        ctx["stages"] = _stages(ctx)
    return ctx


def _stages(ctx: dict[str, Any]) -> list[dict[str, Any]]:
    stages: list[dict[str, Any]] = []
    for name in ctx["stage_names"]:
        stage: dict[str, Any] = {"stage": name}
        if name == "finetune" and ctx.get("method") in ("lora", "qlora", "full"):
            stage["method"] = ctx["method"]
        if name == "serving" and "tokens_per_day" in ctx:
            stage["tokens_per_day"] = ctx["tokens_per_day"]
        stages.append(stage)
    return stages


_SPOT_CHOICE = re.compile(r"(?:spot|竞价|抢占式?)(?:实例)?\s*(?:or|还是|或)|(?<![a-z])(?:or|还是|或)\s*(?:spot|竞价|抢占)")


def project(intent: str, ctx: dict[str, Any], *, language: str, question: str,
            notes: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The arguments of ``intent`` (a tool name) from the context; {} for other intents. A default the arguments
    take is appended to ``notes`` (the parser's assumptions)."""
    if intent not in TOOL_ARGS:
        return {}
    args: dict[str, Any] = {}
    for name in TOOL_ARGS[intent]:
        if name in _FALLBACK_DURATION and not (intent == "compare_billing" and name == "deadline_hours"):
            value = next((ctx[k] for k in _FALLBACK_DURATION[name] if k in ctx), None)
        else:
            value = ctx.get(name)
        if value is not None:
            args[name] = value
    if args.get("precision") in SERVING_PRECISIONS and intent != "estimate_serving_cost":
        args.pop("precision")
    if intent == "recommend_hardware":
        if args.get("billing_modes"):  # the tool takes the modes to weigh, not one chosen mode as well
            args.pop("billing", None)
        if "max_gpus" not in args and ctx.get("gpu_count", 0) > 1:  # "an H100" is no cap
            args["max_gpus"] = ctx["gpu_count"]
        if "gpus" not in args and "gpu" in ctx and not ctx.get("gpu_changed_from"):
            args["gpus"] = [ctx["gpu"]]
    elif intent == "estimate_serving_cost" and "gpus" in args:  # "L4 还是 A10": the cheapest of the named cards
        if len(args["gpus"]) >= 2 and not ctx.get("gpu_changed_from"):
            args.pop("gpu", None)
        else:
            args.pop("gpus")
    elif intent == "estimate_training_cost" and "gpu_count" not in args and "max_gpus" in ctx:
        args["gpu_count"] = ctx["max_gpus"]
    elif intent == "plan_project":
        if "tokens_b" not in args and "dataset_tokens_b" in ctx:
            args["tokens_b"] = ctx["dataset_tokens_b"] * ctx.get("epochs", 1)
        if ctx.get("plan_stages"):
            args["stages"] = ctx["plan_stages"]
        if any(k in args for k in ("pretrain_tokens_b", "finetune_tokens_b")):
            args.pop("tokens_b", None)  # read stage by stage
        if "gpu" not in args and ctx.get("plan_gpu"):
            args["gpu"] = ctx["plan_gpu"]
    elif intent == "review_contract":
        docs = [f for f in ctx.get("files", []) if f.lower().endswith(_DOC_EXT)]
        if docs and "text" not in args:
            args["path"] = docs[0]
        args["lang"] = language
    elif intent == "analyze_usage":
        kinds = {{"spot": "spot", "on_demand": "on_demand"}.get(m, "committed")  # 包月/包年/reserved are committed capacity
                 for m in ([ctx["billing"]] if ctx.get("billing") else ctx.get("billing_modes") or [])}
        if len(kinds) == 1 and "billing_mode" not in args:  # "monthly-reserved": two words, one kind
            args["billing_mode"] = kinds.pop()
        if "avg_utilization" not in args and (share := _schedule_share(ctx)) is not None:
            args["avg_utilization"] = share  # "一直开着，每天只跑 8 小时": busy that share of the time paid
        ran = ctx.get("duration_hours") or ctx.get("wall_hours")
        if ran and (ctx.get("period_hours") or 0) >= ran:
            args["period_hours"] = ran  # "ran 300 hours last month": the hours paid, within the named period
        files = [f for f in ctx.get("files", []) if not f.lower().endswith(_DOC_EXT)]
        if files:
            args["files"] = files
        else:
            args.pop("files", None)
    elif intent == "search_knowledge":
        args = {"query": question.strip(), "lang": language}
    elif intent == "compare_billing":
        if "spot" in [ctx.get("billing"), *ctx.get("billing_modes", [])] and "interruptible" not in ctx \
                and not _SPOT_CHOICE.search(question.lower()):
            args["interruptible"] = True  # "Spot A100s: how much cheaper?", "what about spot?"; "spot or on-demand?" only asks
        if not any(k in args for k in ("wall_hours", "days", "jobs")) and (ctx.get("days_per_week") or ctx.get("hours_per_day")):
            days = float(lexicon()["calendar"]["schedule_days"])  # "每周跑5天，按量还是包月": a schedule with no period
            args["wall_hours"] = days * HOURS_PER_DAY
            if notes is not None:
                notes.append({"name": "billing.schedule_days", "value": days, "unit": "days",
                              "source": "a schedule with no period is compared over one month, the monthly plan's term"})
        if "days" not in args and "wall_hours" in args:
            args["days"] = days_of(args["wall_hours"])  # "每周5天，跑4周": 28 days, used 5 of 7 (the tool's days_per_week)
        every = ctx.get("jobs_every_days")
        if every and "jobs" in args and args.get("days", 0) > every:  # "每天 40 个任务，连续 30 天": 1200 jobs
            args["jobs"] = round(args["jobs"] * args["days"] / every)
            if notes is not None:
                notes.append({"name": "billing.jobs_every", "value": args["jobs"], "unit": "jobs",
                              "source": "jobs said a day, week or month, over the period stated"})
        if "days" in args and "wall_hours" not in args:
            args["wall_hours"] = round(args["days"] * 24, 6)
    elif intent == "check_quote":
        args.pop("gpu_count", None)
        if "quote_gpu_count" in ctx:
            args["gpu_count"] = ctx["quote_gpu_count"]
        hours = next((ctx[k] for k in ("wall_hours", "duration_hours", "deadline_hours") if k in ctx), 0)
        if "term_months" not in args and hours >= HOURS_PER_MONTH:  # "$2.2/hr for 12 months": a quote's period is its term
            args["term_months"] = round(hours / HOURS_PER_MONTH, 6)
    elif intent == "compare_own_vs_rent":
        if "utilization" not in args:
            share = ctx.get("avg_utilization", ctx.get("share_said", _schedule_share(ctx)))
            if share is not None:
                args["utilization"] = share
        if "years" not in args:
            hours = next((ctx[k] for k in ("duration_hours", "wall_hours", "deadline_hours") if k in ctx), None)
            if hours:
                args["years"] = round(hours / 8760, 6)
    if "currency" in args and not PRICE_KEYS & set(args) and not ctx.get("currency_said"):
        args.pop("currency")
    return args


def _schedule_share(ctx: dict[str, Any]) -> float | None:
    """ "每天用 10 个小时", "12 hours a day, 5 days a week": the share of the time the cards are used."""
    if not ctx.get("hours_per_day"):
        return None
    return round(min(1.0, ctx["hours_per_day"] / HOURS_PER_DAY * ctx.get("days_per_week", 7) / 7), 6)


def missing_inputs(intent: str, ctx: dict[str, Any]) -> list[str]:
    """What the user must still say for ``intent``.

    ``model`` = a model name or ``params_b``; ``model_size`` = the size of a named family;
    ``data`` = ``tokens_b`` | ``dataset_tokens_b`` (+ ``epochs``) | ``samples``;
    ``text`` = contract text or a path; ``usage`` = usage files or an average utilization.
    """
    missing: list[str] = ["price_currency"] if ctx.get("amount_unsupported") and not (PRICE_KEYS & set(ctx)) else []
    if intent in ("estimate_training_cost", "recommend_hardware", "plan_project"):
        sized_by_time = intent == "plan_project" and bool(ctx.get("plan_stages")) and not any(
            k in ctx for k in ("tokens_b", "dataset_tokens_b", "samples", "pretrain_tokens_b", "finetune_tokens_b"))
        if "model" not in ctx and "params_b" not in ctx and not sized_by_time:
            missing.append("model_size" if ctx.get("model_unlisted") or ctx.get("model_family") else "model")
        elif ctx.get("model_size_unknown") and "params_b" not in ctx:
            missing.append("model_size")
        if intent == "estimate_training_cost" and not any(k in ctx for k in DATA):
            missing.append("data")
    elif intent == "review_contract" and "text" not in ctx and not any(
        f.lower().endswith(_DOC_EXT) for f in ctx.get("files", [])
    ):
        missing.append("text")
    elif intent == "analyze_usage" and "avg_utilization" not in ctx and not ctx.get("files") and not ctx.get("hours_per_day"):
        missing.append("usage")
    return missing


JOB_MISSING = ("model", "model_size", "data", "price_currency")
PRICE_KEYS = {"price_per_gpu_hour", "price", "budget", "monthly_fee", "quoted_amount", "approval_threshold", "support_cost"}
"""Missing inputs that make the job itself unclear (the intent becomes ``clarify``)."""
