"""``advisor estimate | recommend | billing | plan``: the cost commands."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import typer

from advisor.cli import args as A
from advisor.cli import render
from advisor.cli.common import emit_json

_PASS = {"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []}


def _add_shape(p: argparse.ArgumentParser) -> None:
    """The model's shape and memory options, for models the catalog does not know."""
    g = p.add_argument_group("model shape (for a model not in the catalog; config.json names)")
    g.add_argument("--family", dest="model_family", type=str.lower,
                   help="model family for the vocabulary: llama, qwen, mistral, gemma, glm, deepseek...")
    g.add_argument("--layers", type=A.integer("layers"), help="num_hidden_layers")
    g.add_argument("--hidden", dest="hidden_size", type=A.integer("hidden"), help="hidden_size")
    g.add_argument("--heads", type=A.integer("heads"), help="num_attention_heads")
    g.add_argument("--kv-heads", dest="kv_heads", type=A.integer("kv-heads"), help="num_key_value_heads")
    g.add_argument("--vocab", dest="vocab_size", type=A.integer("vocab"), help="vocab_size (Qwen ~152k)")
    g.add_argument("--ffn", dest="intermediate_size", type=A.integer("ffn"), help="intermediate_size (MLP width)")
    g.add_argument("--tied-embeddings", dest="tied_embeddings", action=argparse.BooleanOptionalAction, default=None,
                   help="input embedding and LM head share one matrix")
    g.add_argument("--software-era", dest="software_era",
                   help="year of the training stack, e.g. 2022 (default: today's stack)")
    m = p.add_argument_group("memory options")
    m.add_argument("--train-embeddings", dest="train_embeddings", action="store_true", default=None,
                   help="LoRA/QLoRA: also train embeddings and LM head")
    m.add_argument("--activation-offload", dest="activation_offload", action="store_true", default=None,
                   help="keep checkpointed activations in CPU memory")
    m.add_argument("--variable-length", dest="variable_length", action="store_true", default=None,
                   help="batches of varying length (unpacked data): more activation memory reserved")
    m.add_argument("--zero-offload", dest="zero_offload", action="store_true", default=None,
                   help="DeepSpeed ZeRO-Offload: optimizer states and master weights in CPU memory")


def _estimate_parser() -> argparse.ArgumentParser:
    p = A.Parser(prog="advisor estimate", description="What should this training or fine-tuning run cost?",
                 epilog="example: advisor estimate --model llama-3.1-8b --method lora --samples 50k "
                        "--tokens-per-sample 800 --gpu a100 --gpus 8 --currency CNY")
    A.add_workload(p)
    _add_shape(p)
    g = p.add_argument_group("hardware")
    g.add_argument("--gpu", type=A.name("gpu"), help="GPU name or alias: a100, h100, 4090, 昇腾910B (see `advisor gpus`)")
    g.add_argument("--gpus", dest="gpu_count", type=A.integer("gpus"), help="number of GPUs (default: fits + deadline)")
    A.add_money(p)
    A.add_output(p)
    return p


def _recommend_parser() -> argparse.ArgumentParser:
    p = A.Parser(prog="advisor recommend", description="Which GPUs, how many, on which billing plan?")
    A.add_workload(p)
    _add_shape(p)
    A.add_money(p, billing=False)
    p.add_argument("--max-gpus", dest="max_gpus", type=A.integer("max-gpus"))
    p.add_argument("--candidates", dest="gpus", type=lambda s: [x.strip() for x in s.split(",") if x.strip()],
                   help="comma-separated GPU names to consider")
    p.add_argument("--top", dest="top_k", type=A.integer("top"), default=None)
    A.add_output(p)
    return p


def _billing_parser() -> argparse.ArgumentParser:
    p = A.Parser(prog="advisor billing", description="Compare billing modes for a usage pattern.",
                 epilog="examples: advisor billing --gpu h100 --gpus 64 --hours 2000 --interruptible | "
                        "advisor billing --gpu a100 --gpus 8 --jobs 500 --job-minutes 20 --increment hour | "
                        "advisor billing --gpu 4090 --hours-per-day 6 --days 20")
    p.add_argument("--gpu", required=True, type=A.name("gpu"))
    p.add_argument("--gpus", dest="gpu_count", type=A.integer("gpus"), default=None)
    p.add_argument("--hours", dest="wall_hours", type=A.number("hours"), help="how long the cards are needed")
    p.add_argument("--days", dest="days", type=A.number("days"))
    p.add_argument("--hours-per-day", dest="hours_per_day", type=A.number("hours-per-day"))
    p.add_argument("--offpeak-share", dest="offpeak_share", type=A.number("offpeak-share", positive=False))
    p.add_argument("--experiments", dest="parallel_experiments", type=A.integer("experiments"))
    p.add_argument("--jobs", type=A.integer("jobs"), help="number of separate jobs, each billed on its own")
    p.add_argument("--job-hours", dest="job_hours", type=A.number("job-hours"), help="hours per job (20 min = 0.333)")
    p.add_argument("--job-minutes", dest="job_minutes", type=A.number("job-minutes"), help="minutes per job")
    p.add_argument("--increment", type=str.lower, help="billing increment: second | minute | hour | day")
    A.add_money(p, billing=False, budget=False)
    A.add_output(p)
    return p


