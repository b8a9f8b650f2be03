"""The worked-example renderer: fields shown with labels and units, failures always visible."""

from __future__ import annotations

import pytest

from advisor.errors import InputError
from advisor.knowledge.examples import ExampleError, parse_block, resolve
from advisor.knowledge.guides import load_guides
from advisor.knowledge.render import render_guide, render_markdown
from advisor.tools import report_json

REPORT = {
    "cost": {
        "currency": "USD",
        "total": 1234.5,
        "low": 1000.0,
        "high": 1600.0,
        "components": [{"name": "gpu_usage", "amount": 1200.0},
                       {"name": "storage", "amount": 34.5}],
    },
    "gpu_hours": {"expected": 321.25},
    "wall_hours": {"expected": 40.16},
    "memory": {"per_gpu_gb": 23.41, "gpu_memory_gb": 80.0, "fits": True},
    "billing": [{"mode": "on_demand", "total": 1234.5}, {"mode": "spot", "total": 600.0}],
    "findings": [],
}


def block(show: str, args: str = "{model: llama-3.1-8b, gpu: A100-80GB}") -> str:
    return f"before\n\n```advisor-example\ntool: estimate_training_cost\nargs: {args}\nshow: {show}\n```\n\nafter\n"


def fake(report: dict):
    calls = []

    def call(name, args):
        calls.append((name, args))
        return report

    call.calls = calls  # type: ignore[attr-defined]
    return call


def test_fields_are_shown_with_labels_and_units() -> None:
    out = render_markdown(block("[cost.total, gpu_hours.expected, wall_hours.expected, memory.per_gpu_gb, memory.fits]"),
                          "en", fake(REPORT))
    assert "`estimate_training_cost`" in out and "model=llama-3.1-8b" in out and "gpu=A100-80GB" in out
    assert "| Total cost (expected) | $1,234 |" in out
    assert "| GPU-hours (expected) | 321 GPU-h |" in out
    assert "| Wall-clock time (expected) | 40.2 h |" in out
    assert "| Memory needed per GPU | 23.4 GB |" in out
    assert "| Fits in GPU memory | yes |" in out
    assert out.startswith("before") and out.rstrip().endswith("after")
    assert "```" not in out


def test_chinese_labels_and_yuan() -> None:
    report = {**REPORT, "cost": {**REPORT["cost"], "currency": "CNY"}}
    out = render_markdown(block('[cost.total, memory.fits, "billing[mode=spot].total"]'), "zh", fake(report))
    assert "**算例**" in out
    assert "| 总成本（预期） | ¥1,234 |" in out
    assert "| 显存放得下 | 是 |" in out
    assert "| 计费方式：竞价 | ¥600 |" in out


def test_lists_expand_and_select() -> None:
    out = render_markdown(block('["billing[].total", "cost.components[].amount", "findings[].title"]'), "en", fake(REPORT))
    assert "| Billed on-demand | $1,234 |" in out and "| Billed spot | $600 |" in out
    assert "| Cost item: Storage | $34.50 |" in out
    assert "| Finding | none |" in out


def test_a_failing_tool_is_a_visible_line() -> None:
    def broken(name, args):
        raise InputError("gpu", "Z100", "a known GPU name")

    out = render_markdown(block("[cost.total]"), "en", broken)
    assert "> ⚠ Example could not be computed (`estimate_training_cost`): invalid gpu 'Z100'" in out

    def crash(name, args):
        raise RuntimeError("engine exploded")

    out = render_markdown(block("[cost.total]"), "zh", crash)
    assert "> ⚠ 算例无法生成（`estimate_training_cost`）：RuntimeError: engine exploded" in out


def test_a_missing_field_is_visible() -> None:
    out = render_markdown(block('[cost.total, memory.bogus_gb, "billing[mode=yearly].total"]'), "en", fake(REPORT))
    assert "| `memory.bogus_gb` | ⚠ not in report |" in out
    assert "> ⚠ Field not in the `estimate_training_cost` report: `memory.bogus_gb`" in out
    assert "> ⚠ Field not in the `estimate_training_cost` report: `billing[mode=yearly].total`" in out


def test_a_non_mapping_result_is_visible() -> None:
    out = render_markdown(block("[cost.total]"), "en", lambda n, a: ["not", "a", "report"])
    assert "tool returned list" in out


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("tool: [unclosed", "not valid YAML"),
        ("- a list", "must be a mapping"),
        ("tool: estimate_training_cost\nshow: [cost.total]\nextra: 1", "unknown keys"),
        ("args: {}\nshow: [cost.total]", "missing 'tool'"),
        ("tool: estimate_training_cost\nshow: []", "'show' must be"),
        ("tool: estimate_training_cost\nshow: ['cost..total']", "bad field path"),
        ("tool: estimate_training_cost\nshow: ['billing[spot].total']", "bad selector"),
    ],
)
def test_malformed_blocks_are_visible(body: str, message: str) -> None:
    with pytest.raises(ExampleError, match=message):
        parse_block(body)
    out = render_markdown(f"```advisor-example\n{body}\n```\n", "en", fake(REPORT))
    assert "> ⚠ Example could not be computed" in out and message.split("'")[0] in out


def test_an_unknown_tool_is_visible_with_the_public_lookup() -> None:
    out = render_markdown("```advisor-example\ntool: no_such_tool\nshow: [x]\n```\n", "en", report_json)
    assert "> ⚠ Example could not be computed (`no_such_tool`): invalid tool 'no_such_tool'" in out


def test_resolve_reports_missing_paths_instead_of_raising() -> None:
    assert resolve(REPORT, "cost.total")[0].value == 1234.5
    assert resolve(REPORT, "nothing.here")[0].missing
    assert resolve(REPORT, "cost.total.deeper")[0].missing
    assert resolve(REPORT, "findings[].title")[0].value == []


@pytest.mark.parametrize("guide", load_guides(), ids=lambda g: f"{g.lang}/{g.slug}")
def test_every_guide_renders_with_an_injected_tool(guide) -> None:
    call = fake(REPORT)
    out = render_guide(guide.slug, guide.lang, call)
    assert "```advisor-example" not in out
    assert out.startswith(f"# {guide.title}")
    head = "**Worked example**" if guide.lang == "en" else "**算例**"
    assert out.count(head) == guide.body.count("```advisor-example")
    assert all(name == "estimate_training_cost" for name, _ in call.calls)  # type: ignore[attr-defined]


def test_identical_blocks_call_the_tool_once() -> None:
    call = fake(REPORT)
    render_markdown(block("[cost.total]") + block("[cost.total]"), "en", call)
    assert len(call.calls) == 1  # type: ignore[attr-defined]
