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
