"""The scenario table: realistic estimates and plans, as the engine hands them to the rules,
with the advice each must (and must not) produce. Evaluated against every pack of domain
`estimate`, so a rule added to any such pack is tried on all of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.rules import evaluate_packs, packs_for_domain
from advisor.rules.cases import Case, load_cases

SCENARIOS = load_cases(Path(__file__).with_name("scenarios.yaml"), pack="estimate")


def test_there_are_at_least_25_scenarios() -> None:
    assert len(SCENARIOS) >= 25


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_scenario(scenario: Case) -> None:
    findings = evaluate_packs(packs_for_domain("estimate"), scenario.facts)
    fired = {f.rule_id for f in findings}
    assert not set(scenario.expect) - fired, f"expected, not fired: {sorted(set(scenario.expect) - fired)}; fired: {sorted(fired)}"
    assert not set(scenario.absent) & fired, f"fired, listed absent: {sorted(set(scenario.absent) & fired)}"
    for finding in findings:
        for lang in ("en", "zh"):
            text = finding.text[lang]
            for part in (text.title, text.detail, text.recommendation):
                assert part and "{" not in part and "}" not in part, (finding.rule_id, lang, part)
