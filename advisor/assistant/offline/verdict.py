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
from advisor.glossary import mode as mode_name
from advisor.glossary import term
from advisor.present.fmt import hours, money, pct
from advisor.present.fmt import number as num

MARK = {"en": "**Verdict:** ", "zh": "**结论：** "}


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


def _yes(ok: bool, lang: str) -> str:
    return ("Yes — " if ok else "No — ") if lang == "en" else ("可以，" if ok else "不行，")


def _estimate(r: dict[str, Any], norm: str, lang: str) -> str | None:
    inp, cost = r.get("inputs", {}), r.get("cost", {})
    cur = cost.get("currency", "USD")
    total = cost.get("total")
    budget = inp.get("budget")
    if budget and total is not None:
        ok = total <= budget
        if lang == "en":
            return _yes(ok, lang) + (f"about {money(total, cur)}, within the {money(budget, cur)} budget." if ok else
                                     f"about {money(total, cur)}, {money(total - budget, cur)} over the {money(budget, cur)} budget.")
        return (f"够，约 {money(total, cur)}，在 {money(budget, cur)} 预算内。" if ok else
                f"不够，约 {money(total, cur)}，超出 {money(budget, cur)} 预算 {money(total - budget, cur)}。")
    wall = (r.get("wall_hours") or {}).get("expected")
    if inp.get("deadline_hours") and r.get("meets_deadline") is not None and wall is not None:
        ok = bool(r["meets_deadline"])
        limit = hours(inp["deadline_hours"], lang)
        if lang == "en":
            return _yes(ok, lang) + (f"about {hours(wall, lang)}, within {limit}." if ok else
                                     f"about {hours(wall, lang)}, longer than {limit}; add GPUs or a faster card.")
        return (f"来得及，约 {hours(wall, lang)}，在 {limit} 以内。" if ok else
                f"来不及，约需 {hours(wall, lang)}，超过 {limit}；需要加卡或换更快的卡。")
    if asks_overkill(norm):
        sized = [f for f in r.get("findings", []) if "right" in str(f.get("rule", "")) or "oversiz" in str(f.get("rule", ""))
                 or "大材小用" in str((f.get("text") or {}).get("zh", {}).get("title", ""))]
        if sized:
            title = (sized[0].get("text") or {}).get(lang, {}).get("title", "")
            return ("Yes — it is more hardware than the job needs: " + title + "." if lang == "en"
                    else "是的，配置过剩：" + title + "。")
        return ("No — the job uses what it rents; see the figures below." if lang == "en"
                else "不算过剩，这项任务能用上所租的算力，见下面的数字。")
    return memory_verdict(r, lang)


def memory_verdict(r: dict[str, Any], lang: str, *, with_time: bool = True) -> str | None:
    """Whether the job fits in the cards' memory, from an estimate report (None without memory);
    ``with_time=False`` for a memory check, whose data amount is nominal."""
    mem, gpu = r.get("memory") or {}, r.get("gpu") or {}
    wall = (r.get("wall_hours") or {}).get("expected") if with_time else None
    if mem:
        ok = bool(mem.get("fits"))
        n, name = gpu.get("count"), gpu.get("name")
        per, cap = num(mem.get("per_gpu_gb", 0)), num(mem.get("gpu_memory_gb", 0))
        when = f", about {hours(wall, lang)}" if wall is not None else ""
        if lang == "en":
            return _yes(ok, lang) + (f"{n}× {name} can run it: {per} GB of {cap} GB per GPU{when}." if ok else
                                     f"it does not fit on {n}× {name}: {per} GB needed of {cap} GB per GPU; "
                                     f"at least {mem.get('min_gpus_to_fit')} GPUs.")
        when = f"，约 {hours(wall, lang)}" if wall is not None else ""
        return (f"{n} 张 {name} 跑得动：每卡需 {per} GB / {cap} GB{when}。" if ok else
                f"{n} 张 {name} 放不下：每卡需 {per} GB，只有 {cap} GB；至少需要 {mem.get('min_gpus_to_fit')} 张卡。")
    return None