def _plan_parser() -> argparse.ArgumentParser:
    p = A.Parser(prog="advisor plan", description="Cost a whole project stage by stage.",
                 epilog="example: advisor plan --model llama-2-7b --pretrain-tokens 1T --finetune-tokens 0.5B "
                        "--serve-tokens-per-day 50M --gpu h100")
    p.add_argument("--model")
    p.add_argument("--params", dest="params_b", type=A.size("params"))
    p.add_argument("--gpu", type=A.name("gpu"))
    p.add_argument("--pretrain-tokens", dest="pretrain_tokens_b", type=A.size("pretrain-tokens"))
    p.add_argument("--finetune-tokens", dest="finetune_tokens_b", type=A.size("finetune-tokens"))
    p.add_argument("--finetune-method", dest="finetune_method", type=str.lower)
    p.add_argument("--serve-tokens-per-day", dest="serving_tokens_per_day", type=A.size("serve-tokens-per-day", False))
    p.add_argument("--serve-days", dest="serving_days", type=A.number("serve-days"))
    p.add_argument("--currency")
    p.add_argument("--market", type=str.lower, help="local | convert (default: the market of --lang)")
    p.add_argument("--budget", type=A.number("budget"))
    p.add_argument("--approval-threshold", dest="approval_threshold", type=A.number("approval-threshold"))
    p.add_argument("--stage", dest="stages", action="append", type=_stage,
                   help="a stage, repeatable: NAME[:key=value,...], e.g. pretrain:months=2,gpus=1000,billing=monthly "
                        "or pretrain:tokens=1T,term-months=12,finished-after-months=4,settlement-provider=runpod "
                        "or finetune:tokens=1B,method=lora,emergency=yes")
    A.add_output(p)
    return p


_STAGE_KEYS = {"gpus": "gpu_count", "tokens": "tokens_b", "params": "params_b"}
_STAGE_TEXT = {"billing", "gpu", "method", "provider", "settlement_provider", "precision", "optimizer"}


def _stage(text: str) -> dict[str, Any]:
    """``pretrain:months=2,gpus=1000,billing=monthly`` -> a stage dict (values parsed by the tool)."""
    name, _, rest = text.partition(":")
    stage: dict[str, Any] = {"stage": name.strip().lower()}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not value.strip():
            raise A.ArgumentError(f"--stage {text!r}: expected key=value pairs after the stage name")
        k = key.strip().lower().replace("-", "_")
        k = _STAGE_KEYS.get(k, k)
        v = value.strip()
        if k in _STAGE_TEXT:
            stage[k] = v.lower() if k in ("billing", "method") else v
        elif k == "emergency":
            stage[k] = v.lower() in ("1", "yes", "true", "y")
        elif k == "tokens_b":
            stage[k] = A.size("tokens")(v)
        elif k == "tokens_per_day":
            stage[k] = A.size("tokens-per-day", False)(v)
        else:
            stage[k] = A.number(k, positive=False)(v)
    return stage


def _run(ctx: typer.Context, parser: Callable[[], argparse.ArgumentParser], tool: str, progress: str | None = None) -> None:
    """Parse the flags, call ``tool`` and print its report; with a ``progress`` title, the
    tool's steps are drawn on a bar when stderr is a terminal (never with --json)."""
    p = parser()
    if any(a in ("-h", "--help") for a in ctx.args):
        p.print_help()
        return
    ns = p.parse_args(ctx.args)
    req = A.to_request(ns)
    if tool == "compare_billing" and "job_minutes" in req:
        req.setdefault("job_hours", req.pop("job_minutes") / 60)
    if tool == "compare_billing" and not {"wall_hours", "days", "jobs"} & set(req):
        raise A.ArgumentError("give how long the cards are needed: --hours N, --days N, or --jobs N --job-hours H")
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor import tools
    from advisor.cli.progress import tty_progress

    fn = getattr(tools, tool)
    if progress is None or ns.json:
        report = fn(**req)
    else:
        with tty_progress(progress) as sink:
            report = fn(progress=sink, **req)
    if ns.json:
        emit_json(report)
    else:
        render.show(tool, report, details=ns.details)


def register(app: typer.Typer) -> None:
    @app.command("estimate", context_settings=_PASS, add_help_option=False,
                 help="What should this training or fine-tuning run cost? (--help for flags)")
    def estimate_cmd(ctx: typer.Context) -> None:
        _run(ctx, _estimate_parser, "estimate_training_cost")

    @app.command("recommend", context_settings=_PASS, add_help_option=False,
                 help="Rank GPU types, counts and billing plans for a job. (--help for flags)")
    def recommend_cmd(ctx: typer.Context) -> None:
        _run(ctx, _recommend_parser, "recommend_hardware", "recommend / 选型")

    @app.command("billing", context_settings=_PASS, add_help_option=False,
                 help="Compare billing modes for a usage pattern. (--help for flags)")
    def billing_cmd(ctx: typer.Context) -> None:
        _run(ctx, _billing_parser, "compare_billing")

    @app.command("plan", context_settings=_PASS, add_help_option=False,
                 help="Cost a project stage by stage: validation, pre-training, fine-tuning, serving.")
    def plan_cmd(ctx: typer.Context) -> None:
        _run(ctx, _plan_parser, "plan_project")
