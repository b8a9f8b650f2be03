"""Contracts in Traditional characters read as their Simplified twins (issue #15): every
detector, the clause splitter and the party definitions read Simplified characters, and every
quote is cut from the contract as written. The Traditional fixtures are Simplified ones written
out in Traditional characters (general, Taiwan and Hong Kong forms), and are also read as Big5."""

from __future__ import annotations

from pathlib import Path

import pytest
from contract_helpers import FIXTURES

from advisor.contracts.detectors import detect_text
from advisor.contracts.simplified import to_simplified
from advisor.tools.contract import review_contract

TRADITIONAL = sorted((FIXTURES / "traditional").glob("*.txt"))


def _read(report: object) -> tuple[dict[str, str], set[tuple[str, str, float | None]]]:
    checklist = {i.category: i.status for i in report.checklist}  # type: ignore[attr-defined]
    findings = {(f.rule_id, f.severity, f.savings.amount if f.savings else None) for f in report.findings}  # type: ignore[attr-defined]
    return checklist, findings


@pytest.mark.parametrize("path", TRADITIONAL, ids=[p.stem for p in TRADITIONAL])
def test_a_traditional_contract_gives_the_checklist_of_its_simplified_twin(path: Path) -> None:
    written = path.read_text(encoding="utf-8")
    assert written != to_simplified(written)
    simplified = review_contract(path=str(FIXTURES / path.name))
    traditional = review_contract(text=written)
    assert _read(traditional) == _read(simplified)
    quotes = [i.clause for i in traditional.checklist if i.clause]
    assert quotes and all(q.rstrip("…") in written.replace("\n", "") or q.rstrip("…") in written for q in quotes)


@pytest.mark.parametrize("path", TRADITIONAL, ids=[p.stem for p in TRADITIONAL])
def test_a_big5_file_is_named_and_read_like_its_utf8_twin(path: Path, tmp_path: Path) -> None:
    big5 = tmp_path / path.name
    big5.write_bytes(path.read_text(encoding="utf-8").encode("big5"))
    report = review_contract(path=str(big5))
    assert report.encoding == "big5"
    assert _read(report) == _read(review_contract(path=str(path)))


@pytest.mark.parametrize(("traditional", "category", "kind"), [
    ("乙方有權在不提前通知的情況下回收實例。", "spot_reclaim", "trap"),
    ("平臺可隨時收回搶佔式實例，且不另行通知。", "spot_reclaim", "trap"),
    ("實例關機後仍照常計費。", "billing_after_release", "trap"),
    ("合同期滿後自動續約十二個月。", "auto_renewal", "trap"),
    ("甲方提前終止的，已預付費用不予退還。", "early_termination", "trap"),
    ("乙方調整價格的，應提前三十日書面通知甲方。", "price_change", "trap"),  # the notice days decide its severity
    ("月服務費在整個租期內保持不變。", "price_lock", "protect"),
    ("服務不可用的，乙方按不可用時長費用的200%補償甲方。", "sla_compensation", "protect"),
])
def test_a_traditional_sentence_reads_as_its_simplified_twin(traditional: str, category: str, kind: str) -> None:
    def read(text: str) -> set[tuple[str | None, str]]:
        return {(h.category, h.kind) for h in detect_text(text)}

    assert read(traditional) == read(to_simplified(traditional))
    assert (category, kind) in read(traditional)


def test_a_quote_keeps_the_contracts_own_characters() -> None:
    text = "第三條 資源回收\n乙方有權在不提前通知的情況下回收實例。"
    hits = [h for h in detect_text(text) if h.category == "spot_reclaim"]
    assert hits and hits[0].quote == "乙方有權在不提前通知的情況下回收實例。"
    assert hits[0].sentence.text == "乙方有权在不提前通知的情况下回收实例。"
    assert hits[0].sentence.location.section == "第三条"


def test_the_table_maps_one_character_to_one() -> None:
    sample = "".join(chr(c) for c in range(0x4E00, 0xA000))
    assert len(to_simplified(sample)) == len(sample)
    assert to_simplified("终止续约费用") == "终止续约费用"  # Simplified text is left as it is
