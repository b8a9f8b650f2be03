"""The engine and the Python reading of a rule agree: for random facts (missing facts, values
at and next to every threshold, odd floats), the rules durable fires are exactly those whose
conditions hold in Python. The Python side is what writes a finding's evidence, so this is
also the check that evidence never disagrees with the decision."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.rules import evaluate, get_pack
from advisor.rules.conditions import Group, Leaf

PACKS = ["sizing", "billing", "fleet", "risk", "budget"]
_GPUS = ["A100-80GB", "H100-SXM", "RTX-4090", "T4", "L40S", "Ascend-910B", "昇腾910B"]


def _leaves(node: Leaf | Group) -> list[Leaf]:
    return [node] if isinstance(node, Leaf) else [x for c in node.children for x in _leaves(c)]


def _constants(pack_name: str) -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {}
    for rule in get_pack(pack_name).rules:
        for leaf in _leaves(rule.when):
            values = leaf.value if isinstance(leaf.value, tuple) else (leaf.value,)
            found.setdefault(leaf.fact, []).extend(v for v in values if v is not None)
    return found


def _strategy(pack_name: str, name: str, constants: list[Any]) -> st.SearchStrategy[Any]:
    spec = get_pack(pack_name).registry.facts[name]
    if spec.type == "boolean":
        return st.booleans()
    if spec.type == "string":
        return st.sampled_from(list(spec.values or ()) + [c for c in constants if isinstance(c, str)] + _GPUS)
    near = [x for c in constants if isinstance(c, int | float) for x in (c, math.nextafter(c, -math.inf), math.nextafter(c, math.inf))]
    if spec.type == "integer":
        ints = sorted({int(c) + d for c in constants if isinstance(c, int | float) for d in (-1, 0, 1)} | {0, 1})
        return st.sampled_from(ints) | st.integers(0, 20000)
    odd = [1e-05, 5e-06, 1e20, 0.0, -1.0]
    return st.sampled_from(near + odd) if near else st.floats(-1e6, 1e6) | st.sampled_from(odd)


def _facts_strategy(pack_name: str) -> st.SearchStrategy[dict[str, Any]]:
    pack = get_pack(pack_name)
    constants = _constants(pack_name)
    optional = {name: _strategy(pack_name, name, constants.get(name, [])) for name in sorted(pack.uses)}
    return st.fixed_dictionaries({}, optional=optional)


@pytest.mark.parametrize("pack_name", PACKS)
def test_engine_fires_exactly_the_rules_that_hold_in_python(pack_name: str) -> None:
    pack = get_pack(pack_name)

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(_facts_strategy(pack_name))
    def check(facts: dict[str, Any]) -> None:
        normalized = pack.normalize(facts)
        expected = {
            r.id for r in pack.rules if r.when.holds(normalized) and all(f in normalized for f in r.requires)
        }
        fired = {f.rule_id for f in evaluate(pack_name, facts)}
        assert fired == expected

    check()


def test_cheaper_card_rules_partition_the_cases() -> None:
    """For a cheaper option worth 10 % or more, exactly one of overkill, faster card, cheaper
    card speaks; below 10 % none does."""
    tiers = ["flagship", "datacenter", "inference", "workstation", "consumer", "npu", None]
    base = {"gpu": "X", "gpu_count": 8, "wall_hours": 10.0, "currency": "USD", "cheaper_gpu": "Y",
            "cheaper_gpu_count": 8, "cheaper_gpu_cost": 50.0, "cheaper_gpu_saving": 50.0, "cheaper_gpu_wall_hours": 5.0,
            "method": "full", "params_b": 3.0}
    trio = {"sizing.overkill_gpu", "sizing.faster_card_cheaper", "sizing.cheaper_gpu_available"}
    for gpu_tier in tiers[:-1]:
        for cheaper_tier in tiers:
            for share in (0.05, 0.2, 0.5):
                facts = {**base, "gpu_tier": gpu_tier, "cheaper_gpu_tier": cheaper_tier, "cheaper_gpu_saving_share": share}
                fired = {f.rule_id for f in evaluate("sizing", facts)} & trio
                assert len(fired) == (0 if share < 0.1 else 1), (gpu_tier, cheaper_tier, share, fired)
