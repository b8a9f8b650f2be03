"""Flag parsing for the cost commands, shared so every command spells a flag the same way.

argparse is used under typer for these commands because they share one large set of
workload flags; a parse error is one line on stderr and exit code 2, like every other error.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Any, NoReturn

from advisor.errors import InputError
from advisor.numeric import parse_number, quantity_of
from advisor.units import parse_billions, parse_count


class ArgumentError(InputError):
    def __init__(self, message: str) -> None:
        self.field, self.value, self.accepted = "argument", None, message
        Exception.__init__(self, message)
        self.message, self.hint = message, None


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one-line AdvisorErrors, not usage dumps."""

    def error(self, message: str) -> NoReturn:
        raise ArgumentError(f"{message} (see `{self.prog} --help`)")

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:  # type: ignore[override]
        """Negative numbers are values, not flags: ``--price -2`` reaches the validator, which
        then says what is accepted."""
        joined: list[str] = []
        items = list(args or [])
        i = 0
        while i < len(items):
            a = items[i]
            if a.startswith("--") and "=" not in a and i + 1 < len(items) and re.match(r"^-\.?\d", items[i + 1]):
                joined.append(f"{a}={items[i + 1]}")
                i += 2
                continue
            joined.append(a)
            i += 1
        return super().parse_args(joined, namespace)


