"""One number parser for the whole product: every spelling of a value parses the same, at
every entry point (the parser, the CLI, the tools); ambiguous commas, NaN/inf and values
beyond physical bounds are errors that say what is accepted."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.cli import main
from advisor.errors import InputError
from advisor.units import parse_billions, parse_count, parse_fraction, parse_number, parse_price

FULL_WIDTH = str.maketrans("0123456789.,eBMKT", "０１２３４５６７８９．，ｅＢＭＫＴ")


def spellings(billions: int) -> list[str]:
    """The same count written eight-plus ways."""
    n = billions * 10**9
    return [f"{billions}B", f"{billions}e9", str(n), f"{billions * 10}亿", f"{billions}B".translate(FULL_WIDTH),
            f"{n:,}", f"{billions} billion", f"{billions}b", f"{billions * 1000}M", f"{billions}G", f"{billions}十亿"]


@pytest.mark.parametrize("billions", [1, 7, 13, 70, 405])
def test_every_spelling_parses_identically(billions: int) -> None:
    values = {s: parse_billions(s, "params_b") for s in spellings(billions)}
    assert set(values.values()) == {float(billions)}, values
    assert parse_billions(billions, "params_b") == parse_billions(float(billions) * 1e9, "params_b") == billions


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1, max_value=10**6), st.sampled_from(["", "k", "M", "B"]))
def test_thousands_separators_and_full_width_never_change_a_value(n: int, suffix: str) -> None:
    plain = parse_number(f"{n}{suffix}", "x")
    assert parse_number(f"{n:,}{suffix}", "x") == plain
    assert parse_number(f"{n}{suffix}".translate(FULL_WIDTH), "x") == plain
    assert parse_number(f" {n:_}{suffix} ", "x") == plain


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1, max_value=999), st.integers(min_value=1, max_value=99))
def test_a_decimal_comma_is_an_error_never_a_bigger_number(whole: int, frac: int) -> None:
    if len(str(frac)) == 3:
        return  # 1,234 is a thousands separator
    for text in (f"{whole},{frac}B", f"{whole},{frac}"):
        with pytest.raises(InputError, match="ambiguous"):
            parse_number(text, "x")


@settings(max_examples=100, deadline=None)
@given(st.floats(min_value=1e-3, max_value=1e4, allow_nan=False, allow_infinity=False))
def test_scientific_and_plain_notation_agree(x: float) -> None:
    assert parse_number(f"{x:.17e}", "x") == parse_number(repr(x), "x") == x
    assert math.isclose(parse_number(f"{x * 1e3:.17g}k", "x"), x * 1e6, rel_tol=1e-12)


@pytest.mark.parametrize("text", ["nan", "NaN", "inf", "-inf", "Infinity", "∞", float("nan"), float("inf")])
def test_non_finite_values_are_rejected(text: object) -> None:
    with pytest.raises(InputError, match="finite"):
        parse_count(text, "tokens")


@pytest.mark.parametrize(("text", "field"), [("2e15", "params_b"), ("1e17", "tokens")])
def test_values_beyond_physical_bounds_give_the_accepted_range(text: str, field: str) -> None:
    with pytest.raises(InputError, match=r"from .* to 1e\+1[56]"):
        parse_count(text, field)


def test_prices_have_a_bound_by_currency() -> None:
    assert parse_price("$2.50", "price") == 2.5 == parse_price("2.5", "price")
    assert parse_price("12元", "price", "CNY") == 12.0
    with pytest.raises(InputError, match="10000 USD per GPU-hour"):
        parse_price("10001", "price", "USD")
    with pytest.raises(InputError, match="ambiguous"):
        parse_price("1,1", "price")


@pytest.mark.parametrize(("text", "value"), [("45", 0.45), ("45%", 0.45), ("0.45", 0.45), ("４５％", 0.45),
                                             (45, 0.45), ("100", 1.0), ("0", 0.0)])
def test_percentages_mean_fractions(text: object, value: float) -> None:
    assert parse_fraction(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["150%", "100.5", "-5", "-5%", "abc", ""])
def test_impossible_percentages_are_errors(text: str) -> None:
    with pytest.raises(InputError):
        parse_fraction(text)


def estimate_json(capsys, params: str) -> dict:
    code = main(["estimate", "--params", params, "--method", "lora", "--tokens", "1e8", "--gpu", "a100",
                 "--gpus", "8", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    report = json.loads(out.out)
    report.pop("inputs", None)
    return report


def test_the_same_number_in_eight_spellings_gives_identical_reports(capsys) -> None:
    reports = [estimate_json(capsys, s) for s in spellings(7)[:8]]
    first = json.dumps(reports[0], sort_keys=True)
    assert all(json.dumps(r, sort_keys=True) == first for r in reports[1:])


@pytest.mark.parametrize("argv", [
    ["estimate", "--model", "llama-3-8b", "--tokens", "1e8", "--gpu", ""],
    ["estimate", "--model", "llama-3-8b", "--tokens", "7,5B", "--gpu", "a100"],
    ["estimate", "--model", "llama-3-8b", "--tokens", "1e8", "--gpu", "a100", "--price", "nan"],
    ["estimate", "--model", "llama-3-8b", "--tokens", "1e8", "--gpu", "a100", "--price", "20000"],
    ["estimate", "--params", "2e15", "--tokens", "1e8", "--gpu", "a100"],
])
def test_cli_rejects_with_exit_2_and_one_line(capsys, argv: list[str]) -> None:
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and err.startswith("error:")


def test_tools_use_the_same_parser() -> None:
    from advisor.tools import estimate_training_cost

    a = estimate_training_cost(params_b="７Ｂ", method="lora", tokens_b="1亿", gpu="a100", gpu_count=8)
    b = estimate_training_cost(params_b=7e9, method="lora", tokens_b="100,000,000", gpu="a100", gpu_count=8)
    assert a.cost.total == b.cost.total
    for bad in ({"gpu": ""}, {"tokens_b": "7,5B"}, {"price_per_gpu_hour": float("inf")}, {"gpu_count": 10**7}):
        args = {"params_b": 7, "method": "lora", "tokens_b": 0.1, "gpu": "a100", "gpu_count": 8, **bad}
        with pytest.raises(InputError):
            estimate_training_cost(**args)
