"""Helpers of the contract-review tests: fixture paths, and real PDF/DOCX files built at test
time (a minimal hand-written PDF, python-docx for Word), plus encrypted ones."""

from __future__ import annotations

import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "contracts"
if str(ROOT) not in sys.path:  # bench/ is a folder of scripts beside the package
    sys.path.insert(0, str(ROOT))


def fixture_text(name: str) -> str:
    return (FIXTURES / f"{name}.txt").read_text(encoding="utf-8")


def make_pdf(pages: list[list[str]]) -> bytes:
    """A valid PDF with one text line per entry (Helvetica, WinAnsi: Latin text only)."""
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets: dict[int, int] = {}

    def obj(num: int, content: bytes) -> None:
        offsets[num] = out.tell()
        out.write(f"{num} 0 obj\n".encode() + content + b"\nendobj\n")

    kids = [4 + 2 * i for i in range(len(pages))]
    obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    obj(2, ("<< /Type /Pages /Kids [" + " ".join(f"{k} 0 R" for k in kids) + f"] /Count {len(pages)} >>").encode())
    obj(3, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    for i, lines in enumerate(pages):
        ops = ["BT", "/F1 10 Tf", "14 TL", "50 780 Td"]
        for line in lines:
            escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            ops.append(f"({escaped}) Tj T*")
        ops.append("ET")
        stream = "\n".join(ops).encode("latin-1")
        obj(4 + 2 * i, f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Resources << /Font << /F1 3 0 R >> >> /Contents {5 + 2 * i} 0 R >>".encode())
        obj(5 + 2 * i, f"<< /Length {len(stream)} >>\nstream\n".encode() + stream + b"\nendstream")
    xref = out.tell()
    total = 3 + 2 * len(pages)
    out.write(f"xref\n0 {total + 1}\n0000000000 65535 f \n".encode())
    for k in range(1, total + 1):
        out.write(f"{offsets[k]:010d} 00000 n \n".encode())
    out.write(f"trailer\n<< /Size {total + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
    return out.getvalue()


def encrypt_pdf(data: bytes, user_password: str, owner_password: str = "owner") -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(user_password=user_password, owner_password=owner_password, algorithm="RC4-128")
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


def make_docx(paragraphs: list[str], page_break_after: int | None = None, table: list[list[str]] | None = None) -> bytes:
    import docx
    from docx.enum.text import WD_BREAK

    document = docx.Document()
    for i, text in enumerate(paragraphs):
        para = document.add_paragraph(text)
        if page_break_after is not None and i == page_break_after:
            para.add_run().add_break(WD_BREAK.PAGE)
    if table:
        t = document.add_table(rows=len(table), cols=len(table[0]))
        for r, row in enumerate(table):
            for c, cell in enumerate(row):
                t.cell(r, c).text = cell
    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()


PDF_PAGES = [
    [
        "ORDER FORM",
        "1. Renewal. This Order Form will renew automatically for successive twelve (12) month",
        "periods unless Customer gives notice of non-renewal.",
        "2. Billing. Stopped instances continue to be billed until they are released.",
    ],
    [
        "3. Network. Egress is billed at USD 0.05 per GB.",
        "4. Fees. The monthly fee is USD 10,000.",
    ],
]

