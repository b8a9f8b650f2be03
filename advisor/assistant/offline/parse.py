"""``parse_question``: one question (and the previous turn) -> intent, tool arguments, spans.

The offline assistant's understanding, deterministic and rule-based::

    text -> Scan (normalized, same offsets)
         -> slots, read in a fixed order, each taking its words (models before GPU counts,
            prices before durations, token counts before bare sizes)
         -> context (argument names of INTERNALS.md "Tool requests")
         -> intent (stated or implied), follow-up merge with the previous context
         -> arguments of that tool, what is missing, a clarifying question when the job
            itself is unclear.

Nothing here looks up whole sentences: the words are in :mod:`.lexicon` and the grammar
in the slot modules, so unseen phrasings of the same things parse the same way.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, Field

from advisor.assistant.offline import followup
from advisor.assistant.offline.clarify import clarifying_question
from advisor.assistant.offline.intent import _CUES, choose, classify
from advisor.assistant.offline.lexicon import lexicon
from advisor.assistant.offline.project import (
    JOB_MISSING,
    context_from_values,
    missing_inputs,
    project,
)
from advisor.assistant.offline.slots_hw import (
    extract_counts,
    extract_fraction,
    extract_gpus,
    extract_memory_card,
    extract_nodes,
    extract_provider,
)
from advisor.assistant.offline.slots_job import (
    extract_data,
    extract_load,
    extract_model,
    extract_params,
    finish_load,
)
from advisor.assistant.offline.slots_misc import (
    extract_adapter,
    extract_choices,
    extract_documents,
    extract_flags,
    extract_ranking,
    extract_stages,
)
from advisor.assistant.offline.slots_money import (
    extract_foreign_currency,
    extract_money,
    extract_prices,
    finish_prices,
    read_quote,
    resolve_currency,
)
from advisor.assistant.offline.slots_terms import extract_terms
from advisor.assistant.offline.slots_time import extract_shares, extract_times
from advisor.assistant.offline.stages import read_stages
from advisor.assistant.offline.text import MAX_QUESTION_CHARS, Scan, Span, detect_language
from advisor.assistant.offline.verdict import asks_verdict
from advisor.catalog import get_catalog
from advisor.errors import UnknownNameError

Intent = Literal[
    "estimate_training_cost",
    "recommend_hardware",
    "compare_billing",
    "plan_project",
    "review_contract",
    "analyze_usage",
    "search_knowledge",
    "estimate_serving_cost",
    "check_quote",
    "compare_own_vs_rent",
    "out_of_scope",
    "onboarding",
    "clarify",
    "greeting",
    "help",
]

READ_ORDER = (
    extract_documents,  # pasted contract text first: its numbers are not the user's job
    extract_model,  # "Mixtral 8x7B", "千问" before counts and numerals
    extract_fraction,  # "1/10 张卡" before counts: a share of one card
    extract_gpus,
    extract_memory_card,  # "24G够吗？": a card named by its memory
    extract_foreign_currency,  # "2 欧元" is no price in yuan
    extract_prices,  # "每卡每小时8元" before durations and budgets
    extract_money,
    extract_shares,
    extract_terms,  # "500个任务，每个20分钟", "签12个月" before durations
    extract_load,  # "2M requests a day, 500 output tokens each" before data amounts
    extract_data,  # "600B tokens" before bare sizes
    extract_params,
    extract_ranking,
    extract_counts,
    extract_nodes,  # "每台8张，共4台": cards per machine × machines
    extract_times,
    extract_flags,  # "已经做过小规模验证" before stages
    extract_adapter,
    extract_provider,
    extract_stages,
    extract_choices,
    finish_load,  # requests a day from a rate and the hours of load, or from users × requests each
)


class Parsed(BaseModel):
    """What the offline assistant understood from one question."""

    question: str
    intent: Intent
    args: dict[str, Any] = Field(default_factory=dict, description="arguments of the tool named by intent (or pending)")
    language: Literal["zh", "en"]
    missing: list[str] = Field(default_factory=list, description="what a clarifying question asks for")
    is_followup: bool = False
    changed: list[str] = Field(default_factory=list, description="context keys a follow-up changed")
    dropped: list[str] = Field(default_factory=list, description="context keys a follow-up made stale")
    clarify_question: str | None = Field(None, description="the clarifying question, in the question's language")
    clarify_text: dict[str, str] | None = Field(None, description="the clarifying question in zh and en")
    pending: str | None = Field(None, description="the tool a clarification gathers inputs for")
    base_intent: str | None = Field(
        None, description="the tool the conversation's context belongs to (kept across side questions)"
    )
    reason: str = ""
    spans: list[Span] = Field(default_factory=list)
    context: dict[str, Any] = Field(default_factory=dict, description="everything said so far, for follow-ups")
    assumptions: list[dict[str, Any]] = Field(default_factory=list, description="parser defaults used, with sources")
    choices: list[str] = Field(default_factory=list, description="tools a tied question may mean (clarify asks which)")
    asks_verdict: bool = Field(False, description="the question itself asks yes/no, enough?, good deal?, X or Y?")


def read(text: str) -> Scan:
    """Every slot of one question, in :data:`READ_ORDER`."""
    scan = Scan(text)
    for extract in READ_ORDER:
        extract(scan)
    return scan


_AFTER_QUOTE = re.compile(r"['’”\"」』]\s*[.。]?\s*([^'’”\"」』]{1,160})$")
_SHORT_CJK = re.compile(r"[\u4e00-\u9fff，。？！：；、（）“”]")
_SHORT_EN = re.compile(r"[a-zA-Z]{2,}")


def _language(scan: Scan, previous: Parsed | None) -> str:
    question = scan.original[: scan.at[min(scan.limit, scan.values.get("_document_start", scan.limit))]]
    if len(question.strip()) < 4:
        question = scan.original[:MAX_QUESTION_CHARS]
    if len(_SHORT_CJK.findall(question)) == 0 and len(_SHORT_EN.findall(question)) == 0:
        return previous.language if previous else "en"
    if len(_SHORT_CJK.findall(question)) >= 1 and len(_SHORT_EN.findall(question)) <= 1:
        return "zh"
    return detect_language(question)


def parse_question(text: str, previous: Parsed | None = None) -> Parsed:
    """Parse one question; with ``previous``, a follow-up keeps what it does not change."""
    scan = read(text)
    language = _language(scan, previous)
    unit = _ANSWER_UNIT.get(previous.missing[0]) if previous and previous.intent == "clarify" and previous.missing else None
    answer = _ANSWER_AMOUNT.match(scan.question) if unit and not scan.values else None
    if answer:  # "20M" answering "how much data?"
        scan = read(f"{scan.question[: answer.end('amount')]} {unit}{scan.question[answer.end('amount') :]}")
    resolve_currency(scan, language)
    finish_prices(scan, scan.values.get("gpu_count"))
    ctx = context_from_values(scan.values)
    ctx.update(read_quote(scan))
    ctx.update(read_stages(scan))
    tail = _AFTER_QUOTE.search(scan.norm) if "text" in scan.values else None  # "'…clause…' OK for our sweeps?"
    yes_no = asks_verdict(scan.question) or bool(tail and asks_verdict(tail.group(1)))
    if yes_no:
        ctx["asks_verdict"] = True
    decision = classify(scan)
    if previous is not None and previous.intent == "clarify" and "bill" in previous.missing:
        found = decision.found | {"cost"}  # "8张A100，每月跑300小时" answering "what is the bill for?": the bill of that
        decision = choose(set(found), bool(scan.values))._replace(found=found)
    intent, reason = decision.intent, decision.reason
    is_followup = False
    changed: list[str] = []
    dropped: list[str] = []
    if previous is not None:
        base = previous.base_intent or previous.intent
        target = followup.decide(base, previous.pending, decision, ctx, scan.question, previous.context)
        chosen = decision.alternatives[:1] if decision.intent == "clarify" else (decision.intent,)
        if chosen and chosen[0] in previous.choices:  # the answer to "estimate the cost or recommend hardware?"
            target = chosen[0]
        if target is not None:
            old = previous.context
            followup.scale(old, ctx, scan.question)
            ctx, changed, dropped = followup.merge(old, ctx, target)
            _swap_model_size(old, ctx)
            intent, is_followup = target, True
            reason = f"follow-up of {previous.pending or previous.intent}: " + (", ".join(changed) or "same request")
    _check_model(ctx, scan)
    if _memory_only(intent, ctx, scan):
        intent, reason = "estimate_training_cost", "a memory check: does the model fit in the cards' memory"
    pending: str | None = None
    missing: list[str] = []
    choices = list(decision.alternatives) if intent == "clarify" and len(decision.alternatives) >= 2 else []
    if choices:
        pending, missing = choices[0], ["choice"]
    elif intent == "clarify":
        hinted = decision.alternatives[0] if decision.alternatives else None  # "大概多少钱": an estimate, unfilled
        pending = previous.pending if (is_followup and previous) else hinted
        unclear = "bill" if "bill" in decision.found else "task"  # "这个月大概要花多少": what the bill is for
        missing = (missing_inputs(pending, ctx) if pending else []) or [unclear]
    else:
        missing = missing_inputs(intent, ctx)
        if intent == "estimate_training_cost" and missing == ["data"] and _rents_for_a_time(ctx):
            # "Llama 3 70B LoRA for a week on 8 H100s": the time, not the data, sets the bill
            intent, missing, reason = "compare_billing", [], "GPUs rented for a stated time"
        if any(m in JOB_MISSING for m in missing):
            pending, intent = intent, "clarify"
            reason = f"{pending} needs {', '.join(missing)}"
    args = project(pending or intent, ctx, language=language, question=text, notes=scan.notes)
    side = intent in ("search_knowledge", "onboarding", "greeting", "help", "out_of_scope")
    base_intent: str | None = None if side else intent
    if base_intent is None and previous is not None and not is_followup:
        # a side question ("什么是ZeRO-3？") keeps the conversation's job for the next turn
        base_intent, ctx = previous.base_intent, previous.context
        pending = previous.pending if base_intent == "clarify" else None
    texts = clarifying_question(missing, pending, tuple(choices)) if missing else None
    return Parsed(
        question=text,
        intent=intent,  # type: ignore[arg-type]
        args=args,
        language=language,  # type: ignore[arg-type]
        missing=missing,
        is_followup=is_followup,
        changed=changed,
        dropped=dropped,
        clarify_question=texts[language] if texts else None,
        clarify_text=texts,
        pending=pending,
        base_intent=base_intent,
        reason=reason,
        spans=[s for s in scan.spans],
        context=ctx,
        assumptions=scan.notes,
        choices=choices,
        asks_verdict=yes_no,
    )


_ANSWER_AMOUNT = re.compile(lexicon()["answer_amount"]["pattern"])
_ANSWER_UNIT: dict[str, str] = lexicon()["answer_amount"]["unit"]
_MEMORY_FIT = re.compile(_CUES["memory_fit"])
_DATA = ("tokens_b", "dataset_tokens_b", "samples")
_MEMORY_INTENTS = ("estimate_training_cost", "search_knowledge", "clarify")
_NO_FIT_ONLY = ("deadline_hours", "duration_hours", "wall_hours", "budget", "price_per_gpu_hour", "gpu_changed_from")


def _memory_only(intent: str, ctx: dict[str, Any], scan: Scan) -> bool:
    """A memory check ("单张A100 80G放得下13B全参吗", "will a 48GB card fit qlora of a 70B?", "24G够吗？"
    after a job, or a yes/no on a method with no time or money: "Can I LoRA X on one V100?"): a model or size,
    a card, a fit question and no data amount. The estimate runs with
    the lexicon's nominal data (memory does not depend on it) and the answer gives the memory verdict."""
    if any(k in scan.values for k in ("tokens", "samples")):
        ctx.pop("memory_only", None)
        ctx.pop("memory_nominal", None)
        return False
    if ctx.get("memory_only"):
        return True  # a follow-up of a memory check ("换成 H100 呢") stays one
    can_run = ctx.get("asks_verdict") and "method" in ctx and not any(k in ctx for k in _NO_FIT_ONLY)  # "Can I LoRA X on a V100?"
    if intent not in _MEMORY_INTENTS or not (can_run or _MEMORY_FIT.search(scan.question)):
        return False
    if not ("model" in ctx or "params_b" in ctx) or "gpu" not in ctx or "gpus" in ctx:
        return False
    if any(k in ctx for k in _DATA):
        return False
    ctx["memory_only"] = True
    if not any(k in ctx for k in _DATA):
        ctx["tokens_b"] = float(lexicon()["memory_check"]["nominal_tokens_b"])
        ctx["memory_nominal"] = True
    if "gpu_count" not in ctx:
        ctx["gpu_count"] = 1
    return True


