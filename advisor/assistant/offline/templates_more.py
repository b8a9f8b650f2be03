"""Templated explanations of the other reports (billing, plan, contract, usage, guides),
onboarding, greetings and refusals — in Chinese and English, figures from the reports only."""

from __future__ import annotations

from typing import Any

from advisor.assistant.offline.templates import (
    MODE_NAME,
    SEVERITY,
    bullet,
    findings_block,
    hours,
    money,
    num,
    pct,
    word,
)


def billing(r: dict[str, Any], lang: str) -> str:
    """Every billing mode's total, the recommendation and the break-even points."""
    cur = r["currency"]
    inp = r.get("inputs", {})
    n, gpu = inp.get("gpu_count", 1), inp.get("gpu", "")
    head = (f"**Billing modes for {n}× {gpu} over {hours(inp.get('wall_hours', 0), lang)}**" if lang == "en"
            else f"**{n} 张 {gpu}，使用 {hours(inp.get('wall_hours', 0), lang)} 的计费方式对比**")
    lines = []
    for o in r.get("options", []):
        mark = []
        if o.get("recommended"):
            mark.append("recommended" if lang == "en" else "推荐")
        if o.get("cheapest"):
            mark.append("cheapest" if lang == "en" else "最便宜")
        if not o.get("available", True):
            mark.append("not offered by the price sheets" if lang == "en" else "价目表未提供")
        elif not o.get("suitable", True):
            mark.append("not suitable here" if lang == "en" else "不适合此任务")
        note = o.get("note") if lang == "en" else o.get("note_zh") or o.get("note")
        tag = f" ({', '.join(mark)})" if mark and lang == "en" else (f"（{'，'.join(mark)}）" if mark else "")
        lines.append(f"{word(MODE_NAME, o['mode'], lang)}: {money(o['total'], cur)}{tag}" + (f" — {note}" if note else ""))
    be = r.get("break_even") or {}
    extra = []
    if be:
        extra.append(
            f"Monthly beats on-demand above {num(be['monthly_hours_per_month'])} h a month; yearly beats monthly "
            f"above {num(be['yearly_months'])} months a year." if lang == "en" else
            f"每月使用超过 {num(be['monthly_hours_per_month'])} 小时，包月比按量便宜；每年使用超过 "
            f"{num(be['yearly_months'])} 个月，包年比包月便宜。"
        )
    parts = [head, bullet(lines), " ".join(extra), findings_block(r.get("findings", []), lang)]
    parts.append('Follow up with "what about spot?" or "what about off-peak?" to change one assumption.' if lang == "en"
                 else "可以追问“用spot呢？”或“放到晚上跑呢？”来改变一个条件。")
    return "\n\n".join(p for p in parts if p)


def summary(r: dict[str, Any], lang: str) -> str:
    """A report that has no template of its own: its bilingual summary and its findings."""
    text = (r.get("summary") or {}).get(lang) if isinstance(r.get("summary"), dict) else r.get("summary")
    head = {"en": "**Result**", "zh": "**结果**"}[lang]
    parts = [head, str(text or ""), findings_block(r.get("findings", []), lang)]
    return "\n\n".join(p for p in parts if p)


def serving(r: dict[str, Any], lang: str) -> str:
    """GPUs needed, cost per day, month and million tokens, and the billing modes for 24/7 use."""
    cur = r.get("currency", "USD")
    head = "**Serving cost**" if lang == "en" else "**推理服务成本**"
    lines = [(r.get("summary") or {}).get(lang, "")]
    if r.get("daily_cost") is not None:
        lines.append(f"Per day {money(r['daily_cost'], cur)}; {num(r.get('gpu_hours_per_day', 0))} GPU-hours a day" if lang == "en"
                     else f"每天 {money(r['daily_cost'], cur)}；每天 {num(r.get('gpu_hours_per_day', 0))} GPU 时")
    if r.get("load_share") is not None:
        lines.append(f"Load: {pct(r['load_share'])} of the capacity" if lang == "en" else f"负载：容量的 {pct(r['load_share'])}")
    options = []
    for o in r.get("billing_options") or []:
        if not o.get("available", True):
            continue
        tag = (" (recommended)" if lang == "en" else "（推荐）") if o.get("recommended") else ""
        options.append(f"{word(MODE_NAME, o['mode'], lang)}: {money(o['total'], cur)}{tag}")
    parts = [head, bullet(lines)]
    if options:
        parts.append(("**A month by billing mode**\n" if lang == "en" else "**按计费方式的月费用**\n") + bullet(options))
    parts.append(findings_block(r.get("findings", []), lang))
    return "\n\n".join(p for p in parts if p)


