"""Yes/no questions ("够不够", "is it overkill", "can it finish in 3 days", "合理吗") get a verdict
sentence before the figures, read from the tool's report — never guessed.

:func:`asks_verdict` tells a yes/no question from a "how much" one (cue words in
``knowledge/lexicon.yaml`` ``verdict_cues``); :func:`verdict` writes the sentence for the report
of each tool, or None when the report cannot answer the question asked.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from advisor.assistant.offline.lexicon import lexicon
from advisor.assistant.offline.slots_time import DATED_DEADLINE
from advisor.glossary import has, term
from advisor.glossary import mode as mode_name
from advisor.present.fmt import hours, money, pct
from advisor.present.fmt import number as num

OVERSIZED_RULES = ("sizing.overkill_gpu",)  # the findings that say the hardware is more than the job needs


@lru_cache(maxsize=1)
def _cues() -> dict[str, re.Pattern[str]]:
    cues = lexicon()["verdict_cues"]
    return {k: re.compile("|".join(f"(?:{p})" for p in v)) for k, v in cues.items()}


def asks_verdict(norm: str) -> bool:
    """True when the (normalized) question asks a yes/no question about the job."""
    cues = _cues()
    if cues["not"].search(norm):
        return False
    return bool(cues["zh"].search(norm) or cues["en"].search(norm))


def asks_overkill(norm: str) -> bool:
    return bool(_cues()["overkill"].search(norm))


def mark(lang: str) -> str:
    return term("verdict.mark", lang)


def _say(key: str, ok: bool | None, lang: str, **values: Any) -> str:
    """``verdict.<key>.yes`` / ``.no`` (or ``verdict.<key>`` when ``ok`` is None) with ``values``."""
    return term(f"verdict.{key}" + ("" if ok is None else ".yes" if ok else ".no"), lang, **values)


def _estimate(r: dict[str, Any], norm: str, lang: str) -> str | None:
    inp, cost = r.get("inputs", {}), r.get("cost", {})
    cur = cost.get("currency", "USD")
    total = cost.get("total")
    budget = inp.get("budget")
    if budget and total is not None:
        return _say("budget", total <= budget, lang, total=money(total, cur), budget=money(budget, cur),
                    over=money(total - budget, cur))
    wall = (r.get("wall_hours") or {}).get("expected")
    if inp.get("deadline_hours") and r.get("meets_deadline") is not None and wall is not None:
        return _say("deadline", bool(r["meets_deadline"]), lang, wall=hours(wall, lang), limit=hours(inp["deadline_hours"], lang))
    dated = DATED_DEADLINE.search(norm) if wall is not None and not inp.get("deadline_hours") else None
    if dated:  # "can we make it by Friday?": the time it takes, and what a yes or no needs
        return _say("deadline.dated", None, lang, wall=hours(wall, lang), date=dated.group(0).strip())
    if asks_overkill(norm):
        sized = [f for f in r.get("findings", []) if f.get("rule_id") in OVERSIZED_RULES]
        title = (sized[0].get("text") or {}).get(lang, {}).get("title", "") if sized else ""
        return _say("overkill", bool(sized), lang, title=title)
    return memory_verdict(r, lang)


def memory_verdict(r: dict[str, Any], lang: str, *, with_time: bool = True) -> str | None:
    """Whether the job fits in the cards' memory, from an estimate report (None without memory);
    ``with_time=False`` for a memory check, whose data amount is nominal."""
    mem, gpu = r.get("memory") or {}, r.get("gpu") or {}
    wall = (r.get("wall_hours") or {}).get("expected") if with_time else None
    if not mem:
        return None
    when = term("verdict.memory.when", lang, wall=hours(wall, lang)) if wall is not None else ""
    return _say("memory", bool(mem.get("fits")), lang, n=gpu.get("count"), name=gpu.get("name"), when=when,
                per=num(mem.get("per_gpu_gb", 0)), cap=num(mem.get("gpu_memory_gb", 0)), min=mem.get("min_gpus_to_fit"))


def _recommend(r: dict[str, Any], args: dict[str, Any], norm: str, lang: str) -> str | None:
    options = r.get("options") or []
    cheapest = r.get("cheapest")
    asked = [str(g) for g in args.get("gpus") or []]
    if not options or not cheapest:
        return _say("recommend.none", None, lang)
    line = term("verdict.recommend.line", lang, n=cheapest["gpu_count"], gpu=cheapest["gpu"],
                total=money(cheapest["total"], cheapest["currency"]))
    if asked:
        first = asked[0]
        if asks_overkill(norm):
            return _say("recommend.overkill", cheapest.get("gpu") != first, lang, line=line)
        return _say("recommend.asked", any(o.get("gpu") == first for o in options), lang, first=first, line=line)
    return _say("recommend.cheapest", None, lang, line=line)


def _billing(r: dict[str, Any], args: dict[str, Any], lang: str) -> str | None:
    options = r.get("options") or []
    best = next((o for o in options if o.get("recommended")), None) or next((o for o in options if o.get("cheapest")), None)
    if best is None:
        return None
    named = [m for m in args.get("billing_modes") or ([args["billing"]] if args.get("billing") else []) if m != "on_demand"]
    values = {"mode": mode_name(best["mode"], lang), "total": money(best["total"], r.get("currency", "USD"))}
    if named:
        return _say("billing.asked", best["mode"] in named, lang, asked=mode_name(named[0], lang), **values)
    return _say("billing.best", None, lang, **values)


def _serving(r: dict[str, Any], args: dict[str, Any], lang: str) -> str | None:
    load = r.get("load_share")
    n, gpu = r.get("gpu_count"), r.get("gpu")
    given = args.get("gpu_count")
    monthly = r.get("monthly_cost")
    cost = money(monthly, r.get("currency", "USD"))
    if given and load is not None:
        if load <= 1.0 and n == given:
            return _say("serving.given", True, lang, given=given, gpu=gpu, load=pct(load), monthly=cost)
        if not r.get("replicas") and r.get("gpus_per_replica"):  # not even one copy of the model fits on the cards given
            return _say("serving.replica", None, lang, given=given, gpu=gpu, per=r["gpus_per_replica"], weights=num(r.get("weights_gb") or 0))
        return _say("serving.given", False, lang, given=given, gpu=gpu, load=pct(load))
    if n and monthly is not None:
        return _say("serving.needs", None, lang, n=n, gpu=gpu, monthly=cost)
    return None


def _contract(r: dict[str, Any], lang: str) -> str:
    bad = [f for f in r.get("findings") or [] if f.get("severity") in ("critical", "warning")]
    if not bad:
        return _say("contract.clean", None, lang)
    return _say("contract.risky", None, lang, n=len(bad), first=(bad[0].get("text") or {}).get(lang, {}).get("title", ""))


def _usage(r: dict[str, Any], lang: str) -> str | None:
    s = r.get("summary") or {}
    util, target = s.get("avg_utilization"), s.get("target_utilization")
    if util is None or target is None:
        return None
    cur = r.get("currency") or s.get("currency") or "USD"
    waste = s.get("waste_cost")
    tail = term("verdict.usage.waste", lang, waste=money(waste, cur)) if waste else ""
    return _say("usage", util < target, lang, util=pct(util), target=pct(target), tail=tail)


def _quote(r: dict[str, Any], lang: str) -> str | None:
    v = r.get("verdict")
    if not v:
        return None
    price, cur = r.get("price_per_gpu_hour"), r.get("currency", "USD")
    median = (r.get("market") or {}).get("median")
    words = term(f"verdict.quote.{v}", lang) if has(f"verdict.quote.{v}") else str(v)
    words = words[:1].upper() + words[1:]
    if price is None or median is None:
        return words + term("sep.end", lang)
    return _say("quote.against", None, lang, words=words, price=money(price, cur), median=money(median, cur))


def _own(r: dict[str, Any], args: dict[str, Any], lang: str) -> str | None:
    be = r.get("break_even_utilization")
    util = r.get("utilization") or args.get("utilization")
    cheaper = r.get("cheaper")
    if cheaper not in ("own", "rent") or util is None:
        return None
    cur = r.get("currency", "USD")
    saving = term("verdict.own.saving", lang, saving=money(r["saving"], cur)) if r.get("saving") else ""
    even = term("verdict.own.even", lang, be=pct(be)) if be is not None else term("verdict.own.never", lang)
    return _say("own", cheaper == "own", lang, util=pct(util), saving=saving, even=even)


def verdict(tool: str, args: dict[str, Any], report: dict[str, Any] | None, norm: str, lang: str) -> str:
    """The verdict sentence (with its mark), or '' when the report cannot answer yes or no."""
    if not report:
        return ""
    text: str | None
    if tool == "estimate_training_cost":
        text = _estimate(report, norm, lang)
    elif tool == "recommend_hardware":
        text = _recommend(report, args, norm, lang)
    elif tool == "compare_billing":
        text = _billing(report, args, lang)
    elif tool == "estimate_serving_cost":
        text = _serving(report, args, lang)
    elif tool == "review_contract":
        text = _contract(report, lang)
    elif tool == "analyze_usage":
        text = _usage(report, lang)
    elif tool == "check_quote":
        text = _quote(report, lang)
    elif tool == "compare_own_vs_rent":
        text = _own(report, args, lang)
    elif tool == "plan_project":
        total, budget, cur = report.get("total"), args.get("budget"), report.get("currency", "USD")
        if total is None or not budget:
            return ""
        text = _say("plan", total <= budget, lang, total=money(total, cur), budget=money(budget, cur))
    else:
        text = None
    return mark(lang) + text if text else ""


def undecided(kind: str, lang: str, missing: list[str] | None = None) -> str:
    """The verdict line of a yes/no question the answer cannot settle (with its mark): ``needs`` (a
    clarification: what it lacks, from ``missing``), ``guides`` (general guidance, no job to judge) or
    ``figures`` (a report with nothing to judge its figures against)."""
    if kind == "needs":
        items = [m for m in missing or [] if m != "task"] or ["task"]
        need = term("verdict.and", lang).join(term(f"need.{m}", lang) for m in dict.fromkeys(items))
        return mark(lang) + term("verdict.open.needs", lang, need=need)
    return mark(lang) + term(f"verdict.open.{kind}", lang)