def _rents_for_a_time(ctx: dict[str, Any]) -> bool:
    return "gpu" in ctx and any(k in ctx for k in ("wall_hours", "duration_hours"))


def _swap_model_size(old: dict[str, Any], ctx: dict[str, Any]) -> None:
    """ "换成70B的呢" after Llama-3-8B (or "8B的" after "llama3"): the same family at the new
    size, when the catalog lists it; ``params_b`` stays either way."""
    name, size, new = old.get("model"), old.get("model_size_b"), ctx.get("params_b")
    if not (name and new) or "model" in ctx:
        return
    if size:
        swapped = re.sub(rf"(?<![\d.]){_size_text(size)}b", f"{_size_text(new)}b", name)
    elif old.get("model_size_unknown"):
        swapped = f"{name}-{_size_text(new)}b"  # "llama3" then "8B的" -> llama-3-8b
    else:
        return
    if swapped != name and _catalog_knows(swapped):
        ctx["model"] = swapped


def _size_text(size: float) -> str:
    return str(int(size)) if size == int(size) else str(size)


def _check_model(ctx: dict[str, Any], scan: Scan) -> None:
    """A model the catalog does not list is priced by its stated size ("deepseek 67b",
    "一个13B的自研模型"), and the answer says so; without a size, the size is asked for."""
    name, size = ctx.get("model"), ctx.get("model_size_b")
    if not name or _catalog_knows(name) is not False:
        return
    ctx["model_unlisted"] = name
    if "params_b" not in ctx and size:
        ctx["params_b"] = size
    if "params_b" in ctx:  # the tools take the name with its size (shape from the family)
        scan.note("model.unlisted", name, "", f"sized as a {ctx['params_b']:g}B dense model from the question")
    else:
        del ctx["model"]
        ctx["model_size_unknown"] = True
        ctx["model_family"] = name


@lru_cache(maxsize=1024)
def _catalog_knows(name: str) -> bool | None:
    """True/False when the model catalog can be asked; None when it cannot (not built yet,
    broken data): the parser then works from the text alone."""
    try:
        catalog = get_catalog()
    except Exception:  # noqa: BLE001 - optional validation, never a reason to fail a parse
        return None
    try:
        catalog.model(name)
    except UnknownNameError:
        return False
    except Exception:  # noqa: BLE001
        return None
    return True
