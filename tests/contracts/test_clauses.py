"""Clause splitting: section numbers, pages and lines, in Chinese and English."""

from __future__ import annotations

from pathlib import Path

from contract_helpers import FIXTURES

from advisor.contracts.clauses import Location, normalize_space, split_clauses
from advisor.contracts.reader import read_path, read_text


def _sentence(clauses, needle: str):  # type: ignore[no-untyped-def]
    return next(s for c in clauses for s in c.sentences if needle in s.text)


def test_chinese_articles_and_items() -> None:
    clauses = split_clauses(read_path(FIXTURES / "zh_gpu_cloud_trap.txt"))
    s = _sentence(clauses, "自动续约12个月")
    assert s.location.section == "5.1"
    assert s.location.line == 29
    s = _sentence(clauses, "月租金为人民币")
    assert s.location == Location("2.1", 1, 14)


def test_chinese_parenthesized_items_under_article() -> None:
    clauses = split_clauses(read_path(FIXTURES / "zh_bare_metal_fair.txt"))
    s = _sentence(clauses, "不自动续约")
    assert s.location.section == "第五条（一）"
    assert s.location.label("zh").startswith("第五条（一），第1页第")


def test_numbered_items_under_a_chinese_article() -> None:
    text = "第三条 价格\n1. 乙方有权提前7日通知调整价格。\n2. 甲方可提前30日书面通知解除。"
    clauses = split_clauses(read_text(text))
    assert _sentence(clauses, "调整价格").location.section == "第三条（1）"
    assert _sentence(clauses, "书面通知解除").location.line == 3


def test_english_sections_and_sub_items() -> None:
    text = "Section 4. Fees\n4.1 The monthly fee is USD 10,000.\n(a) Stopped instances continue to be billed.\n"
    clauses = split_clauses(read_text(text))
    assert _sentence(clauses, "monthly fee").location.section == "4.1"
    assert _sentence(clauses, "Stopped instances").location.section == "4.1(a)"


def test_heading_line_is_its_own_sentence() -> None:
    clauses = split_clauses(read_text("第二条 租期与续约\n租期为12个月。"))
    texts = [s.text for c in clauses for s in c.sentences]
    assert texts == ["第二条 租期与续约", "租期为12个月。"]


def test_unnumbered_contract_uses_capital_headings() -> None:
    text = "TERM AND TERMINATION\n\nThis Agreement renews automatically for one year.\n"
    clauses = split_clauses(read_text(text))
    assert _sentence(clauses, "renews automatically").location.section == "Term And Termination"


def test_pages_from_form_feeds_and_pdf(pdf_file: Path) -> None:
    clauses = split_clauses(read_text("1. Fees.\f2. Billing is per hour.\nMore text."))
    s = _sentence(clauses, "Billing is per hour")
    assert (s.location.page, s.location.line) == (2, 1)
    s = _sentence(split_clauses(read_path(pdf_file)), "Egress")
    assert s.location.page == 2
    assert s.location.section == "3"


def test_wrapped_lines_are_joined() -> None:
    assert normalize_space("本合同\n自动续约") == "本合同自动续约"
    assert normalize_space("renews\n  automatically") == "renews automatically"


def test_sentence_cut_by_a_page_header_is_repaired() -> None:
    text = (
        "10.1 In addition, either party may terminate this Agreement by giving the other party written notice\n\n"
        "HOSTING AGREEMENT\n\n"
        "of such termination upon the other party's material breach.\n"
    )
    clauses = split_clauses(read_text(text))
    s = _sentence(clauses, "either party may terminate")
    assert "material breach" in s.text
    assert s.location.section == "10.1"


def test_english_location_label() -> None:
    assert Location("3.2", 2, 14).label() == "§3.2, page 2, line 14"
    assert Location(None, 1, 3).label() == "page 1, line 3"
