"""Every case file in rules/cases/ runs here, whoever wrote the pack: the facts of each case
must fire the rules it expects and none of the rules it lists as absent. Every rule of a pack
that has a case file needs at least one positive and one negative case."""

from __future__ import annotations

import pytest

from advisor import config
from advisor.rules import evaluate, load_packs
from advisor.rules.cases import Case, case_paths, load_cases


def _all_cases() -> list[Case]:
    return [case for path in case_paths() for case in load_cases(path)]


CASES = _all_cases()


def test_case_files_exist_for_the_estimate_packs() -> None:
    found = {p.stem for p in case_paths()}
    assert {"sizing", "billing", "fleet", "risk", "budget"} <= found


@pytest.mark.parametrize("case", CASES, ids=[f"{c.pack}: {c.name}" for c in CASES])
def test_case(case: Case) -> None:
    fired = {f.rule_id for f in evaluate(case.pack, case.facts)}
    missing = set(case.expect) - fired
    unwanted = set(case.absent) & fired
    assert not missing, f"expected but not fired: {sorted(missing)}; fired: {sorted(fired)}"
    assert not unwanted, f"fired but listed absent: {sorted(unwanted)}"


@pytest.mark.parametrize("path", case_paths(), ids=lambda p: p.stem)
def test_every_rule_has_a_positive_and_a_negative_case(path) -> None:  # type: ignore[no-untyped-def]
    pack = load_packs()[path.stem]
    cases = load_cases(path)
    positive = {r for c in cases for r in c.expect}
    negative = {r for c in cases for r in c.absent}
    ids = {r.id for r in pack.rules}
    assert not ids - positive, f"rules without a positive case in {path}: {sorted(ids - positive)}"
    assert not ids - negative, f"rules without a negative case in {path}: {sorted(ids - negative)}"


def test_cases_are_read_from_the_configured_rules_dir() -> None:
    assert all(str(p).startswith(str(config.rules_dir())) for p in case_paths())