def _recommend(r: dict[str, Any], args: dict[str, Any], norm: str, lang: str) -> str | None:
    options = r.get("options") or []
    cheapest = r.get("cheapest")
    asked = [str(g) for g in args.get("gpus") or []]
    if not options or not cheapest:
        return ("No — no configuration fits the memory, deadline and budget given." if lang == "en"
                else "不行，在给定的显存、工期和预算条件下没有可行的配置。")
    line = f"{cheapest['gpu_count']}× {cheapest['gpu']} at {money(cheapest['total'], cheapest['currency'])}"
    line_zh = f"{cheapest['gpu_count']} 张 {cheapest['gpu']}，{money(cheapest['total'], cheapest['currency'])}"
    if asked:
        first = asked[0]
        fits = any(o.get("gpu") == first for o in options)
        if asks_overkill(norm):
            over = cheapest.get("gpu") != first
            return (("Yes — " if over else "No — ") + f"the cheapest fit is {line}." if lang == "en" else
                    ("是的，配置过剩：" if over else "不算过剩：") + f"最省钱的可行方案是 {line_zh}。")
        return (_yes(fits, lang) + (f"{first} can do it; the cheapest fit is {line}." if fits else
                                    f"{first} does not fit the job; the cheapest fit is {line}.")) if lang == "en" else (
            _yes(fits, lang) + (f"{first} 能胜任；最省钱的可行方案是 {line_zh}。" if fits else
                                f"{first} 不满足要求；最省钱的可行方案是 {line_zh}。"))
    return (f"The cheapest fit is {line}." if lang == "en" else f"最省钱的可行方案是 {line_zh}。")


def _billing(r: dict[str, Any], args: dict[str, Any], lang: str) -> str | None:
    options = r.get("options") or []
    best = next((o for o in options if o.get("recommended")), None) or next((o for o in options if o.get("cheapest")), None)
    if best is None:
        return None
    cur = r.get("currency", "USD")
    named = [m for m in args.get("billing_modes") or ([args["billing"]] if args.get("billing") else []) if m != "on_demand"]
    mode = mode_name(best["mode"], lang)
    total = money(best["total"], cur)
    if named:
        ok = best["mode"] in named
        asked = mode_name(named[0], lang)
        if lang == "en":
            return _yes(ok, lang) + (f"{asked} is the best choice here ({total})." if ok else
                                     f"{mode} is better here ({total}) than {asked}.")
        return (f"划算，{asked}最合适（{total}）。" if ok else f"不划算，这里{mode}更合适（{total}），不是{asked}。")
    return (f"{mode} is the best choice here ({total})." if lang == "en" else f"这里选{mode}最合适（{total}）。")


def _serving(r: dict[str, Any], args: dict[str, Any], lang: str) -> str | None:
    load = r.get("load_share")
    n, gpu = r.get("gpu_count"), r.get("gpu")
    given = args.get("gpu_count")
    monthly = r.get("monthly_cost")
    cur = r.get("currency", "USD")
    if given and load is not None:
        ok = load <= 1.0 and n == given
        if lang == "en":
            return _yes(ok, lang) + (f"{given}× {gpu} carry the load at {pct(load)} of capacity, {money(monthly, cur)} a month."  # type: ignore[arg-type]
                                     if ok else f"{given}× {gpu} are not enough; it needs {n}× {gpu} ({money(monthly, cur)} a month).")  # type: ignore[arg-type]
        return (f"够，{given} 张 {gpu} 能扛住，负载约 {pct(load)}，每月 {money(monthly, cur)}。" if ok else  # type: ignore[arg-type]
                f"不够，{given} 张 {gpu} 扛不住，需要 {n} 张 {gpu}（每月 {money(monthly, cur)}）。")  # type: ignore[arg-type]
    if n and monthly is not None:
        return (f"It needs {n}× {gpu}: {money(monthly, cur)} a month." if lang == "en"
                else f"需要 {n} 张 {gpu}：每月 {money(monthly, cur)}。")
    return None


