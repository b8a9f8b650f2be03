"""Fixtures of the contract-review tests: a two-page PDF and a Word file made at test time."""

from __future__ import annotations

from pathlib import Path

import pytest
from contract_helpers import PDF_PAGES, fixture_text, make_docx, make_pdf


@pytest.fixture
def pdf_file(tmp_path: Path) -> Path:
    path = tmp_path / "order.pdf"
    path.write_bytes(make_pdf(PDF_PAGES))
    return path


@pytest.fixture
def docx_file(tmp_path: Path) -> Path:
    paragraphs = [line for line in fixture_text("zh_injection_lease").splitlines() if line.strip()]
    path = tmp_path / "lease.docx"
    path.write_bytes(make_docx(paragraphs, page_break_after=5, table=[["项目", "金额"], ["月租金", "人民币 640,000 元"]]))
    return path
