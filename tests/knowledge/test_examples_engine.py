"""Every worked example in the guides renders from the real cost engine with no warning line:
the arguments are accepted, the fields exist, the numbers come out. (The engine is called
directly, without the rule packs, so that this checks the examples and not the rules.)"""

from __future__ import annotations

from advisor.catalog import get_catalog
from advisor.engine.estimate import estimate
from advisor.engine.models import EstimateRequest
from advisor.knowledge.examples import ExampleError, find_blocks, parse_block
from advisor.knowledge.guides import load_guides
from advisor.knowledge.render import render_example, render_guide
from advisor.tools import report_json
from advisor.tools.facts import estimate_facts


def example_problems(call_tool) -> list[str]:
    """One line per worked example that fails to render."""
    problems = []
    for guide in load_guides(None):
        for match in find_blocks(guide.body):
            try:
                example = parse_block(match.group(1))
            except ExampleError as exc:
                problems.append(f"{guide.path}: {exc}")
                continue
            text = render_example(example, guide.lang, call_tool)
            problems.extend(f"{guide.path}: {line[2:]}" for line in text.splitlines() if line.startswith("> ⚠"))
    return problems


def engine_call(name: str, args: dict) -> dict:
    assert name == "estimate_training_cost", f"add a direct call for {name}"
    req = EstimateRequest.model_validate(args)
    catalog = get_catalog()
    report = estimate(req, catalog)
    estimate_facts(report, req, catalog)  # fills the alternatives (cheaper card, slice)
    return report.model_dump(mode="json")


def test_every_example_renders_from_the_engine() -> None:
    assert example_problems(call_tool=engine_call) == []


def test_examples_show_what_their_guides_claim() -> None:
    memory = render_guide("08-technical-savings", "en", engine_call)
    assert memory.count("| Fits in GPU memory | no |") == 1  # full fine-tune on one card only
    idle = render_guide("07-utilization-and-idle", "en", engine_call)
    assert "Cost item: Idle cards waiting" in idle  # a component key in words (knowledge/glossary.yaml)
    spot = render_guide("05-off-peak-and-spot", "zh", engine_call)
    assert "计费方式：竞价" in spot and "¥" in spot


def _billing(args: dict) -> dict[str, float]:
    return {b["mode"]: b["total"] for b in engine_call("estimate_training_cost", args)["billing"]}


def test_billing_examples_support_their_text() -> None:
    # 10-long-term-deals: a run that fills most of a year favours the yearly term...
    long_run = _billing({"model": "llama-2-7b", "method": "pretrain", "tokens_b": 2000, "gpu": "H100-SXM",
                         "gpu_count": 8, "project_months": 12, "currency": "USD"})
    assert long_run["yearly"] < long_run["on_demand"]
    # ...and a short burst does not.
    burst = _billing({"model": "llama-2-7b", "method": "pretrain", "tokens_b": 200, "gpu": "H100-SXM",
                      "gpu_count": 64, "project_months": 12, "currency": "USD"})
    assert burst["on_demand"] < burst["monthly"] < burst["yearly"]
    # 05-off-peak-and-spot: spot is cheaper than on-demand for the checkpointed LoRA job.
    spot = _billing({"model": "llama-3.1-8b", "method": "lora", "tokens_b": 1, "gpu": "A100-80GB", "gpu_count": 4,
                     "interruptible": True, "checkpoint_interval_hours": 1, "currency": "USD"})
    assert spot["spot"] < spot["on_demand"]


def test_every_example_renders_through_the_public_tools() -> None:
    """The default lookup (advisor.tools.<name>, rule packs included) renders every example."""
    assert example_problems(report_json) == []
