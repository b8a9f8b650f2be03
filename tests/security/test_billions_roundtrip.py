"""A size the parser returned, in billions, parses to itself again wherever it is re-validated
(CLI flag -> request field): the largest accepted sizes are never shrunk by 10^9 on the way."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from advisor.limits import bound
from advisor.units import parse_billions


@pytest.mark.parametrize("field", ["params_b", "tokens_b"])
@given(exponent=st.floats(min_value=3.0, max_value=15.0))
def test_a_parsed_size_parses_to_itself(field: str, exponent: float) -> None:
    count = 10 ** exponent
    if count > bound("params" if field == "params_b" else "tokens")[1]:
        return
    once = parse_billions(f"{count:.6e}", field)
    assert parse_billions(once, field) == pytest.approx(once)


@pytest.mark.parametrize("text", ["1e15", "1000000000000000", "1000T", "1,000,000,000,000,000"])
def test_the_largest_model_keeps_its_size_in_the_request(text: str) -> None:
    from advisor.engine.models import EstimateRequest

    request = EstimateRequest(params_b=parse_billions(text, "params_b"), tokens_b=1.0, gpu="A100", gpu_count=8)
    assert request.params_b == pytest.approx(1e6)
