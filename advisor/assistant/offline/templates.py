"""Templated explanations of tool reports, in Chinese and English.

Every figure is read from the report (its JSON, ``report.model_dump(mode="json")``) and
formatted here — the templates hold words only. The same functions explain an LLM turn
whose own wording failed the grounding check. Reports of other tools: :mod:`.templates_more`.
"""

from __future__ import annotations

from typing import Any

from advisor.money import format_money

MODE_NAME = {
    "on_demand": {"en": "on-demand", "zh": "按量"},
    "daily": {"en": "daily", "zh": "包天"},
    "monthly": {"en": "monthly", "zh": "包月"},
    "yearly": {"en": "yearly", "zh": "包年"},
    "off_peak": {"en": "off-peak", "zh": "闲时"},
    "spot": {"en": "spot", "zh": "竞价（spot）"},
    "per_task": {"en": "per-task", "zh": "按任务"},
}
METHOD_NAME = {
    "pretrain": {"en": "pre-training", "zh": "预训练"},
    "full": {"en": "full fine-tune", "zh": "全参微调"},
    "lora": {"en": "LoRA fine-tune", "zh": "LoRA 微调"},
    "qlora": {"en": "QLoRA fine-tune", "zh": "QLoRA 微调"},
}
SEVERITY = {"critical": {"en": "critical", "zh": "严重"}, "warning": {"en": "warning", "zh": "注意"},
            "info": {"en": "info", "zh": "提示"}}  # fmt: skip


def word(table: dict[str, dict[str, str]], key: str, lang: str) -> str:
    return table.get(key, {}).get(lang) or key.replace("_", "-")


def money(amount: float, currency: str) -> str:
    return format_money(float(amount), currency)


def num(x: float) -> str:
    """A plain figure: ``84,197`` / ``735`` / ``91.9`` / ``9.6`` / ``0.12``."""
    x = float(x)
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    if abs(x) >= 100:
        return f"{x:.0f}"
    if abs(x) >= 1:
        return f"{x:.1f}".removesuffix(".0")
    return f"{x:.2g}"


def hours(h: float, lang: str) -> str:
    """``9.6 h`` or, beyond two days, ``27.4 days (657.8 h)``."""
    h = float(h)
    if h < 48:
        return f"{num(h)} h" if lang == "en" else f"{num(h)} 小时"
    days = h / 24
    return f"{num(days)} days ({num(h)} h)" if lang == "en" else f"{num(days)} 天（{num(h)} 小时）"


def pct(share: float) -> str:
    return f"{float(share) * 100:.0f}%"


def bullet(lines: list[str]) -> str:
    return "\n".join(f"- {line}" for line in lines if line)


def findings_block(findings: list[dict[str, Any]], lang: str, limit: int = 3) -> str:
    """The top findings with their recommendations (and savings when the rule computed one)."""
    if not findings:
        return ""
    head = "What to watch" if lang == "en" else "需要注意"
    lines = []
    for f in findings[:limit]:
        text = (f.get("text") or {}).get(lang) or f
        line = f"[{word(SEVERITY, f.get('severity', 'info'), lang)}] {text.get('title', '')}"
        rec = text.get("recommendation")
        if rec:
            line += f" — {rec}"
        saving = f.get("savings")
        if saving and saving.get("amount"):
            line += (f" (saves about {money(saving['amount'], saving['currency'])})" if lang == "en"
                     else f"（约可节省 {money(saving['amount'], saving['currency'])}）")
        lines.append(line)
    more = len(findings) - limit
    if more > 0:
        lines.append(f"{more} more in the findings list" if lang == "en" else f"另有 {more} 条见 findings 列表")
    return f"**{head}**\n" + bullet(lines)


def _job_name(inputs: dict[str, Any], lang: str) -> str:
    model = inputs.get("model") or (f"{num(inputs['params_b'])}B" if inputs.get("params_b") else "")
    if lang == "en" and not inputs.get("model") and model:
        model = f"{'an' if model[0] in '8' or model.startswith(('11', '18')) else 'a'} {model}-parameter model"
    elif lang == "zh" and not inputs.get("model") and model:
        model = f"{model} 参数模型"
    method = word(METHOD_NAME, inputs.get("method", "full"), lang)
    return f"{method} of {model}" if lang == "en" else f"{model} {method}"


