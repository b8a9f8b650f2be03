"""Mixed fleets priced honestly (C3): each card at its own speed, compared with both single fleets."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.engine.fleet import mixed_fleet
from advisor.tools import estimate_training_cost


def test_cheaper_than_all_high_end_when_the_cheap_cards_are_fast_enough_for_the_core_deadline() -> None:
    # the cheap card alone misses the deadline; the mix meets it and costs less than high-end throughout
    f = mixed_fleet(high_cost=100_000, high_wall=400, cheap_cost=60_000, cheap_wall=900, routine_share=0.8,
                    deadline_hours=850)
    assert f["best"] == "mixed" and f["saving"] == pytest.approx(100_000 - (0.2 * 100_000 + 0.8 * 60_000))
    assert f["options"]["mixed"]["wall_hours"] == pytest.approx(0.2 * 400 + 0.8 * 900)


def test_never_presented_as_a_saving_when_the_cheap_card_alone_does_it_for_less() -> None:
    f = mixed_fleet(high_cost=100_000, high_wall=400, cheap_cost=60_000, cheap_wall=600, routine_share=0.8,
                    deadline_hours=700)
    assert f["best"] == "all_cheap" and f["saving"] == 0


@settings(max_examples=200, deadline=None)
@given(st.floats(1, 1e6), st.floats(1, 1e4), st.floats(1, 1e6), st.floats(1, 1e4), st.floats(0, 1),
       st.one_of(st.none(), st.floats(1, 2e4)))
def test_a_reported_saving_is_always_the_cheapest_option_that_meets_the_deadline(
        hc: float, hw: float, cc: float, cw: float, r: float, deadline: float | None) -> None:
    f = mixed_fleet(high_cost=hc, high_wall=hw, cheap_cost=cc, cheap_wall=cw, routine_share=r, deadline_hours=deadline)
    if f["saving"] > 0:
        mixed = f["options"]["mixed"]
        assert mixed["meets_deadline"] and mixed["cost"] < hc
        for other in ("all_high_end", "all_cheap"):
            o = f["options"][other]
            assert not o["meets_deadline"] or o["cost"] >= mixed["cost"]


@pytest.mark.parametrize("kwargs", [
    {"params_b": 7, "method": "pretrain", "tokens_b": 100, "gpu": "H100", "gpu_count": 64},
    {"params_b": 13, "method": "pretrain", "tokens_b": 300, "gpu": "H100", "gpu_count": 128, "deadline_hours": 24 * 20},
    {"model": "llama-3.1-8b", "method": "lora", "tokens_b": 0.2, "gpu": "H100", "gpu_count": 8},
])
def test_estimates_show_all_three_fleets_with_their_time(kwargs: dict) -> None:
    r = estimate_training_cost(**kwargs)
    m = r.alternatives.mixed_fleet
    if m is None:  # no cheaper card fits: nothing to mix
        assert not any(f.rule_id == "fleet.mixed_fleet" for f in r.findings)
        return
    assert set(m["options"]) == {"all_high_end", "mixed", "all_cheap"}
    assert all(o["wall_hours"] > 0 for o in m["options"].values())
    if any(f.rule_id == "fleet.mixed_fleet" for f in r.findings):
        assert m["best"] == "mixed" and m["mixed_total"] < m["all_high_end_total"]
        assert m["mixed_total"] <= m["all_cheap_total"] or not m["options"]["all_cheap"]["meets_deadline"]


def test_a_pretraining_estimate_compares_the_three_fleets_and_claims_no_false_saving() -> None:
    r = estimate_training_cost(params_b=7, method="pretrain", tokens_b=100, gpu="A100", gpu_count=64)
    m = r.alternatives.mixed_fleet
    assert m is not None
    opts = m["options"]
    assert opts["mixed"]["cost"] < opts["all_high_end"]["cost"]  # the routine card is cheaper per hour
    claimed = any(f.rule_id == "fleet.mixed_fleet" for f in r.findings)
    assert claimed == (m["best"] == "mixed" and m["saving"] / m["all_high_end_total"] >= 0.1)
    if opts["all_cheap"]["meets_deadline"] and opts["all_cheap"]["cost"] <= opts["mixed"]["cost"]:
        assert not claimed and m["saving"] == 0