def _contract(r: dict[str, Any], lang: str) -> str:
    findings = r.get("findings") or []
    bad = [f for f in findings if f.get("severity") in ("critical", "warning")]
    if not bad:
        return ("No trap from the checklist was found in this text." if lang == "en" else "按检查清单，这段条款没有发现陷阱。")
    first = (bad[0].get("text") or {}).get(lang, {}).get("title", "")
    return (f"Risky — {len(bad)} point(s) to fix before signing, first: {first}." if lang == "en"
            else f"有风险，签之前有 {len(bad)} 处需要改，首先是：{first}。")


def _usage(r: dict[str, Any], lang: str) -> str | None:
    s = r.get("summary") or {}
    util, target = s.get("avg_utilization"), s.get("target_utilization")
    if util is None or target is None:
        return None
    cur = r.get("currency") or s.get("currency") or "USD"
    waste = s.get("waste_cost")
    low = util < target
    tail = f", {money(waste, cur)} paid for idle time" if waste and lang == "en" else (
        f"，空闲时间花了 {money(waste, cur)}" if waste else "")
    if lang == "en":
        return (("Yes — " if low else "No — ") + f"utilization is {pct(util)} against a {pct(target)} target{tail}.")
    return (("是的，" if low else "不需要，") + f"利用率 {pct(util)}，目标 {pct(target)}{tail}。")


def _quote(r: dict[str, Any], lang: str) -> str | None:
    v = r.get("verdict")
    if not v:
        return None
    price, cur = r.get("price_per_gpu_hour"), r.get("currency", "USD")
    median = (r.get("market") or {}).get("median")
    words = {"below": ("a good price — below the market", "价格不错，低于市场价"),
             "at": ("a fair price — at the market", "价格合理，与市场价持平"),
             "above": ("above the market — negotiate", "高于市场价，建议还价")}
    en, zh = words.get(str(v), (str(v), str(v)))
    if price is None or median is None:
        return en.capitalize() + "." if lang == "en" else zh + "。"
    if lang == "en":
        return f"{en.capitalize()}: {money(price, cur)} per GPU-hour against a median of {money(median, cur)}."
    return f"{zh}：折合每卡每小时 {money(price, cur)}，市场中位数 {money(median, cur)}。"


def _own(r: dict[str, Any], args: dict[str, Any], lang: str) -> str | None:
    be = r.get("break_even_utilization")
    util = r.get("utilization") or args.get("utilization")
    cheaper = r.get("cheaper")
    if cheaper not in ("own", "rent") or util is None:
        return None
    own = cheaper == "own"
    cur = r.get("currency", "USD")
    saving = f", saving {money(r['saving'], cur)}" if r.get("saving") else ""
    even = (f"; owning breaks even at {pct(be)}" if be is not None else "; renting stays cheaper even at full use") if lang == "en" else (
        f"；自购的盈亏平衡利用率是 {pct(be)}" if be is not None else "；即使满负荷，租用也更便宜")
    if lang == "en":
        return ("Yes — owning is cheaper" if own else "No — renting is cheaper") + f" at {pct(util)} utilization{saving}{even}."
    saving_zh = f"，可省 {money(r['saving'], cur)}" if r.get("saving") else ""
    return ("买更划算" if own else "租更划算") + f"：利用率 {pct(util)}{saving_zh}{even}。"


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
        ok = total <= budget
        text = (_yes(ok, lang) + f"the plan costs about {money(total, cur)} against a {money(budget, cur)} budget."
                if lang == "en" else ("够，" if ok else "不够，") + f"整个计划约 {money(total, cur)}，预算 {money(budget, cur)}。")
    else:
        text = None
    return MARK[lang] + text if text else ""


def undecided(kind: str, lang: str, missing: list[str] | None = None) -> str:
    """The verdict line of a yes/no question the answer cannot settle (with its mark): ``needs`` (a
    clarification: what it lacks, from ``missing``), ``guides`` (general guidance, no job to judge) or
    ``figures`` (a report with nothing to judge its figures against)."""
    if kind == "needs":
        items = [m for m in missing or [] if m != "task"] or ["task"]
        joiner = " and " if lang == "en" else "和"
        need = joiner.join(term(f"need.{m}", lang) for m in dict.fromkeys(items))
        return MARK[lang] + term("verdict.open.needs", lang, need=need)
    return MARK[lang] + term(f"verdict.open.{kind}", lang)
