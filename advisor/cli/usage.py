"""``advisor usage FILE... | --gpus N --avg-util U --price P``: utilization and waste analysis.

With files: nvidia-smi --query-gpu CSV logs, GPU-exporter Prometheus text, FOCUS billing
exports (CSV/Parquet), an inventory CSV. Without files: the summary arithmetic. Progress for
long files goes to stderr, so ``--json`` keeps stdout to one JSON document.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from advisor.cli.common import emit_json
from advisor.errors import InputError

HELP = (
    "Where are rented GPUs wasted? Analyse nvidia-smi --query-gpu CSV logs, Prometheus text from "
    "nvidia_gpu_exporter or DCGM exporter, FOCUS 1.0-1.2 billing exports (CSV/Parquet) and an "
    "inventory CSV (resource, gpu_type, gpu_count, price_per_hour, currency, team, project, start, "
    "end, project_end) — or, without files, a summary: --gpus N --avg-util 45% --price 2.5. "
    "利用率与浪费分析。"
)


def _fraction(text: str | None) -> float | None:
    """``"45%"``, ``"45"`` or ``"0.45"`` -> 0.45 (numbers above 1 are percent)."""
    if text is None:
        return None
    s = text.strip().rstrip("%").strip()
    try:
        value = float(s)
    except ValueError as exc:
        raise InputError("avg-util", text, "a fraction 0-1 or a percent, e.g. 0.45 or 45%") from exc
    return value / 100.0 if text.strip().endswith("%") or value > 1 else value


def _number(name: str, text: str | None) -> float | None:
    if text is None:
        return None
    try:
        return float(text)
    except ValueError as exc:
        raise InputError(name, text, "a number") from exc


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def register(app: typer.Typer) -> None:
    @app.command("usage", help=HELP)
    def usage_cmd(
        files: Annotated[list[str] | None, typer.Argument(help="telemetry, billing or inventory files", show_default=False)] = None,
        json_out: Annotated[bool, typer.Option("--json", help="print the report as one JSON document")] = False,
        price: Annotated[str | None, typer.Option("--price", help="price per GPU-hour (summary mode, or telemetry without a catalog price)")] = None,
        currency: Annotated[str | None, typer.Option("--currency", help="USD or CNY")] = None,
        gpus: Annotated[str | None, typer.Option("--gpus", help="summary mode: number of GPUs")] = None,
        gpu: Annotated[str | None, typer.Option("--gpu", help="summary mode: GPU type, to price the hours from the catalog")] = None,
        avg_util: Annotated[str | None, typer.Option("--avg-util", help="summary mode: average utilization, 0.45 or 45%")] = None,
        period_hours: Annotated[str | None, typer.Option("--period-hours", help="summary mode: period in hours (default 730)")] = None,
        billing_mode: Annotated[str, typer.Option("--billing-mode", help="on_demand, committed or spot")] = "on_demand",
        as_of: Annotated[str | None, typer.Option("--as-of", help="inventory: bill open rentals up to this date")] = None,
        lang: Annotated[str, typer.Option("--lang", help="en or zh")] = "en",
    ) -> None:
        from advisor.tools.usage import analyze_usage

        args: dict[str, Any] = {
            "files": list(files) if files else None,
            "price_per_gpu_hour": _number("price", price),
            "currency": currency,
            "gpu_count": _gpu_count(gpus),
            "gpu": gpu,
            "avg_utilization": _fraction(avg_util),
            "period_hours": _number("period-hours", period_hours),
            "billing_mode": billing_mode,
            "as_of": as_of,
            "lang": lang,
        }
        report = analyze_usage(progress=_progress, **{k: v for k, v in args.items() if v is not None})
        if json_out:
            emit_json(report)
        else:
            render(report, lang)


def _gpu_count(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError as exc:
        raise InputError("gpus", text, "a whole number of GPUs") from exc
    if value != int(value):
        raise InputError("gpus", text, "a whole number of GPUs")
    return int(value)


# --- human-readable output ------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x:.0%}"


def _money(x: float | None, currency: str | None) -> str:
    from advisor.money import format_money

    return "—" if x is None or not currency else format_money(x, currency)


def _table(title: str, *columns: str):  # type: ignore[no-untyped-def]
    from rich.table import Table

    t = Table(title=title, title_justify="left")
    for i, c in enumerate(columns):
        t.add_column(c, justify="left" if i == 0 else "right")
    return t


def render(r: Any, lang: str = "en") -> None:
    """The report as tables: summary, worst GPUs, idle stretches, billing, chargeback, findings."""
    from rich.console import Console

    from advisor.cli.render import assumptions, findings

    c = Console()
    if r.headline:
        c.print(f"[bold]{r.headline.get(lang) or r.headline.get('en')}[/bold]")
    for f in r.inputs.files:
        skipped = ", ".join(f"{n} {k}" for k, n in f.rows_skipped.items())
        c.print(f"[dim]{f.path}: {f.format}, {f.rows_read:,} rows read, {f.rows_used:,} used"
                + (f", skipped: {skipped}" if skipped else "") + "[/dim]", highlight=False)
    s, cur = r.summary, r.currency
    if s.gpu_count is not None:
        t = _table("Summary", "GPUs", "Avg util", "GPU-hours", "Idle GPU-h", "Cost", "Waste", "Save at target")
        t.add_row(str(s.gpu_count), _pct(s.avg_utilization), f"{s.gpu_hours or 0:,.0f}", f"{s.idle_gpu_hours or 0:,.0f}",
                  _money(s.total_cost, cur), _money(s.waste_cost, cur), _money(s.target_saving, cur))
        c.print(t)
    if r.telemetry is not None:
        gpus = sorted(r.telemetry.gpus, key=lambda g: (g.avg_utilization, g.instance, g.id))[:10]
        t = _table("Least used GPUs", "GPU", "Model", "Avg", "Median", "<70 %", "Idle h", "Forgotten")
        for g in gpus:
            t.add_row(f"{g.instance}/{g.id}", g.model or "—", _pct(g.avg_utilization), _pct(g.median_utilization),
                      _pct(g.share_below_low_use), f"{g.idle_hours:,.1f}", "yes" if g.forgotten else "")
        c.print(t)
        if r.telemetry.idle_stretches:
            t = _table("Longest idle stretches", "GPU", "Start", "End", "Hours", "Cost")
            for x in r.telemetry.idle_stretches[:5]:
                t.add_row(f"{x.instance}/{x.gpu_id}", x.start, x.end + (" (open)" if x.open else ""),
                          f"{x.hours:,.1f}", _money(x.cost, cur))
            c.print(t)
    if r.billing is not None:
        b = r.billing
        c.print(f"\n[bold]Billing[/bold]: {b.rows:,} rows, billed {_money(b.total_billed_cost, b.currency)}, "
                f"effective {_money(b.total_effective_cost, b.currency)}, unused commitments "
                f"{_money(b.unused_commitment_cost, b.currency)}", highlight=False)
        for title, head, lines in (("By service", ("Service", "Category"), b.by_service),
                                   ("By team / project (Tags)", ("Team", "Project"), b.by_team)):
            t = _table(title, *head, "Rows", "Billed", "Effective")
            for line in lines[:8]:
                t.add_row(line.name, line.category or line.detail or "", f"{line.rows:,}",
                          _money(line.billed_cost, line.currency), _money(line.effective_cost, line.currency))
            c.print(t)
    if r.inventory is not None:
        t = _table("Chargeback", "Team", "Project", "Resources", "GPU-hours", "Cost")
        for line in r.inventory.chargeback:
            t.add_row(line.team, line.project, str(line.resources), f"{line.gpu_hours:,.0f}", _money(line.cost, line.currency))
        c.print(t)
    findings(c, r.findings, lang)
    for note in r.notes:
        c.print(f"[dim]note: {note}[/dim]", highlight=False)
    assumptions(c, r.assumptions, lang)
