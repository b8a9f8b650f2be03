"""``advisor usage FILE... | --gpus N --avg-util U --price P``: utilization and waste analysis.

With files: nvidia-smi --query-gpu CSV logs, GPU-exporter Prometheus text, FOCUS billing
exports (CSV/Parquet), an inventory CSV. Without files: the summary arithmetic. Progress for
many or long files is a rich bar on stderr when it is a terminal, and nothing otherwise, so
``--json`` keeps stdout to one JSON document.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from advisor.cli.common import emit_json
from advisor.errors import InputError
from advisor.numeric import parse_fraction, parse_number

HELP = (
    "Where are rented GPUs wasted? Analyse nvidia-smi --query-gpu CSV logs, Prometheus text from "
    "nvidia_gpu_exporter or DCGM exporter, FOCUS 1.0-1.2 billing exports (CSV/Parquet) and an "
    "inventory CSV (resource, gpu_type, gpu_count, price_per_hour, currency, team, project, start, "
    "end, project_end) — or, without files, a summary: --gpus N --avg-util 45% --price 2.5. "
    "利用率与浪费分析。"
)


def _fraction(text: str | None) -> float | None:
    """``"45%"``, ``"45"`` or ``"0.45"`` -> 0.45; ``150%`` and ``100.5`` are errors (advisor.numeric)."""
    return None if text is None else parse_fraction(text, "avg-util")


def _number(name: str, text: str | None) -> float | None:
    return None if text is None else parse_number(text, name, suffixes=False)


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
        details: Annotated[bool, typer.Option("--details", help="every table, finding and assumption")] = False,
        engine: Annotated[str | None, typer.Option("--engine", help="duckdb (embedded, default) or spark; default: ADVISOR_USAGE_ENGINE / SQL 引擎：duckdb（默认）或 spark", show_default=False)] = None,
    ) -> None:
        # lazy: cold start of the CLI (each command loads only what it runs)
        from advisor.cli.progress import tty_progress
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
        with tty_progress("usage analysis / 用量分析") as sink:
            report = analyze_usage(progress=sink, engine=engine, **{k: v for k, v in args.items() if v is not None})
        if json_out:
            emit_json(report)
        else:
            # lazy: cold start of the CLI (each command loads only what it runs)
            from advisor.cli.render import show

            show("analyze_usage", report, details, lang)


def _gpu_count(text: str | None) -> int | None:
    if text is None:
        return None
    value = parse_number(text, "gpus", quantity="gpu_count", accepted="a whole number of GPUs")
    if value != int(value):
        raise InputError("gpus", text, "a whole number of GPUs")
    return int(value)

