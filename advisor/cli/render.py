"""Human-readable tables for the cost reports (rich). The JSON form is the report itself."""

from __future__ import annotations

from typing import Any

from advisor.money import format_money

_NUMERIC = {"Quantity", "Unit price", "Amount", "Total", "Share", "GPU-hours", "Wall hours", "Count"}


def _console():  # type: ignore[no-untyped-def]
    from rich.console import Console

    return Console()


def _table(title: str, *columns: str):  # type: ignore[no-untyped-def]
    from rich.table import Table

    t = Table(title=title, title_justify="left", show_lines=False)
    for c in columns:
        t.add_column(c, justify="right" if c in _NUMERIC else "left")
    return t


def findings(console: Any, items: list[Any]) -> None:
    if not items:
        return
    colour = {"critical": "red", "warning": "yellow", "info": "cyan"}
    console.print("\n[bold]Findings[/bold]")
    for f in items:
        saving = f" — saves {format_money(f.savings.amount, f.savings.currency)}" if f.savings else ""
        console.print(f"[{colour[f.severity]}]{f.severity.upper():8}[/] {f.title}{saving}  [dim]({f.rule_id})[/dim]")
        console.print(f"         {f.recommendation}", highlight=False)


def assumptions(console: Any, items: list[Any]) -> None:
    t = _table("Assumptions", "Name", "Value", "Source")
    for a in items:
        value = a.value if not isinstance(a.value, dict | list) else "(table)"
        t.add_row(a.name, f"{value}" + (f" {a.unit}" if a.unit and not isinstance(a.value, dict | list) else ""),
                  a.source)
    console.print(t)


def estimate(r: Any) -> None:
    c = _console()
    c.print(f"[bold]{r.summary['en']}[/bold]")
    cur = r.cost.currency
    t = _table(f"Cost ({cur})", "Component", "Quantity", "Unit", "Unit price", "Amount")
    for comp in r.cost.components:
        t.add_row(comp.name, f"{comp.quantity:,.1f}", comp.unit, format_money(comp.unit_price, cur, 4 if comp.unit_price < 1 else 2),
                  format_money(comp.amount, cur))
    t.add_row("[bold]Total[/bold]", "", "", "", f"[bold]{format_money(r.cost.total, cur)}[/bold]")
    c.print(t)
    c.print(f"Range {format_money(r.cost.low, cur)} – {format_money(r.cost.high, cur)}; GPU-hours "
            f"{r.gpu_hours.low:,.0f} / {r.gpu_hours.expected:,.0f} / {r.gpu_hours.high:,.0f}; wall "
            f"{r.wall_hours.expected:,.1f} h; MFU {r.mfu.expected:.2f}")
    m = r.memory
    c.print(f"Memory per GPU {m.per_gpu_gb:.1f} GB of {m.gpu_memory_gb:g} GB (weights {m.weights_gb:.1f}, gradients "
            f"{m.gradients_gb:.1f}, optimizer {m.optimizer_gb:.1f}, activations {m.activations_gb:.1f}, overhead "
            f"{m.overhead_gb:.1f}) — {'fits' if m.fits else 'DOES NOT FIT'}; layout TP {m.layout.tensor_parallel} × "
            f"DP {m.layout.data_parallel}, ZeRO-{m.layout.zero_stage}, recompute {'on' if m.layout.gradient_checkpointing else 'off'}")
    billing(r, console=c, heading=False)
    for note in r.notes:
        c.print(f"[yellow]{note['en']}[/yellow]")
    findings(c, r.findings)
    assumptions(c, r.assumptions)


def billing(r: Any, console: Any = None, heading: bool = True) -> None:
    c = console or _console()
    if heading and getattr(r, "summary", None):
        c.print(f"[bold]{r.summary['en']}[/bold]")
    cur = getattr(r, "currency", None) or r.cost.currency
    options = r.options if hasattr(r, "options") else r.billing
    t = _table("Billing modes", "Mode", "Total", "Unit price", "Wall hours", "Note")
    for o in options:
        mark = " ★" if o.recommended else (" (cheapest)" if o.cheapest else "")
        style = "" if o.available else "[dim]"
        t.add_row(f"{style}{o.mode}{mark}", format_money(o.total, cur), format_money(o.unit_price, cur, 2),
                  f"{o.wall_hours:,.1f}", o.note)
    c.print(t)
    if heading:
        b = r.break_even
        c.print(f"Break-even: monthly above {b.monthly_hours_per_month:.0f} h/month; yearly above "
                f"{b.yearly_hours_per_year:.0f} h/year ({b.yearly_months:.1f} months of monthly billing).")
        findings(c, r.findings)
        assumptions(c, r.assumptions)


def recommend(r: Any) -> None:
    c = _console()
    c.print(f"[bold]{r.summary['en']}[/bold]")
    t = _table("Options (cheapest first)", "GPU", "Count", "Precision", "Billing", "Total", "Wall hours", "Memory/GPU")
    for o in r.options:
        t.add_row(o.gpu, str(o.gpu_count), o.precision, o.billing, format_money(o.total, o.currency),
                  f"{o.wall_hours:,.1f}", f"{o.per_gpu_gb:.1f}/{o.gpu_memory_gb:g} GB")
    c.print(t)
    if r.pareto:
        c.print("Cost-vs-time front: " + "; ".join(
            f"{o.gpu_count}× {o.gpu} {format_money(o.total, o.currency)} in {o.wall_hours:,.0f} h" for o in r.pareto[:6]))
    findings(c, r.findings)
    assumptions(c, r.assumptions)


def plan(r: Any) -> None:
    c = _console()
    c.print(f"[bold]{r.summary['en']}[/bold]")
    t = _table(f"Stages ({r.currency})", "Stage", "GPU", "GPU-hours", "Wall hours", "Billing", "Total", "Share")
    for s in r.stages:
        t.add_row(s.stage, f"{s.gpu_count}× {s.gpu}", f"{s.gpu_hours:,.0f}", f"{s.wall_hours:,.0f}", s.billing,
                  format_money(s.cost, r.currency), f"{s.share:.0%}")
    c.print(t)
    findings(c, r.findings)
    assumptions(c, r.assumptions)