def estimate(r: dict[str, Any], lang: str) -> str:
    """Key figures of an estimate: cost with range, GPU-hours, wall time, memory, billing, what-ifs."""
    cur = r["cost"]["currency"]
    inp, gpu, mem = r["inputs"], r["gpu"], r["memory"]
    c, gh, wh = r["cost"], r["gpu_hours"], r["wall_hours"]
    billing = [b for b in r.get("billing", []) if b.get("available", True)]
    picked = inp.get("billing", "on_demand")
    cheapest = min(billing, key=lambda b: b["total"]) if billing else None
    if lang == "en":
        head = f"**Estimate — {_job_name(inp, lang)} on {gpu['count']}× {gpu['name']}**"
        lines = [
            f"Cost: **{money(c['total'], cur)}** (range {money(c['low'], cur)}–{money(c['high'], cur)}), "
            f"{word(MODE_NAME, picked, lang)} billing",
            f"GPU-hours: {num(gh['expected'])} (range {num(gh['low'])}–{num(gh['high'])}); "
            f"wall time about {hours(wh['expected'], lang)}",
            f"Memory: {num(mem['per_gpu_gb'])} GB per GPU of {num(mem['gpu_memory_gb'])} GB — "
            + ("fits" if mem["fits"] else f"does not fit; at least {mem['min_gpus_to_fit']} GPUs are needed"),
        ]
        if r.get("meets_deadline") is False:
            lines.append(f"Deadline: missed (asked for {hours(inp['deadline_hours'], lang)})")
        if cheapest and cheapest["mode"] != picked:
            lines.append(f"Cheapest billing: {word(MODE_NAME, cheapest['mode'], lang)} at {money(cheapest['total'], cur)}"
                         + ("" if cheapest.get("suitable", True) else " — only for work that tolerates interruptions"))
    else:
        head = f"**估算：{_job_name(inp, lang)}，{gpu['count']} 张 {gpu['name']}**"
        lines = [
            f"费用：**{money(c['total'], cur)}**（区间 {money(c['low'], cur)}–{money(c['high'], cur)}），计费方式：{word(MODE_NAME, picked, lang)}",
            f"GPU 时：{num(gh['expected'])}（区间 {num(gh['low'])}–{num(gh['high'])}）；约需 {hours(wh['expected'], lang)}",
            f"显存：每卡 {num(mem['per_gpu_gb'])} GB / {num(mem['gpu_memory_gb'])} GB — "
            + ("放得下" if mem["fits"] else f"放不下，至少需要 {mem['min_gpus_to_fit']} 张卡"),
        ]
        if r.get("meets_deadline") is False:
            lines.append(f"工期：赶不上要求的 {hours(inp['deadline_hours'], lang)}")
        if cheapest and cheapest["mode"] != picked:
            lines.append(f"最便宜的计费方式：{word(MODE_NAME, cheapest['mode'], lang)}，{money(cheapest['total'], cur)}"
                         + ("" if cheapest.get("suitable", True) else "（仅适合可中断的任务）"))
    parts = [head, bullet(lines), findings_block(r.get("findings", []), lang), _what_if(r, lang)]
    return "\n\n".join(p for p in parts if p)