def plan(r: dict[str, Any], lang: str) -> str:
    """Each stage's cost and share, and the total with its range."""
    cur = r["currency"]
    head = (f"**Project plan: {money(r['total'], cur)}** (range {money(r['low'], cur)}–{money(r['high'], cur)})"
            if lang == "en" else f"**项目规划：共 {money(r['total'], cur)}**（区间 {money(r['low'], cur)}–{money(r['high'], cur)}）")
    lines = []
    for s in r.get("stages", []):
        name = s["stage"] if lang == "en" else s.get("stage_zh", s["stage"])
        mode = word(MODE_NAME, s.get("billing", "on_demand"), lang)
        if lang == "en":
            lines.append(f"{name}: {money(s['cost'], cur)} ({pct(s['share'])}) — {s['gpu_count']}× {s['gpu']}, "
                         f"{num(s['gpu_hours'])} GPU-hours, about {hours(s['wall_hours'], lang)}, {mode} billing")
        else:
            lines.append(f"{name}：{money(s['cost'], cur)}（{pct(s['share'])}）— {s['gpu_count']} 张 {s['gpu']}，"
                         f"{num(s['gpu_hours'])} GPU 时，约 {hours(s['wall_hours'], lang)}，计费方式：{mode}")
    parts = [head, bullet(lines), findings_block(r.get("findings", []), lang)]
    return "\n\n".join(p for p in parts if p)


def _quote(f: dict[str, Any], lang: str) -> str:
    """The clause a contract finding quotes, with where it is, or ''."""
    for ev in (f.get("evidence") or {}).values():
        if isinstance(ev, dict) and ev.get("quote"):
            where = ev.get("where_zh" if lang == "zh" else "where") or ev.get("where") or ""
            quote = " ".join(str(ev["quote"]).split())[:160]
            return f"“{quote}”" + ((f" ({where})" if lang == "en" else f"（{where}）") if where else "")
    return ""


def contract(r: dict[str, Any], lang: str) -> str:
    """The traps found, each with its clause quoted, then the protections that are missing."""
    findings = r.get("findings", [])
    traps = [f for f in findings if _quote(f, lang)]
    missing = [f for f in findings if not _quote(f, lang)]
    critical = sum(1 for f in findings if f.get("severity") == "critical")
    head = (f"**Contract review** — {r.get('clause_count', 0)} clauses read; {len(traps)} traps, "
            f"{len(missing)} missing protections ({critical} critical)" if lang == "en" else
            f"**合同审查** — 共读取 {r.get('clause_count', 0)} 条条款；发现 {len(traps)} 处陷阱、缺少 {len(missing)} 项保护"
            f"（其中 {critical} 项严重）")

    def line(f: dict[str, Any]) -> str:
        text = (f.get("text") or {}).get(lang) or f
        out = f"[{word(SEVERITY, f.get('severity', 'info'), lang)}] {text.get('title', '')}"
        quote = _quote(f, lang)
        if quote:
            out += f": {quote}"
        if text.get("recommendation"):
            out += " → " + text["recommendation"]
        return out

    parts = [head]
    if traps:
        parts.append(("**Traps in the text**" if lang == "en" else "**条款中的陷阱**") + "\n" + bullet([line(f) for f in traps]))
    if missing:
        parts.append(("**Protections to ask for**" if lang == "en" else "**需要补充的保护条款**") + "\n"
                     + bullet([line(f) for f in missing]))
    if not findings:
        parts.append("No trap from the checklist was found." if lang == "en" else "按检查清单没有发现陷阱条款。")
    if r.get("injection_detected"):
        parts.append("The document contains instructions addressed to an assistant; they were ignored." if lang == "en"
                     else "文档中含有针对助手的指令，已忽略。")
    return "\n\n".join(parts)


def usage(r: dict[str, Any], lang: str) -> str:
    """Utilization against the target, what the idle time cost, what reaching the target saves."""
    s = r.get("summary") or {}
    cur = r.get("currency") or s.get("currency") or "USD"
    head = "**Utilization and waste**" if lang == "en" else "**利用率与浪费分析**"
    headline = (r.get("headline") or {}).get(lang, "")
    lines = []
    if s.get("avg_utilization") is not None:
        lines.append(f"Average utilization {pct(s['avg_utilization'])} against a target of {pct(s['target_utilization'])}"
                     if lang == "en" else f"平均利用率 {pct(s['avg_utilization'])}，目标 {pct(s['target_utilization'])}")
    if s.get("total_cost") is not None and s.get("gpu_hours") is not None:
        lines.append(f"Paid {money(s['total_cost'], cur)} for {num(s['gpu_hours'])} GPU-hours" if lang == "en"
                     else f"共支付 {money(s['total_cost'], cur)}，{num(s['gpu_hours'])} GPU 时")
    if s.get("waste_cost") is not None:
        idle = f" ({num(s['idle_gpu_hours'])} GPU-hours)" if s.get("idle_gpu_hours") is not None and lang == "en" else (
            f"（{num(s['idle_gpu_hours'])} GPU 时）" if s.get("idle_gpu_hours") is not None else "")
        lines.append(f"Paid time without work: {money(s['waste_cost'], cur)}{idle}" if lang == "en"
                     else f"没有产出的计费时间：{money(s['waste_cost'], cur)}{idle}")
    if s.get("target_saving") and s.get("gpus_needed_at_target"):
        lines.append(f"At the target the same work needs about {s['gpus_needed_at_target']} GPUs, saving "
                     f"{money(s['target_saving'], cur)}" if lang == "en" else
                     f"达到目标利用率，同样的工作约需 {s['gpus_needed_at_target']} 张卡，可节省 {money(s['target_saving'], cur)}")
    parts = [head, headline, bullet(lines), findings_block(r.get("findings", []), lang, limit=5)]
    return "\n\n".join(p for p in parts if p)


