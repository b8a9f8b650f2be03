"""Human-readable tables for the cost reports (rich), in the report's language (``--lang``).
The JSON form (``--json``) is the report itself."""

from __future__ import annotations

from typing import Any

from advisor.engine.billing import MODE_ZH
from advisor.money import format_money

_LABELS: dict[str, tuple[str, str]] = {
    "findings": ("Findings", "发现与建议"),
    "assumptions": ("Assumptions", "假设与来源"),
    "name": ("Name", "名称"),
    "value": ("Value", "取值"),
    "source": ("Source", "来源"),
    "cost": ("Cost", "费用"),
    "component": ("Component", "费用项"),
    "quantity": ("Quantity", "数量"),
    "unit": ("Unit", "单位"),
    "unit_price": ("Unit price", "单价"),
    "amount": ("Amount", "金额"),
    "total": ("Total", "合计"),
    "billing": ("Billing modes", "计费方式对比"),
    "mode": ("Mode", "方式"),
    "wall": ("Wall hours", "墙钟小时"),
    "note": ("Note", "说明"),
    "options": ("Options (cheapest first)", "可选方案（按费用排序）"),
    "gpu": ("GPU", "GPU"),
    "count": ("Count", "卡数"),
    "precision": ("Precision", "精度"),
    "memory": ("Memory/GPU", "每卡显存"),
    "stages": ("Stages", "阶段"),
    "stage": ("Stage", "阶段"),
    "gpu_hours": ("GPU-hours", "GPU 时"),
    "share": ("Share", "占比"),
    "saves": ("saves", "可节省"),
    "cheapest": ("cheapest", "最便宜"),
}
_NUMERIC = {"quantity", "unit_price", "amount", "total", "share", "gpu_hours", "wall", "count"}


def _t(key: str, lang: str) -> str:
    en, zh = _LABELS[key]
    return zh if lang == "zh" else en


def _lang(r: Any) -> str:
    return "zh" if (getattr(r, "inputs", None) or {}).get("lang") == "zh" else "en"


def _console():  # type: ignore[no-untyped-def]
    from rich.console import Console

    return Console()


def _table(title: str, lang: str, *columns: str):  # type: ignore[no-untyped-def]
    from rich.table import Table

    t = Table(title=title, title_justify="left", show_lines=False)
    for c in columns:
        t.add_column(_t(c, lang), justify="right" if c in _NUMERIC else "left")
    return t


def findings(console: Any, items: list[Any], lang: str) -> None:
    if not items:
        return
    colour = {"critical": "red", "warning": "yellow", "info": "cyan"}
    console.print(f"\n[bold]{_t('findings', lang)}[/bold]")
    for f in items:
        text = f.text[lang]
        saving = f" — {_t('saves', lang)} {format_money(f.savings.amount, f.savings.currency)}" if f.savings else ""
        console.print(f"[{colour[f.severity]}]{f.severity.upper():8}[/] {text.title}{saving}  [dim]({f.rule_id})[/dim]")
        console.print(f"         {text.recommendation}", highlight=False)


def assumptions(console: Any, items: list[Any], lang: str) -> None:
    t = _table(_t("assumptions", lang), lang, "name", "value", "source")
    for a in items:
        table = isinstance(a.value, dict | list)
        value = "(table)" if table else f"{a.value}" + (f" {a.unit}" if a.unit else "")
        t.add_row(a.name, value, a.source)
    console.print(t)


def estimate(r: Any) -> None:
    lang = _lang(r)
    c = _console()
    c.print(f"[bold]{r.summary[lang]}[/bold]")
    cur = r.cost.currency
    t = _table(f"{_t('cost', lang)} ({cur})", lang, "component", "quantity", "unit", "unit_price", "amount")
    for comp in r.cost.components:
        t.add_row(comp.name_zh if lang == "zh" else comp.name, f"{comp.quantity:,.1f}", comp.unit,
                  format_money(comp.unit_price, cur, 4 if comp.unit_price < 1 else 2), format_money(comp.amount, cur))
    t.add_row(f"[bold]{_t('total', lang)}[/bold]", "", "", "", f"[bold]{format_money(r.cost.total, cur)}[/bold]")
    c.print(t)
    m = r.memory
    if lang == "zh":
        c.print(f"区间 {format_money(r.cost.low, cur)} – {format_money(r.cost.high, cur)}；GPU 时 "
                f"{r.gpu_hours.low:,.0f} / {r.gpu_hours.expected:,.0f} / {r.gpu_hours.high:,.0f}；墙钟 "
                f"{r.wall_hours.expected:,.1f} 小时；MFU {r.mfu.expected:.2f}")
        c.print(f"每卡显存 {m.per_gpu_gb:.1f} GB / {m.gpu_memory_gb:g} GB（权重 {m.weights_gb:.1f}，梯度 {m.gradients_gb:.1f}，"
                f"优化器 {m.optimizer_gb:.1f}，激活 {m.activations_gb:.1f}，其他 {m.overhead_gb:.1f}）— "
                f"{'放得下' if m.fits else '放不下'}；并行 TP {m.layout.tensor_parallel} × DP {m.layout.data_parallel}，"
                f"ZeRO-{m.layout.zero_stage}，重计算{'开' if m.layout.gradient_checkpointing else '关'}")
    else:
        c.print(f"Range {format_money(r.cost.low, cur)} – {format_money(r.cost.high, cur)}; GPU-hours "
                f"{r.gpu_hours.low:,.0f} / {r.gpu_hours.expected:,.0f} / {r.gpu_hours.high:,.0f}; wall "
                f"{r.wall_hours.expected:,.1f} h; MFU {r.mfu.expected:.2f}")
        c.print(f"Memory per GPU {m.per_gpu_gb:.1f} GB of {m.gpu_memory_gb:g} GB (weights {m.weights_gb:.1f}, gradients "
                f"{m.gradients_gb:.1f}, optimizer {m.optimizer_gb:.1f}, activations {m.activations_gb:.1f}, overhead "
                f"{m.overhead_gb:.1f}) — {'fits' if m.fits else 'DOES NOT FIT'}; layout TP {m.layout.tensor_parallel} × "
                f"DP {m.layout.data_parallel}, ZeRO-{m.layout.zero_stage}, recompute "
                f"{'on' if m.layout.gradient_checkpointing else 'off'}")
    billing(r, console=c, heading=False)
    for note in r.notes:
        c.print(f"[yellow]{note[lang]}[/yellow]")
    findings(c, r.findings, lang)
    assumptions(c, r.assumptions, lang)


