"""``advisor serve | quote | own``: the decision commands of issue #12.

Each prints the report's view (advisor.present) like every cost command: the short form,
``--details`` for every table and assumption, ``--json`` for the report itself;
bad input exits 2 with one line on stderr, like every command.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import typer

from advisor.cli import args as A
from advisor.cli import render
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
    p.add_argument("--gpu", type=A.name("gpu"))
    p.add_argument("--gpus", dest="gpu_count", type=A.integer("gpus"))
    p.add_argument("--precision", type=str.lower, help="bf16 | fp16 | fp8 | int8 | int4")
    p.add_argument("--average-load", dest="average_load", type=A.number("average-load"))
    p.add_argument("--price", dest="price_per_gpu_hour", type=A.number("price", positive=False))
    p.add_argument("--currency")
    p.add_argument("--provider")
    p.add_argument("--market", type=str.lower, help="local | convert (default: the market of --lang)")
    A.add_output(p)
    return p


def _quote_parser() -> argparse.ArgumentParser:
    p = A.Parser(prog="advisor quote", description="Is this quoted price good? Normalised and compared with the market.",
                 epilog="examples: advisor quote --gpu h100 --price 2.10 --term-months 12 | "
                        "advisor quote --gpu h800 --price 90000 --unit node_month --currency CNY")
    p.add_argument("--gpu", required=True, type=A.name("gpu"))
    p.add_argument("--price", type=A.number("price", positive=False), required=True, help="the quoted amount")
    p.add_argument("--unit", type=str.lower, help="gpu_hour | gpu_month | node_hour | node_month | gpu_year (default gpu_hour)")
    p.add_argument("--gpus", dest="gpu_count", type=A.integer("gpus"), help="cards in the quoted unit (node: 8)")
    p.add_argument("--term-months", dest="term_months", type=A.number("term-months", positive=False))
    p.add_argument("--utilization", type=A.number("utilization", positive=False), help="share of paid hours used, 0-1")
    p.add_argument("--included-storage-gb", dest="included_storage_gb", type=A.number("included-storage-gb", positive=False))
    p.add_argument("--included-egress-gb", dest="included_egress_gb_per_month",
                   type=A.number("included-egress-gb", positive=False), help="egress GB a month in the price")
    p.add_argument("--currency")
    p.add_argument("--provider")
    A.add_output(p, prices=False)
    return p


def _own_parser() -> argparse.ArgumentParser:
    p = A.Parser(prog="advisor own", description="Buy the cards or rent them? Break-even utilisation and a hybrid plan.",
                 epilog="example: advisor own --gpu h100 --gpus 64 --utilization 0.7 --years 4 --base 64 --peak 256")
    p.add_argument("--gpu", required=True, type=A.name("gpu"))
    p.add_argument("--gpus", dest="gpu_count", type=A.integer("gpus"))
    p.add_argument("--utilization", type=A.number("utilization", positive=False), help="share of hours used, 0-1")
    p.add_argument("--years", type=A.number("years", positive=False))
    p.add_argument("--hosting", type=str.lower, help="colocation | on_premises")
    p.add_argument("--purchase-price", dest="purchase_price", type=A.number("purchase-price", positive=False))
    p.add_argument("--electricity-price", dest="electricity_price", type=A.number("electricity-price", positive=False))
    p.add_argument("--pue", type=A.number("pue", positive=False))
    p.add_argument("--staff-per-gpu-year", dest="staff_per_gpu_year", type=A.number("staff-per-gpu-year", positive=False))
    p.add_argument("--profile", dest="demand_profile", type=_list("profile"), help="GPUs needed per month: 64,64,256")
    p.add_argument("--base", dest="base_gpus", type=A.number("base", positive=False), help="steady base demand")
    p.add_argument("--peak", dest="peak_gpus", type=A.number("peak", positive=False), help="peak demand")
    p.add_argument("--peak-months", dest="peak_months", type=A.integer("peak-months"), help="peak months a year (3)")
    p.add_argument("--price", dest="price_per_gpu_hour", type=A.number("price", positive=False),
                   help="your on-demand rental price per GPU-hour")
    p.add_argument("--currency")
    p.add_argument("--provider")
    p.add_argument("--market", type=str.lower, help="local | convert (default: the market of --lang)")
    A.add_output(p)
    return p


COMMANDS: dict[str, tuple[Callable[[], argparse.ArgumentParser], str, str]] = {
    "serve": (_serve_parser, "estimate_serving_cost", "GPUs and monthly cost to serve a daily token volume. (--help for flags)"),
    "quote": (_quote_parser, "check_quote", "Is this quoted price good? Normalised per GPU-hour and compared with the market."),
    "own": (_own_parser, "compare_own_vs_rent", "Buy the cards or rent them? Break-even utilisation and an own-the-base plan."),
}


def _run(ctx: typer.Context, name: str) -> None:
    parser, tool, _ = COMMANDS[name]
    p = parser()
    if any(a in ("-h", "--help") for a in ctx.args):
        p.print_help()
        return
    ns = p.parse_args(ctx.args)
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor import tools

    report = getattr(tools, tool)(**A.to_request(ns))
    if ns.json:
        emit_json(report)
    else:
        render.show(tool, report, details=ns.details)


def register(app: typer.Typer) -> None:
    for name, (_, _, help_text) in COMMANDS.items():
        def command(ctx: typer.Context, _name: str = name) -> None:
            _run(ctx, _name)

        app.command(name, context_settings=_PASS, add_help_option=False, help=help_text)(command)
