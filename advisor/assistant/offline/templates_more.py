"""Templated explanations of the other reports (billing, plan, contract, usage, guides),
onboarding, greetings and refusals — in Chinese and English, figures from the reports only."""

from __future__ import annotations

from typing import Any

from advisor.assistant.offline.templates import (
    MODE_NAME,
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


def _summary(r: dict[str, Any], lang: str) -> str:
    s = r.get("summary")
    if isinstance(s, dict):
        return s.get(lang) or s.get("en") or ""
    return s if isinstance(s, str) else ""


def contract(r: dict[str, Any], lang: str) -> str:
    """The traps found, each with its quote, and the missing protections."""
    head = "**Contract review**" if lang == "en" else "**合同审查**"
    findings = r.get("findings", [])
    lines = []
    for f in findings[:8]:
        text = (f.get("text") or {}).get(lang) or f
        quote = (f.get("evidence") or {}).get("quote")
        where = (f.get("evidence") or {}).get("location")
        line = text.get("title", "")
        if quote:
            line += f": “{str(quote)[:160]}”" + (f" ({where})" if where and lang == "en" else (f"（{where}）" if where else ""))
        if text.get("recommendation"):
            line += (" → " + text["recommendation"])
        lines.append(line)
    if not findings:
        lines.append("No trap from the checklist was found." if lang == "en" else "按检查清单没有发现陷阱条款。")
    more = len(findings) - 8
    if more > 0:
        lines.append(f"{more} more in the findings list" if lang == "en" else f"另有 {more} 条见 findings 列表")
    return "\n\n".join(p for p in (head, _summary(r, lang), bullet(lines)) if p)


def usage(r: dict[str, Any], lang: str) -> str:
    """The waste found and what to change."""
    head = "**Utilization and waste**" if lang == "en" else "**利用率与浪费分析**"
    return "\n\n".join(p for p in (head, _summary(r, lang), findings_block(r.get("findings", []), lang, limit=5)) if p)


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
