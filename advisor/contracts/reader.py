"""Documents -> text with pages. Plain text (UTF-8 or GB18030/GBK), Markdown, PDF, DOCX.

Every failure a user can cause (missing file, unknown format, too large, corrupt or
password-protected file, a scan without a text layer) raises :class:`DocumentError` with one
line saying what is wrong and what to do. pypdf and python-docx are imported only when a
PDF or DOCX is read, so the CLI starts fast.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from advisor.contracts.docx_parts import check_package, extra_parts
from advisor.contracts.limits import (
    ACCEPTED_FORMATS,
    DOCX_EXTENSIONS,
    MAX_DOCUMENT_BYTES,
    MAX_DOCUMENT_CHARS,
    PDF_EXTENSIONS,
    TEXT_EXTENSIONS,
)
from advisor.errors import DocumentError
from advisor.limits import read_limit
from advisor.safe_read import decode, open_checked

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # old .doc, or an encrypted Office file


@dataclass
class Page:
    """One page of text; ``number`` counts from 1."""

    number: int
    text: str
    label: str = ""  # "" for the body; "header", "footer", "footnotes", "endnotes" or "comments"


@dataclass
class Document:
    """A document read into pages of text. ``source`` is the path, ``-`` or ``text``."""

    source: str
    pages: list[Page] = field(default_factory=list)
    format: str = "text"
    encoding: str | None = None

    @property
    def text(self) -> str:
        return "\n".join(p.text for p in self.pages)


def read_text(text: str, source: str = "text") -> Document:
    """Pasted text. Form feeds (``\\f``) separate pages, as ``pdftotext`` writes them."""
    if not isinstance(text, str):
        raise DocumentError(source, "expected text (a string)")
    _check_chars(source, len(text))
    if not text.strip():
        raise DocumentError(source, "the document is empty", hint="paste the contract text or give a file")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    pages = [Page(i + 1, t) for i, t in enumerate(text.split("\f"))]
    return Document(source=source, pages=pages, format="text")


def read_path(path: str | Path) -> Document:
    """A file on disk; the format follows the extension (content sniffed when there is none).
    Opened by :mod:`advisor.safe_read`: regular files only, the byte cap checked first."""

    p = Path(path)
    name = str(path)
    ext = p.suffix.lower()
    if ext and ext not in (*TEXT_EXTENSIONS, *PDF_EXTENSIONS, *DOCX_EXTENSIONS):
        hint = "save it as .docx or PDF" if ext == ".doc" else None
        raise DocumentError(name, f"unsupported file type {ext!r}: expected {ACCEPTED_FORMATS}", hint=hint)
    handle, size, _ = open_checked(p, "contract")
    with handle:
        _check_bytes(name, size)
        try:
            data = handle.read(MAX_DOCUMENT_BYTES + 1)
        except OSError as exc:
            raise DocumentError(name, f"cannot be opened ({exc.strerror or exc})") from exc
    return read_bytes(data, name, ext or None)


def read_bytes(data: bytes, source: str, ext: str | None = None) -> Document:
    """Raw bytes (a file, stdin, an upload). ``ext`` picks the format; ``None`` sniffs it."""
    _check_bytes(source, len(data))
    kind = _kind(data, ext)
    if kind == "pdf":
        return _read_pdf(data, source)
    if kind == "docx":
        return _read_docx(data, source)
    text, encoding = decode_text(data, source)
    doc = read_text(text, source)
    doc.encoding = encoding
    doc.format = "markdown" if ext in (".md", ".markdown") else "text"
    return doc


def decode_text(data: bytes, source: str) -> tuple[str, str]:
    """UTF-8 (with or without BOM), UTF-16 (with or without BOM), GB18030 (a superset of
    GBK/GB2312) or Big5; the encoding found is returned so the report can name it."""

    try:
        text, encoding = decode(data, source)
    except DocumentError as exc:
        if "binary" in exc.problem:
            raise DocumentError(source, f"binary data, not text: expected {ACCEPTED_FORMATS}") from None
        raise
    return text, {"utf-16-le": "utf-16", "utf-16-be": "utf-16"}.get(encoding, encoding)


def _kind(data: bytes, ext: str | None) -> str:
    if ext in PDF_EXTENSIONS:
        return "pdf"
    if ext in DOCX_EXTENSIONS:
        return "docx"
    if ext in TEXT_EXTENSIONS:
        return "text"
    head = data[:1024].lstrip()
    if head.startswith(b"%PDF"):
        return "pdf"
    if data.startswith(b"PK\x03\x04") and b"word/" in data[:65536]:
        return "docx"
    return "text"


def _check_bytes(source: str, size: int) -> None:
    if size > MAX_DOCUMENT_BYTES:
        raise DocumentError(
            source,
            f"too large: {size / 2**20:.1f} MB, the limit is {MAX_DOCUMENT_BYTES / 2**20:.0f} MB",
            hint="review the contract and its annexes as separate files",
        )


def _check_chars(source: str, count: int) -> None:
    if count > MAX_DOCUMENT_CHARS:
        raise DocumentError(
            source,
            f"too long: {count:,} characters of text, the limit is {MAX_DOCUMENT_CHARS:,}",
            hint="review the contract and its annexes as separate files",
        )


def _read_pdf(data: bytes, source: str) -> Document:
    import pypdf
    from pypdf.errors import DependencyError, LimitReachedError, PyPdfError

    if not data.lstrip()[:1024].startswith(b"%PDF"):
        raise DocumentError(source, "not a valid PDF (no %PDF header)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            reader = pypdf.PdfReader(io.BytesIO(data))
            if reader.is_encrypted and not _unlock(reader):
                raise DocumentError(source, "the PDF is password-protected", hint="remove the password and try again")
            pages = _pdf_pages(reader, source)
        except DocumentError:
            raise
        except LimitReachedError as exc:
            raise DocumentError(source, f"refused: a PDF stream decompresses beyond the reader's limit ({exc})") from None
        except DependencyError as exc:
            raise DocumentError(source, "the PDF is encrypted", hint="remove the password and try again") from exc
        except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError, OSError) as exc:
            raise DocumentError(source, f"corrupt or unreadable PDF ({type(exc).__name__})") from exc
        except RecursionError as exc:
            raise DocumentError(source, "corrupt or unreadable PDF (recursive structure)") from exc
    if not any(p.text.strip() for p in pages):
        raise DocumentError(source, "the PDF has no text layer (a scanned image?)", hint="run OCR first or paste the text")
    _check_chars(source, sum(len(p.text) for p in pages))
    return Document(source=source, pages=pages, format="pdf")


def _pdf_pages(reader, source: str) -> list[Page]:  # type: ignore[no-untyped-def]
    """Text of every page, refusing more pages or text than ``knowledge/limits.yaml`` allows."""
    max_pages, max_chars = int(read_limit("pdf_max_pages")), int(read_limit("pdf_max_text_chars"))
    count = len(reader.pages)
    if count > max_pages:
        raise DocumentError(source, f"refused: {count:,} pages, over the limit of {max_pages:,}",
                            hint="limits.reads.pdf_max_pages in advisor.yaml raises it")
    pages: list[Page] = []
    chars = 0
    for i, page in enumerate(reader.pages):
        text = _clean(page.extract_text() or "")
        chars += len(text)
        if chars > max_chars:
            raise DocumentError(source, f"refused: more than {max_chars:,} characters of text",
                                hint="limits.reads.pdf_max_text_chars in advisor.yaml raises it")
        pages.append(Page(i + 1, text))
    return pages


def _unlock(reader) -> bool:  # type: ignore[no-untyped-def]
    """An owner-password-only PDF opens with the empty user password."""
    try:
        return bool(reader.decrypt(""))
    except Exception:  # noqa: BLE001 - any failure means we cannot open it
        return False


def _read_docx(data: bytes, source: str) -> Document:
    if data.startswith(_OLE_MAGIC):
        raise DocumentError(
            source, "password-protected or old binary Word file", hint="remove the password or save as .docx"
        )
    import zipfile

    import docx
    from docx.opc.exceptions import PackageNotFoundError


    check_package(data, source)  # zip bombs, too many parts, XML too deep: refused before parsing
    try:
        document = docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise DocumentError(source, f"corrupt or unreadable .docx ({type(exc).__name__})") from exc
    pages = _docx_pages(document)
    for label, lines in extra_parts(data, source):  # headers, footers, footnotes, endnotes, comments
        pages.append(Page(len(pages) + 1, "\n".join(lines), label=label))
    if not any(p.text.strip() for p in pages):
        raise DocumentError(source, "the .docx has no text")
    _check_chars(source, sum(len(p.text) for p in pages))
    return Document(source=source, pages=pages, format="docx")


def _docx_pages(document) -> list[Page]:  # type: ignore[no-untyped-def]
    """Paragraphs and table rows in body order; explicit page breaks start a new page."""
    from docx.oxml.ns import qn

    pages: list[list[str]] = [[]]
    for block in document.element.body.iterchildren():
        if block.tag == qn("w:p"):
            breaks = [
                br
                for br in block.iter(qn("w:br"))
                if br.get(qn("w:type")) == "page"
            ]
            text = "".join(t.text or "" for t in block.iter(qn("w:t")))
            if breaks and pages[-1]:
                pages.append([])
            pages[-1].append(text)
        elif block.tag == qn("w:tbl"):
            for row in block.iter(qn("w:tr")):
                cells = ["".join(t.text or "" for t in cell.iter(qn("w:t"))).strip() for cell in row.iter(qn("w:tc"))]
                pages[-1].append(" | ".join(c for c in cells if c))
    return [Page(i + 1, "\n".join(lines)) for i, lines in enumerate(pages)]


def _clean(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