def knowledge(r: dict[str, Any], lang: str) -> str:
    """The best guide sections, each with a snippet and where to read on."""
    hits = r.get("hits", [])
    if not hits:
        return ("I found nothing about that in the guides. Try other keywords, or `advisor learn` for the path."
                if lang == "en" else "指南里没有找到相关内容。换个关键词试试，或用 `advisor learn` 查看学习路径。")
    head = "**From the guides**" if lang == "en" else "**指南中的相关内容**"
    lines = [f"**{h['title']} › {h['section']}**: {h['snippet']} ({h['path']})" for h in hits[:3]]
    return f"{head}\n" + bullet(lines)


def onboarding(path_text: str, module: Any, lang: str) -> str:
    """The onboarding path and its first module's goals and checklist."""
    if module is None:
        return path_text
    goals = bullet(list(module.goals))
    checklist = "\n".join(f"- [ ] {c}" for c in module.checklist)
    if lang == "en":
        first = (f"**Start with module {module.number}: {module.title}** ({module.guide_path})\n{module.summary}\n\n"
                 f"Goals:\n{goals}\n\nChecklist:\n{checklist}\n\nOpen it with `advisor learn {module.id}`.")
    else:
        first = (f"**从第 {module.number} 个模块开始：{module.title}**（{module.guide_path}）\n{module.summary}\n\n"
                 f"学习目标：\n{goals}\n\n检查清单：\n{checklist}\n\n用 `advisor learn {module.id}` 打开。")
    return f"{path_text}\n\n{first}"


GREETING = {
    "en": "Hello! I estimate what GPU training and fine-tuning cost, recommend hardware and billing plans, review "
          "rental contracts, find idle GPUs, and teach cost practice. Try: \"LoRA fine-tune Llama-3-8B on 50k samples, "
          "how much?\"",
    "zh": "你好！我可以估算训练/微调的算力成本、推荐硬件和计费方式、审查算力租赁合同、分析GPU利用率，并带新团队学习降本方法。"
          "试试问：“用LoRA微调Llama-3-8B，5万条样本，要多少钱？”",
}
HELP = {
    "en": "What I can do:\n" + bullet([
        "estimate a training or fine-tuning run (cost with a range, GPU-hours, wall time, memory fit)",
        "recommend GPUs and counts for a workload",
        "compare billing modes: on-demand, monthly, yearly, spot, off-peak",
        "plan a whole project stage by stage",
        "review a GPU rental contract for traps",
        "analyze utilization or billing exports for waste",
        "teach cost practice (\"teach me\", `advisor learn`)",
    ]),
    "zh": "我能做的事：\n" + bullet([
        "估算一次训练或微调（费用区间、GPU 时、工期、显存是否够）",
        "为任务推荐 GPU 型号和卡数",
        "比较计费方式：按量、包月、包年、竞价、闲时",
        "按阶段规划整个项目的成本",
        "审查算力租赁合同里的陷阱",
        "分析利用率或账单导出，找出浪费",
        "讲解降本方法（“教我…”，`advisor learn`）",
    ]),
}


OUT_OF_SCOPE = {
    "en": "That is outside what I can price: I work on GPU compute costs — training, fine-tuning and serving runs, "
          "hardware, billing modes, quotes, rental contracts and GPU utilization. Ask me about one of those.",
    "zh": "这个问题不在我能计算的范围内：我只负责GPU算力成本——训练、微调和推理的费用、选卡、计费方式、报价、"
          "算力租赁合同和GPU利用率。可以问我这些方面的问题。",
}
_NEAREST = {
    "check_quote": {"en": "compare the quote with a full estimate, or list market prices with `advisor prices`",
                    "zh": "用完整估算对比这个报价，或用 `advisor prices` 查看市场价"},
    "compare_own_vs_rent": {"en": "price the rental side with a billing comparison (monthly, yearly, on-demand)",
                            "zh": "先用计费方式对比（包月、包年、按量）算出租用这一侧的费用"},
    "estimate_serving_cost": {"en": "compare billing modes for the cards running 24/7",
                              "zh": "对 7×24 运行的卡比较计费方式"},
}


def not_priced_yet(tool: str, lang: str) -> str:
    """One line: this tool is not installed, and the nearest thing the assistant can do."""
    job = {"check_quote": ("check a quote against the market", "核对报价与市场价"),
           "compare_own_vs_rent": ("compare owning with renting", "比较自购与租用"),
           "estimate_serving_cost": ("price serving", "计算推理服务成本")}.get(tool, (tool, tool))
    nearest = _NEAREST.get(tool, {}).get(lang, "")
    if lang == "en":
        return f"I cannot {job[0]} yet (that calculator is not installed); the nearest thing I can do: {nearest}."
    return f"我目前还不能{job[1]}（该计算工具尚未安装）；我能做的最接近的事：{nearest}。"
