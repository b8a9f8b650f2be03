"""Reading contracts: every format, both encodings, and a clear one-line error for each way a
document can be unreadable."""

from __future__ import annotations

from pathlib import Path

import pytest
from contract_helpers import FIXTURES, encrypt_pdf, fixture_text, make_docx, make_pdf

from advisor.contracts import limits, reader
from advisor.contracts.reader import read_bytes, read_path, read_text
from advisor.errors import DocumentError, InputError


def test_utf8_text_file() -> None:
    doc = read_path(FIXTURES / "zh_gpu_cloud_trap.txt")
    assert doc.encoding == "utf-8"
    assert "自动续约12个月" in doc.text
    assert len(doc.pages) == 1


def test_gbk_and_gb18030_text(tmp_path: Path) -> None:
    text = fixture_text("zh_gpu_cloud_trap")
    for codec in ("gbk", "gb18030"):
        path = tmp_path / f"contract-{codec}.txt"
        path.write_bytes(text.replace("×", "x").encode(codec))
        doc = read_path(path)
        assert doc.encoding == "gb18030"
        assert "乙方有权根据市场行情调整服务价格" in doc.text


def test_utf8_bom_and_utf16(tmp_path: Path) -> None:
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbf" + "第一条 租期为12个月。".encode())
    assert read_path(tmp_path / "bom.txt").text.startswith("第一条")
    (tmp_path / "u16.txt").write_bytes("Section 1. Term.".encode("utf-16"))
    assert read_path(tmp_path / "u16.txt").text == "Section 1. Term."


def test_markdown_and_form_feed_pages(tmp_path: Path) -> None:
    path = tmp_path / "terms.md"
    path.write_text("# Terms\n\n1. Fees.\fPage two: 2. Billing.", encoding="utf-8")
    doc = read_path(path)
    assert doc.format == "markdown"
    assert [p.number for p in doc.pages] == [1, 2]
    assert doc.pages[1].text.startswith("Page two")


def test_pasted_text() -> None:
    doc = read_text("1. Renewal.\r\nThis Agreement renews automatically.")
    assert doc.source == "text"
    assert "\r" not in doc.text


def test_pdf_pages(pdf_file: Path) -> None:
    doc = read_path(pdf_file)
    assert doc.format == "pdf"
    assert len(doc.pages) == 2
    assert "renew automatically" in doc.pages[0].text
    assert "Egress" in doc.pages[1].text


def test_pdf_sniffed_without_extension(tmp_path: Path) -> None:
    data = make_pdf([["1. Fees. The monthly fee is USD 1,000."]])
    doc = read_bytes(data, "-")
    assert doc.format == "pdf"


def test_docx_paragraphs_tables_and_page_breaks(docx_file: Path) -> None:
    doc = read_path(docx_file)
    assert doc.format == "docx"
    assert len(doc.pages) == 2
    assert "自动顺延一年" in doc.text
    assert "月租金 | 人民币 640,000 元" in doc.text


def test_corrupt_pdf(tmp_path: Path) -> None:
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 9 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF")
    with pytest.raises(DocumentError, match="corrupt|no text layer|unreadable"):
        read_path(path)
    (tmp_path / "fake.pdf").write_bytes(b"this is not a pdf")
    with pytest.raises(DocumentError, match="not a valid PDF"):
        read_path(tmp_path / "fake.pdf")


def test_encrypted_pdf(tmp_path: Path) -> None:
    path = tmp_path / "locked.pdf"
    path.write_bytes(encrypt_pdf(make_pdf([["1. Fees. USD 1,000 per month."]]), user_password="secret"))
    with pytest.raises(DocumentError, match="password-protected"):
        read_path(path)


def test_owner_password_only_pdf_opens(tmp_path: Path) -> None:
    path = tmp_path / "owner-only.pdf"
    path.write_bytes(encrypt_pdf(make_pdf([["1. Fees. USD 1,000 per month."]]), user_password=""))
    assert "USD 1,000" in read_path(path).text


def test_corrupt_and_encrypted_docx(tmp_path: Path) -> None:
    (tmp_path / "broken.docx").write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(DocumentError, match="corrupt or unreadable .docx"):
        read_path(tmp_path / "broken.docx")
    (tmp_path / "locked.docx").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 512)
    with pytest.raises(DocumentError, match="password-protected"):
        read_path(tmp_path / "locked.docx")


def test_empty_docx_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "empty.docx").write_bytes(make_docx([""]))
    with pytest.raises(DocumentError, match="no text"):
        read_path(tmp_path / "empty.docx")


@pytest.mark.parametrize(
    ("name", "content", "problem"),
    [
        ("contract.doc", b"x", "unsupported file type '.doc'"),
        ("contract.xlsx", b"x", "unsupported file type"),
        ("empty.txt", b"   \n", "empty"),
        ("binary.txt", b"\x00\x01\x02" * 10, "binary"),
        ("latin.txt", bytes([0x81, 0x30, 0xFF, 0xFF, 0x80]) * 3, "neither UTF-8 nor GB18030"),
    ],
)
def test_unreadable_files(tmp_path: Path, name: str, content: bytes, problem: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(DocumentError, match=problem) as info:
        read_path(path)
    assert "\n" not in str(info.value)
    assert isinstance(info.value, InputError)


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(DocumentError, match="file not found"):
        read_path(tmp_path / "nope.pdf")
    with pytest.raises(DocumentError, match="directory"):
        read_path(tmp_path)


def test_size_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "MAX_DOCUMENT_BYTES", 1000)
    path = tmp_path / "big.txt"
    path.write_bytes(b"a" * 2000)
    with pytest.raises(DocumentError, match="too large: .* the limit is"):
        read_path(path)
    monkeypatch.setattr(reader, "MAX_DOCUMENT_CHARS", 100)
    with pytest.raises(DocumentError, match="too long: 500 characters"):
        read_text("x" * 500)


def test_limits_are_documented() -> None:
    assert limits.MAX_DOCUMENT_BYTES == 20 * 1024 * 1024
    assert limits.MAX_DOCUMENT_CHARS == 2_000_000
    assert "100 pages" in (limits.__doc__ or "")
