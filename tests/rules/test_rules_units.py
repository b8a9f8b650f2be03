"""The small parts: the safe savings evaluator, text formats, numbers durable can parse."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic_core import to_json

from advisor.rules.conditions import engine_number
from advisor.rules.expr import parse_expression
from advisor.rules.registry import FactRegistry, FactSpec
from advisor.rules.templates import format_value, parse_template

REGISTRY = FactRegistry(
    domain="test",
    path="rules/facts/test.yaml",
    facts={
        "a": FactSpec(type="number", description="a"),
        "b": FactSpec(type="integer", description="b"),
        "name": FactSpec(type="string", description="n"),
        "flag": FactSpec(type="boolean", description="f"),
        "currency": FactSpec(type="string", description="c", values=("USD", "CNY")),
    },
    digest="x",
)


@pytest.mark.parametrize(
    ("text", "facts", "value"),
    [
        ("a", {"a": 3.5}, 3.5),
        ("a * b - 1", {"a": 2.0, "b": 3}, 5.0),
        ("max(a, b) / 2", {"a": 2.0, "b": 6}, 3.0),
        ("min(a, b, 1)", {"a": 2.0, "b": 6}, 1.0),
        ("round(a / 3, 2)", {"a": 1.0}, 0.33),
        ("abs(-a) + +b", {"a": 2.0, "b": 1}, 3.0),
        ("a / b", {"a": 1.0, "b": 0}, None),
        ("a + b", {"a": 1.0}, None),
    ],
)
def test_savings_expressions(text: str, facts: dict, value: float | None) -> None:
    assert parse_expression(text, REGISTRY).evaluate(facts) == value


@pytest.mark.parametrize(
    "text",
    ["a ** 2", "a if b else 1", "(lambda: 1)()", "a.real", "[a][0]", "'x'", "True", "a < b", "min(a)", "round(a, b)",
     "open('f')", "__import__('os')", "name * 2", "flag + 1", "c + 1", "max(*[a, b])", "round(a, ndigits=2)", ""],
)
def test_savings_expressions_outside_the_grammar_are_rejected(text: str) -> None:
    with pytest.raises(ValueError):
        parse_expression(text, REGISTRY)


def test_text_formats_in_both_languages() -> None:
    t = parse_template("{a:money} {b:int} {a:pct} {a:h} {flag} {name} {a}", REGISTRY)
    facts = {"a": 0.345, "b": 12345, "flag": True, "name": "H100-SXM", "currency": "USD"}
    assert t.render(facts, "en") == "$0.34 12,345 34% 0.3 h yes H100-SXM 0.34"
    assert t.render(facts, "zh") == "$0.34 12,345 34% 0.3 小时 是 H100-SXM 0.34"
    assert format_value(123456.7, "money", "en", "CNY") == "¥123,457"
    assert format_value(1200.0, "h", "en") == "1,200 h (≈50 days)"
    assert format_value(1200.0, "h", "zh") == "1,200 小时（约 50 天）"
    assert format_value(0.055, "pct", "en") == "5.5%"
    assert format_value(70.0, None, "en") == "70" and format_value(12.345, None, "en") == "12.3"
    assert format_value(0.0123, None, "en") == "0.012"


@pytest.mark.parametrize(
    ("text", "words"),
    [("{nope}", "unknown placeholder"), ("{a:days}", "unknown format"), ("{name:money}", "needs a number"),
     ("{a", "unbalanced"), ("}", "unbalanced"), ("{ }", "bad placeholder"), ("", "non-empty")],
)
def test_bad_templates(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        parse_template(text, REGISTRY)


_DURABLE_UNSAFE = re.compile(r"^-?\d+e[+-]\d+$")


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_engine_numbers_have_no_bare_exponent_and_keep_their_value(x: float) -> None:
    y = engine_number(x)
    assert not _DURABLE_UNSAFE.match(to_json(y).decode())  # as the host writes the engine's fact
    assert math.isclose(y, x, rel_tol=1e-15, abs_tol=2e-300)
    assert (y > 0) == (x > 0) and (y < 0) == (x < 0)


@given(st.floats(allow_nan=False, allow_infinity=False), st.floats(allow_nan=False, allow_infinity=False))
def test_engine_numbers_keep_their_order(x: float, y: float) -> None:
    if x < y:
        assert engine_number(x) <= engine_number(y)
