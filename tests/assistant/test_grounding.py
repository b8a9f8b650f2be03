"""Number grounding: reading figures from text, matching them within rounding, and fixing
tool arguments the question does not support."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.assistant.grounding import known_numbers, ungrounded_figures
from advisor.assistant.numbers import read_figures
from advisor.money import format_money


def values(text: str) -> list[tuple[float, ...]]:
    return [f.values for f in read_figures(text)]


@pytest.mark.parametrize(("text", "expected"), [
    ("$1,234.5", [(1234.5,)]),
    ("about 12k GPU-hours", [(12.0, 12000.0)]),
    ("预计 3.5万元", [(3.5, 35000.0)]),
    ("MFU 50%", [(50.0, 0.5)]),
    ("¥8,000 and ￥12", [(8000.0,), (12.0,)]),
    ("1.2e21 FLOPs", [(1.2e21,)]),
    ("1.5 million tokens, 2 billion", [(1.5, 1.5e6), (2.0, 2e9)]),
    ("共 1亿 token", [(1.0, 1e8)]),
])
def test_figures_are_read_with_their_scale(text: str, expected: list[tuple[float, ...]]) -> None:
    assert values(text) == expected


@pytest.mark.parametrize("text", [
    "Llama-3-8B on H100-SXM or A100-80GB with ZeRO-3 in bf16, Qwen2.5-72B, RTX-4090",
    "see knowledge/guides/en/03-right-sizing.md#step-2 and https://example.com/a1/b2",
    "prices as of 2024, checked 2024-06-01, 2024年6月",
    "1. first\n2) second\n3、 third\n- 4. fourth",
    "[1] the guide, 第2条",
])
def test_names_paths_dates_and_list_markers_are_not_figures(text: str) -> None:
    assert read_figures(text) == []


def test_rounding_within_displayed_precision_or_one_percent() -> None:
    known = known_numbers([{"cost": {"total": 12345.6, "currency": "USD"}, "share": 0.357, "wall_hours": 76.8}], [])
    ok = "It costs $12,346, about $12.3k or $12,000; 35.7% (36%) of it; 3.2 days."
    assert ungrounded_figures(ok, known) == []
    assert ungrounded_figures("It costs $13,500.", known) == ["$13,500"]
    assert ungrounded_figures("about 10%", known) == ["10%"]


def test_figures_in_report_texts_and_user_words_count() -> None:
    known = known_numbers([{"summary": {"en": "monthly pays off above 511 h a month"}}],
                          ["we have 64 cards at 35% utilization"])
    assert ungrounded_figures("Above 511 h monthly wins; your 64 cards at 35%.", known) == []
    assert ungrounded_figures("You could save 48%.", known) == ["48%"]


@settings(max_examples=200, deadline=None)
@given(st.floats(min_value=0.01, max_value=1e9, allow_nan=False, allow_infinity=False),
       st.sampled_from(["USD", "CNY"]))
def test_any_formatted_tool_amount_is_grounded(amount: float, currency: str) -> None:
    known = known_numbers([{"total": amount}], [])
    assert ungrounded_figures(f"Total: {format_money(amount, currency)}.", known) == []


@settings(max_examples=200, deadline=None)
@given(st.floats(min_value=1.0, max_value=1e6, allow_nan=False), st.floats(min_value=1.2, max_value=50.0))
def test_a_figure_far_from_every_known_number_is_caught(amount: float, factor: float) -> None:
    known = known_numbers([{"total": amount}], [])
    assert ungrounded_figures(f"Total: {format_money(amount * factor, 'USD')}.", known) != []


def test_a_money_figure_must_match_a_money_field_not_a_count_that_equals_it() -> None:
    from advisor.assistant.grounding import money_numbers

    results = [{"cost": {"total": 1234.5, "currency": "USD"}, "options": [{"top_k": 5, "gpu_count": 8}],
                "summary": {"en": "About $1,234.50 on 8 GPUs."}}]
    known, money = known_numbers(results, []), money_numbers(results, [])
    assert ungrounded_figures("It costs $1,234.50 on 8 GPUs.", known, money) == []
    assert ungrounded_figures("It costs $5.", known, money) == ["$5"]  # 5 is a count, not an amount
    assert ungrounded_figures("It costs $8.", known, money) == ["$8"]
    assert ungrounded_figures("You said ¥668.", known, money_numbers(results, ["budget ¥668"])) == []