def billing(r: Any, console: Any = None, heading: bool = True) -> None:
    lang = _lang(r)
    c = console or _console()
    if heading and getattr(r, "summary", None):
        c.print(f"[bold]{r.summary[lang]}[/bold]")
    cur = getattr(r, "currency", None) or r.cost.currency
    options = r.options if hasattr(r, "options") else r.billing
    t = _table(_t("billing", lang), lang, "mode", "total", "unit_price", "wall", "note")
    for o in options:
        mark = " ★" if o.recommended else (f" ({_t('cheapest', lang)})" if o.cheapest else "")
        style = "" if o.available else "[dim]"
        mode = MODE_ZH[o.mode] if lang == "zh" else o.mode
        t.add_row(f"{style}{mode}{mark}", format_money(o.total, cur), format_money(o.unit_price, cur, 2),
                  f"{o.wall_hours:,.1f}", o.note_zh if lang == "zh" else o.note)
    c.print(t)
    rows = getattr(r, "increments", None) or []
    if heading and rows:
        worked = f"{r.worked_gpu_hours:,.1f}"
        c.print(("计费步长（按量）：实际使用 " if lang == "zh" else "Billing increment (on-demand), worked GPU-hours ")
                + worked + ("：" if lang == "zh" else ": ")
                + "; ".join(f"{x.increment} {format_money(x.total, cur)} (+{x.overpay_gpu_hours:,.1f} GPU-h, "
                            f"+{format_money(x.overpay, cur)})" for x in rows))
    if heading:
        b = r.break_even
        if lang == "zh":
            c.print(f"盈亏平衡：每月使用超过 {b.monthly_hours_per_month:.0f} 小时包月更划算；每年超过 "
                    f"{b.yearly_hours_per_year:.0f} 小时包年更划算（约等于包月 {b.yearly_months:.1f} 个月）。")
        else:
            c.print(f"Break-even: monthly above {b.monthly_hours_per_month:.0f} h/month; yearly above "
                    f"{b.yearly_hours_per_year:.0f} h/year ({b.yearly_months:.1f} months of monthly billing).")
        findings(c, r.findings, lang)
        assumptions(c, r.assumptions, lang)


def recommend(r: Any) -> None:
    lang = _lang(r)
    c = _console()
    c.print(f"[bold]{r.summary[lang]}[/bold]")
    t = _table(_t("options", lang), lang, "gpu", "count", "precision", "mode", "total", "wall", "memory")
    for o in r.options:
        mode = MODE_ZH.get(o.billing, o.billing) if lang == "zh" else o.billing
        t.add_row(o.gpu, str(o.gpu_count), o.precision, mode, format_money(o.total, o.currency),
                  f"{o.wall_hours:,.1f}", f"{o.per_gpu_gb:.1f}/{o.gpu_memory_gb:g} GB")
    c.print(t)
    if r.pareto:
        head = "费用-时间最优前沿" if lang == "zh" else "Cost-vs-time front"
        unit = "小时" if lang == "zh" else "h"
        c.print(f"{head}: " + "; ".join(
            f"{o.gpu_count}× {o.gpu} {format_money(o.total, o.currency)} / {o.wall_hours:,.0f} {unit}"
            for o in r.pareto[:6]))
    findings(c, r.findings, lang)
    assumptions(c, r.assumptions, lang)


def plan(r: Any) -> None:
    lang = _lang(r)
    c = _console()
    c.print(f"[bold]{r.summary[lang]}[/bold]")
    t = _table(f"{_t('stages', lang)} ({r.currency})", lang, "stage", "gpu", "gpu_hours", "wall", "mode", "total",
               "share")
    for s in r.stages:
        mode = MODE_ZH.get(s.billing, s.billing) if lang == "zh" else s.billing
        t.add_row(s.stage_zh if lang == "zh" else s.stage, f"{s.gpu_count}× {s.gpu}", f"{s.gpu_hours:,.0f}",
                  f"{s.wall_hours:,.0f}", mode, format_money(s.cost, r.currency), f"{s.share:.0%}")
    c.print(t)
    findings(c, r.findings, lang)
    assumptions(c, r.assumptions, lang)