def _what_if(r: dict[str, Any], lang: str) -> str:
    cur = r["cost"]["currency"]
    alt = r.get("alternatives") or {}
    lines = []
    cheaper = alt.get("cheaper_gpu")
    if cheaper and cheaper.get("saving", 0) > 0:
        lines.append(
            f"{cheaper['count']}× {cheaper['gpu']} would cost {money(cheaper['cost'], cur)} "
            f"(saves {money(cheaper['saving'], cur)}, about {hours(cheaper['wall_hours'], lang)})" if lang == "en" else
            f"换成 {cheaper['count']} 张 {cheaper['gpu']}：{money(cheaper['cost'], cur)}"
            f"（省 {money(cheaper['saving'], cur)}，约 {hours(cheaper['wall_hours'], lang)}）"
        )
    fleet = alt.get("mixed_fleet")
    if fleet and fleet.get("saving", 0) > 0:
        lines.append(
            f"Mixed fleet (routine {pct(fleet['routine_share'])} on {fleet['routine_gpu']}, core on {fleet['core_gpu']}): "
            f"{money(fleet['mixed_total'], cur)}" if lang == "en" else
            f"混合机队（{pct(fleet['routine_share'])} 常规工作用 {fleet['routine_gpu']}，核心部分用 {fleet['core_gpu']}）："
            f"{money(fleet['mixed_total'], cur)}"
        )
    lines.append('Ask a follow-up to change one thing: "what about spot?", "with twice the GPUs?", "换成H100呢？"'
                 if lang == "en" else "追问可以只改一项：“换成H100呢？”“卡数翻倍呢？”“用spot呢？”")
    head = "What if" if lang == "en" else "还可以怎样"
    return f"**{head}**\n" + bullet(lines)


def recommend(r: dict[str, Any], lang: str) -> str:
    """The cheapest and fastest options and the top of the ranking."""
    inp = r.get("inputs", {})
    options = r.get("options", [])
    if not options:
        msg = ("No configuration fits the memory, deadline and budget given"
               if lang == "en" else "在给定的显存、工期和预算条件下没有可行的配置")
        ex = r.get("excluded", {})
        detail = (f"{ex.get('does_not_fit', 0)} do not fit, {ex.get('misses_deadline', 0)} miss the deadline, "
                  f"{ex.get('over_budget', 0)} exceed the budget" if lang == "en" else
                  f"{ex.get('does_not_fit', 0)} 种显存不够，{ex.get('misses_deadline', 0)} 种赶不上工期，{ex.get('over_budget', 0)} 种超预算")
        return f"**{msg}**\n{bullet([detail])}"
    head = (f"**Hardware for {_job_name(inp, lang)}**" if lang == "en" else f"**{_job_name(inp, lang)}的硬件推荐**")

    def line(o: dict[str, Any]) -> str:
        mode = word(MODE_NAME, o["billing"], lang)
        if lang == "en":
            return (f"{o['gpu_count']}× {o['gpu']} ({o['precision']}, {mode}): {money(o['total'], o['currency'])}, "
                    f"about {hours(o['wall_hours'], lang)}, {num(o['per_gpu_gb'])} of {num(o['gpu_memory_gb'])} GB per GPU")
        return (f"{o['gpu_count']} 张 {o['gpu']}（{o['precision']}，{mode}）：{money(o['total'], o['currency'])}，"
                f"约 {hours(o['wall_hours'], lang)}，每卡 {num(o['per_gpu_gb'])}/{num(o['gpu_memory_gb'])} GB")

    cheapest, fastest = r.get("cheapest"), r.get("fastest")
    lines = []
    if cheapest:
        lines.append(("Cheapest: " if lang == "en" else "最省钱：") + line(cheapest))
    if fastest and fastest != cheapest:
        lines.append(("Fastest: " if lang == "en" else "最快：") + line(fastest))
    ranking = [line(o) for o in options[:3]]
    counted = (f"{num(r['feasible'])} of {num(r['evaluated'])} configurations qualify" if lang == "en"
               else f"{num(r['evaluated'])} 种配置中 {num(r['feasible'])} 种满足条件") if "evaluated" in r else ""
    top = ("Top options" if lang == "en" else "排名前列") + (f" ({counted})" if lang == "en" and counted else
                                                             (f"（{counted}）" if counted else ""))
    parts = [head, bullet(lines), f"**{top}**\n" + bullet(ranking), findings_block(r.get("findings", []), lang)]
    if cheapest:
        n, g = cheapest["gpu_count"], cheapest["gpu"]
        parts.append(f'To price one option in full, ask e.g. "estimate it on {n}× {g}".' if lang == "en"
                     else f"想看某个方案的完整估算，可以问“用{n}张{g}算一下”。")
    return "\n\n".join(p for p in parts if p)
