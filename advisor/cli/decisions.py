"""``advisor serve | quote | own``: the decision commands of issue #12.

Each prints the report's figures as ``label: value`` lines (``--json``: the report itself);
bad input exits 2 with one line on stderr, like every command.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import typer

from advisor.cli import args as A
from advisor.cli.common import emit_json

_PASS = {"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []}


def _list(field: str) -> Callable[[str], list[float]]:
    def parse(text: str) -> list[float]:
        try:
            values = [float(x) for x in text.replace("，", ",").split(",") if x.strip()]
        except ValueError:
            raise A.InputError(field, text, "comma-separated numbers, e.g. 64,64,256") from None
        if not values or any(v < 0 for v in values):
            raise A.InputError(field, text, "comma-separated non-negative numbers, e.g. 64,64,256")
        return values

    parse.__name__ = field
    return parse


def _serve_parser() -> argparse.ArgumentParser:
    p = A.Parser(prog="advisor serve", description="GPUs and monthly cost to serve a daily token volume.",
                 epilog="example: advisor serve --model llama-3.1-70b --tokens-per-day 100M --gpu h100")
    p.add_argument("--model")
    p.add_argument("--params", dest="params_b", type=A.size("params"))
    p.add_argument("--tokens-per-day", dest="tokens_per_day", type=A.size("tokens-per-day", False),
                   help="generated tokens per day: 100M, 1亿")
    p.add_argument("--requests-per-day", dest="requests_per_day", type=A.size("requests-per-day", False))
    p.add_argument("--prompt-tokens", dest="prompt_tokens", type=A.size("prompt-tokens", False))
    p.add_argument("--output-tokens", dest="output_tokens", type=A.size("output-tokens", False))
    p.add_argument("--tpot-ms", dest="tpot_ms", type=A.number("tpot-ms"), help="latency target, ms per output token")
    p.add_argument("--tokens-per-second-per-user", dest="tokens_per_second_per_user",
                   type=A.number("tokens-per-second-per-user"))
    p.add_argument("--gpu")
    p.add_argument("--gpus", dest="gpu_count", type=A.integer("gpus"))
    p.add_argument("--precision", type=str.lower, help="bf16 | fp16 | fp8 | int8 | int4")
    p.add_argument("--average-load", dest="average_load", type=A.number("average-load"))
    p.add_argument("--price", dest="price_per_gpu_hour", type=A.number("price", positive=False))
    p.add_argument("--currency")
    p.add_argument("--provider")
    A.add_output(p)
    return p


def _money(v: float, cur: str) -> str:
    from advisor.money import format_money

    return format_money(v, cur)


def _print_lines(r: Any, rows: list[tuple[str, str, str]]) -> None:
    lang = (r.inputs or {}).get("lang", "en")
    from rich.console import Console

    console = Console()
    console.print(r.summary.get(lang, r.summary.get("en", "")))
    for en, zh, value in rows:
        console.print(f"  {zh if lang == 'zh' else en}: {value}")
    from advisor.cli import render

    render.findings(console, r.findings, lang)


def _render_serve(r: Any) -> None:
    c = r.currency
    rows = [
        ("GPUs", "卡数", f"{r.gpu_count} × {r.gpu} ({r.replicas} × {r.gpus_per_replica}, batch {r.batch_per_replica})"),
        ("Output tokens/s per GPU", "每卡每秒输出 token", f"{r.tokens_per_second_per_gpu:,.0f}"),
        ("Peak load / capacity", "峰值负载 / 能力", f"{r.load_share:.0%}"),
        ("GPU-hours per day / month", "每天 / 每月 GPU 时", f"{r.gpu_hours_per_day:,.0f} / {r.gpu_hours_per_month:,.0f}"),
        ("Cost per day / month", "每天 / 每月费用", f"{_money(r.daily_cost, c)} / {_money(r.monthly_cost, c)} ({r.billing})"),
        ("Cost per million tokens", "每百万 token 费用", _money(r.cost_per_million_tokens, c)),
    ]
    if r.fractional:
        rows.append(("Slice", "分片", f"{r.fractional['slice']:.0%} of a card, {_money(r.fractional['monthly_cost'], c)} a month"))
    _print_lines(r, rows)


COMMANDS: dict[str, tuple[Callable[[], argparse.ArgumentParser], str, Callable[[Any], None], str]] = {
    "serve": (_serve_parser, "estimate_serving_cost", _render_serve,
              "GPUs and monthly cost to serve a daily token volume. (--help for flags)"),
}


def _run(ctx: typer.Context, name: str) -> None:
    parser, tool, render, _ = COMMANDS[name]
    p = parser()
    if any(a in ("-h", "--help") for a in ctx.args):
        p.print_help()
        return
    ns = p.parse_args(ctx.args)
    from advisor import tools

    report = getattr(tools, tool)(**A.to_request(ns))
    if ns.json:
        emit_json(report)
    else:
        render(report)


def register(app: typer.Typer) -> None:
    for name, (_, _, _, help_text) in COMMANDS.items():
        def command(ctx: typer.Context, _name: str = name) -> None:
            _run(ctx, _name)

        app.command(name, context_settings=_PASS, add_help_option=False, help=help_text)(command)
