"""A warm tool call does the job, not the loading: once a tool has run, calling it again opens
no file, lists no folder and rebuilds no catalog, rule pack, fact registry or price market.

Not timed (timings are in bench/): what is counted is work that must happen once per file
version, so a cache that stops hitting fails here whatever the machine's load.
"""

from __future__ import annotations

import builtins
import io
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from advisor import tools

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = (ROOT / "ui" / "samples" / "contract_en.txt").read_text(encoding="utf-8")
STAGES = [{"stage": "pretrain", "months": 4, "gpu_count": 1000, "term_months": 12, "finished_after_months": 4,
           "settlement_provider": "runpod"}, {"stage": "pretrain", "months": 2, "gpu_count": 2000, "billing": "tiered"}]

CALLS: dict[str, Callable[[], Any]] = {
    "estimate": lambda: tools.estimate_training_cost(model="llama-3.1-8b", method="lora", samples=50_000,
                                                     tokens_per_sample=800, gpu="A100", gpu_count=8),
    "estimate_zh_deadline": lambda: tools.estimate_training_cost(params_b=13, method="qlora", tokens_b=0.1, gpu="4090",
                                                                 deadline_hours=48, currency="CNY", lang="zh"),
    "compare_billing": lambda: tools.compare_billing(gpu="A100", gpu_count=8, jobs=500, job_hours=1 / 3,
                                                     increment="hour"),
    "recommend": lambda: tools.recommend_hardware(model="llama-3.1-8b", method="lora", tokens_b=0.1),
    "plan_project": lambda: tools.plan_project(model="llama-3.1-70b", gpu="H100", stages=STAGES),
    "review_contract": lambda: tools.review_contract(text=CONTRACT),
    "ask_offline": lambda: __import__("advisor.assistant", fromlist=["ask"]).ask(
        "LoRA fine-tune Llama-3-8B on 50k samples of 800 tokens on 8 A100s: how much?", offline=True),
}

# Builders that run once per file version (or per catalog) and must not run on a warm call.
BUILDERS = [
    ("advisor.catalog.catalog", "load_catalog"),
    ("advisor.catalog.market", "_build"),
    ("advisor.rules.loader", "parse_pack"),
    ("advisor.rules.registry", "parse_registry"),
]


@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_warm_call_loads_nothing(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    call = CALLS[name]
    call()
    call()
    seen: Counter[str] = Counter()

    def counted(label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            seen[label] += 1
            return fn(*args, **kwargs)
        return wrapper

    for module, attr in BUILDERS:
        mod = __import__(module, fromlist=[attr])
        monkeypatch.setattr(mod, attr, counted(f"{module}.{attr}", getattr(mod, attr)))
    monkeypatch.setattr(builtins, "open", counted("open", builtins.open))
    monkeypatch.setattr(io, "open", counted("open", io.open))
    monkeypatch.setattr(os, "scandir", counted("scandir", os.scandir))
    monkeypatch.setattr(os, "listdir", counted("listdir", os.listdir))
    call()
    assert not seen, f"{name}: a warm call still loads {dict(seen)}"


# Varied requests: catalog and interpolated models, every method, both currencies and languages,
# a deadline, a budget, spot, per-task and monthly billing, a stated shape.
REQUESTS: list[dict[str, Any]] = [
    dict(model="llama-3.1-8b", method="lora", samples=50_000, tokens_per_sample=800, gpu="A100", gpu_count=8),
    dict(model="llama-3.1-70b", method="full", tokens_b=2, gpu="H100", deadline_hours=72, lang="zh", currency="CNY"),
    dict(params_b=13, method="qlora", tokens_b=0.1, gpu="4090", gpu_count=1),
    dict(model="qwen2.5-72b", method="pretrain", tokens_b=300, gpu="H100", gpu_count=512, billing="monthly"),
    dict(params_b=7, method="full", tokens_b=1, gpu="L40S", budget=500, approval_threshold=200, interruptible=True),
    dict(model="llama-3.1-8b", method="full", tokens_b=0.5, gpu="A100", gpu_count=2, billing="spot", egress_gb=100),
    dict(model="llama-3.1-8b", method="lora", tokens_b=0.05, gpu="H100", gpu_count=1, parallel_experiments=4,
         billing="per_task"),
    dict(layers=32, hidden_size=4096, heads=32, kv_heads=8, vocab_size=152000, method="lora", tokens_b=0.2,
         gpu="A800", currency="CNY"),
]


# One call of each kind the memo serves: estimate (above), billing, recommend, serving, quote, plan.
REPORTS: list[tuple[str, dict[str, Any]]] = [("estimate_training_cost", r) for r in REQUESTS] + [
    ("compare_billing", dict(gpu="H100", gpu_count=16, wall_hours=300, lang="zh", currency="CNY")),
    ("compare_billing", dict(gpu="A100", gpu_count=8, jobs=500, job_hours=1 / 3, increment="hour")),
    ("recommend_hardware", dict(model="llama-3.1-8b", method="lora", tokens_b=0.1)),
    ("recommend_hardware", dict(model="qwen2.5-7b", method="full", tokens_b=1, deadline_hours=12, budget=2000,
                                currency="CNY", lang="zh")),
    ("estimate_serving_cost", dict(model="llama-3.1-70b", tokens_per_day="100M", gpu="H100")),
    ("estimate_serving_cost", dict(model="llama-3.1-8b", tokens_per_day="20M", currency="CNY", lang="zh")),
    ("check_quote", dict(gpu="A100", price=1.5, unit="gpu_hour")),
    ("check_quote", dict(gpu="H100", price=12.0, unit="node_hour", currency="CNY", lang="zh")),
    ("plan_project", dict(model="llama-3.1-70b", gpu="H100", stages=STAGES)),
    ("plan_project", dict(model="llama-2-7b", pretrain_tokens_b=100, finetune_tokens_b=0.5,
                          serving_tokens_per_day=5e7, lang="zh", currency="CNY")),
]


def test_a_warm_report_is_the_cold_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the catalog memo keeps (quotes and the assumptions they record, offers, markets,
    capacities, sweep columns) gives the same reports, bit for bit, as no memo at all: every
    value computed where it is asked for and every quote priced into the caller's own Params."""
    import sys

    from advisor.catalog.catalog import Catalog
    from advisor.engine import pricing

    warm = []
    for name, args in REPORTS:
        getattr(tools, name)(**args)
        warm.append(getattr(tools, name)(**args).model_dump(mode="json"))

    def unmemoized(catalog: Any, gpu_id: str, currency: str, p: Any, *, provider: Any = None,
                   price_per_gpu_hour: Any = None, offpeak_discount: Any = None, market: Any = None,
                   lang: str = "en") -> Any:
        return pricing._priced(catalog, gpu_id, currency, p, provider, price_per_gpu_hour, offpeak_discount,
                               market, lang)

    monkeypatch.setattr(Catalog, "memo", lambda self, kind: {})  # nothing kept
    memoized = pricing.quote
    users = [m for n, m in sys.modules.items() if n.startswith("advisor.") and getattr(m, "quote", None) is memoized]
    assert len(users) > 3
    for module in users:
        monkeypatch.setattr(module, "quote", unmemoized)
    for (name, args), report in zip(REPORTS, warm, strict=True):
        assert getattr(tools, name)(**args).model_dump(mode="json") == report, (name, args)