def _typed(field: str, parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argparse type whose error is the parser's own one-line message."""

    def run(text: str) -> Any:
        try:
            return parse(text)
        except InputError as exc:
            raise argparse.ArgumentTypeError(exc.one_line()) from None

    run.__name__ = field
    return run


def size(field: str, billions: bool = True) -> Callable[[str], float]:
    return _typed(field, lambda text: parse_billions(text, field) if billions else parse_count(text, field))


def number(field: str, *, positive: bool = True) -> Callable[[str], float]:
    def parse(text: str) -> float:
        value = parse_number(text, field, quantity=quantity_of(field), suffixes=False)
        if positive and not value > 0:
            raise InputError(field, text, "a positive number")
        return value

    return _typed(field, parse)


def integer(field: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = parse_number(text, field, quantity=quantity_of(field), accepted="a whole number")
        if value != int(value):
            raise InputError(field, text, "a whole number")
        if value <= 0:
            raise InputError(field, text, "a positive whole number")
        return int(value)

    return _typed(field, parse)


def name(field: str) -> Callable[[str], str]:
    """A name (GPU, model, provider): never empty, never only spaces."""

    def parse(text: str) -> str:
        if not text.strip():
            raise InputError(field, text, f"a {field} name (it is empty)")
        return text.strip()

    return _typed(field, parse)


def add_output(p: argparse.ArgumentParser, prices: bool = True) -> None:
    p.add_argument("--json", action="store_true", help="print exactly one JSON document")
    p.add_argument("--details", action="store_true", help="show every table, finding and assumption (default: the short form)")
    p.add_argument("--lang", choices=["en", "zh"], default=None, help="language of texts (default en)")
    if prices:
        p.add_argument("--prices", dest="prices_file", metavar="FILE", help="your price sheet (CSV); its prices win")


def add_workload(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("workload")
    g.add_argument("--model", type=name("model"), help="catalog model name or alias, e.g. llama-3.1-8b (see `advisor models`)")
    g.add_argument("--params", dest="params_b", type=size("params"), help="parameters: 7B, 70b, 300M, 70亿")
    g.add_argument("--active-params", dest="active_params_b", type=size("active-params"), help="MoE active parameters")
    g.add_argument("--method", type=str.lower, help="pretrain | full | lora | qlora (default full)")
    g.add_argument("--tokens", dest="tokens_b", type=size("tokens"), help="all tokens processed: 2T, 150M, 1.5B")
    g.add_argument("--dataset-tokens", dest="dataset_tokens_b", type=size("dataset-tokens"), help="tokens in the dataset")
    g.add_argument("--epochs", type=number("epochs"))
    g.add_argument("--samples", type=size("samples", billions=False), help="training samples: 50k, 5万")
    g.add_argument("--tokens-per-sample", dest="tokens_per_sample", type=size("tokens-per-sample", billions=False))
    g.add_argument("--seq-len", dest="seq_len", type=integer("seq-len"))
    g.add_argument("--micro-batch", dest="micro_batch_size", type=integer("micro-batch"))
    g.add_argument("--checkpointing", dest="gradient_checkpointing", action=argparse.BooleanOptionalAction,
                   default=None, help="full activation recomputation (default: only if needed to fit)")
    g.add_argument("--no-flash-attention", dest="flash_attention", action="store_false", default=None)
    g.add_argument("--precision", type=str.lower, help="bf16 | fp16 | fp8 | fp32")
    g.add_argument("--optimizer", type=str.lower, help="adamw | adamw_8bit | paged_adamw_8bit | adafactor | sgd")
    g.add_argument("--zero", dest="zero_stage", type=int, help="DeepSpeed ZeRO stage 0-3")
    g.add_argument("--lora-rank", dest="lora_rank", type=integer("lora-rank"))
    g.add_argument("--mfu", type=number("mfu"), help="measured model FLOPs utilization, (0, 1]")


def add_money(p: argparse.ArgumentParser, *, billing: bool = True, budget: bool = True) -> None:
    g = p.add_argument_group("price and plan")
    g.add_argument("--price", dest="price_per_gpu_hour", type=number("price", positive=False),
                   help="price per GPU-hour you pay")
    g.add_argument("--currency", type=name("currency"), help="USD | CNY (default USD)")
    g.add_argument("--provider", type=name("provider"), help="price sheet provider, e.g. runpod, lambda, 腾讯云")
    g.add_argument("--market", type=str.lower,
                   help="local (that currency's own offers, 国内价格) | convert (the other currency's offers at the "
                        "dated rate); default: the market of --lang")
    g.add_argument("--offpeak-discount", dest="offpeak_discount", type=number("offpeak-discount", positive=False),
                   help="night discount you have been offered, 0-1")
    if billing:
        g.add_argument("--billing", type=str.lower,
                       help="on_demand | daily | monthly | yearly | off_peak | spot | per_task")
    g.add_argument("--deadline-hours", dest="deadline_hours", type=number("deadline-hours"))
    g.add_argument("--deadline-days", dest="deadline_days", type=number("deadline-days"))
    if budget:
        g.add_argument("--budget", type=number("budget"))
        g.add_argument("--approval-threshold", dest="approval_threshold", type=number("approval-threshold"))
    g.add_argument("--interruptible", action="store_true", default=None, help="the work tolerates spot reclaims")
    if budget:  # the estimate's hidden costs (REQUIREMENTS A1, A3, D3)
        h = p.add_argument_group("hidden costs")
        h.add_argument("--hosting", type=str.lower, help="cloud (default) | colocation | owned: your own cards are priced "
                                                         "at their cost of ownership plus electricity, not rent")
        h.add_argument("--egress-gb", dest="egress_gb", type=number("egress-gb", positive=False))
        h.add_argument("--idle-wait-hours", dest="idle_wait_hours", type=number("idle-wait-hours", positive=False))
        h.add_argument("--support-cost", dest="support_cost", type=number("support-cost", positive=False),
                       help="licences and support not in the rent, total")
        h.add_argument("--storage-retention-days", dest="storage_retention_days",
                       type=number("storage-retention-days", positive=False))
        h.add_argument("--interconnect-surcharge", dest="interconnect_surcharge_per_gpu_hour",
                       type=number("interconnect-surcharge", positive=False), help="per GPU-hour, multi-card runs")
        h.add_argument("--free-gpu-hours", dest="free_gpu_hours", type=number("free-gpu-hours", positive=False),
                       help="free hours of a bundle or plan")
    g.add_argument("--urgent", action="store_true", default=None, help="the work cannot wait for off-peak hours")


def to_request(ns: argparse.Namespace, drop: tuple[str, ...] = ("json", "details")) -> dict[str, Any]:
    """Namespace -> request keyword arguments (unset flags left out)."""
    data = {k: v for k, v in vars(ns).items() if v is not None and k not in drop}
    if "deadline_days" in data:
        days = data.pop("deadline_days")
        data.setdefault("deadline_hours", days * 24)
    return data
