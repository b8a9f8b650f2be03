"""Our own compute-rental contracts end to end: every expected trap found, protections not
flagged, missing protections and injections reported (expectations in *.expected.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest
from contract_helpers import FIXTURES

from bench.eval_contracts import check_fixture

CASES = sorted(p for p in FIXTURES.glob("*.txt") if p.with_suffix(".expected.yaml").is_file())


def test_enough_fixtures_in_both_languages() -> None:
    names = [p.stem for p in CASES]
    assert sum(n.startswith("zh_") for n in names) >= 6
    assert sum(n.startswith("en_") for n in names) >= 4
    assert any("fair" in n for n in names) and any("mixed" in n for n in names) and any("trap" in n for n in names)
    assert any("injection" in n for n in names)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_fixture(path: Path) -> None:
    assert check_fixture(path) == []


def _pairs() -> list[tuple[Path, Path]]:
    import yaml

    by: dict[str, list[Path]] = {}
    for path in CASES:
        pair = (yaml.safe_load(path.with_suffix(".expected.yaml").read_text(encoding="utf-8")) or {}).get("pair")
        if pair:
            by.setdefault(pair, []).append(path)
    return [tuple(sorted(paths)) for paths in by.values() if len(paths) == 2]  # type: ignore[misc]


PAIRS = _pairs()


def test_paired_contracts_cover_the_kinds_a_renter_meets() -> None:
    names = " ".join(p.stem for pair in PAIRS for p in pair)
    assert len(PAIRS) >= 6
    for kind in ("fair", "trap", "order_form", "spot", "prepaid"):
        assert kind in names, kind


@pytest.mark.parametrize("pair", PAIRS, ids=[p[0].stem.split("_", 1)[1] for p in PAIRS])
def test_the_same_contract_in_chinese_and_english_reads_the_same(pair: tuple[Path, Path]) -> None:
    from advisor.tools.contract import review_contract

    en, zh = (review_contract(path=str(p)) for p in pair)
    assert {i.category: i.status for i in en.checklist} == {i.category: i.status for i in zh.checklist}

    def priced(report: object) -> set[tuple[str, str, str, float | None]]:
        return {(f.category, f.rule_id, f.severity, f.savings.amount if f.savings else None) for f in report.findings}  # type: ignore[attr-defined]

    assert priced(en) == priced(zh)
