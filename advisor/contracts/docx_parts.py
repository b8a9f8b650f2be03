"""DOCX packages: refuse what would blow up memory, and read the parts beside the body.

:func:`check_package` runs before python-docx parses anything. A DOCX is a zip of XML parts;
it is refused (one line naming the limit, from ``knowledge/limits.yaml`` ``reads``) when the
zip declares more decompressed bytes than ``docx_max_uncompressed_bytes``, more parts than
``docx_max_parts``, a part that expands more than ``docx_max_compression_ratio`` times, or XML
nested deeper than ``xml_max_depth``. (Python's zip reader never returns more bytes than a
part declares, so the declared sizes bound what is read.)

:func:`extra_parts` returns the text of headers, footers, footnotes, endnotes and comments,
which a contract can hide clauses (or instructions) in; they are reviewed like the body.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator

from advisor.errors import DocumentError
from advisor.limits import read_limit

W_NS = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_PARTS = (("header", re.compile(r"^word/header\d*\.xml$")), ("footer", re.compile(r"^word/footer\d*\.xml$")),
          ("footnotes", re.compile(r"^word/footnotes\.xml$")), ("endnotes", re.compile(r"^word/endnotes\.xml$")),
          ("comments", re.compile(r"^word/comments\.xml$")))


def _refuse(source: str, what: str, limit: float, key: str) -> DocumentError:
    return DocumentError(source, f"refused: {what}, over the limit of {limit:,.0f}",
                         hint=f"limits.reads.{key} in advisor.yaml raises it")


def check_package(data: bytes, source: str) -> None:
    """Refuse zip bombs, part floods and over-deep XML before the DOCX is parsed."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise DocumentError(source, f"corrupt or unreadable .docx ({type(exc).__name__})") from None
    with archive:
        infos = archive.infolist()
        max_parts = read_limit("docx_max_parts")
        if len(infos) > max_parts:
            raise _refuse(source, f"the .docx has {len(infos):,} parts", max_parts, "docx_max_parts")
        total = sum(i.file_size for i in infos)
        max_total = read_limit("docx_max_uncompressed_bytes")
        if total > max_total:
            raise _refuse(source, f"the .docx decompresses to {total:,} bytes", max_total, "docx_max_uncompressed_bytes")
        ratio_limit = read_limit("docx_max_compression_ratio")
        for info in infos:
            if info.file_size > 1_000_000 and info.file_size > ratio_limit * max(info.compress_size, 1):
                ratio = info.file_size / max(info.compress_size, 1)
                raise _refuse(source, f"part {info.filename} expands {ratio:,.0f} times", ratio_limit,
                              "docx_max_compression_ratio")
        depth_limit = int(read_limit("xml_max_depth"))
        for info in infos:
            if info.filename.endswith((".xml", ".rels")):
                _check_depth(archive, info.filename, depth_limit, source)


def _check_depth(archive: zipfile.ZipFile, name: str, limit: int, source: str) -> None:
    from lxml import etree

    depth = 0
    try:
        with archive.open(name) as part:
            for event, _ in etree.iterparse(part, events=("start", "end"), resolve_entities=False,
                                            no_network=True, huge_tree=False):
                depth += 1 if event == "start" else -1
                if depth > limit:
                    raise _refuse(source, f"XML in {name} is nested deeper than {limit} levels", limit,
                                  "xml_max_depth")
    except DocumentError:
        raise
    except (etree.XMLSyntaxError, zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise DocumentError(source, f"corrupt or unreadable .docx ({type(exc).__name__} in {name})") from None


def extra_parts(data: bytes, source: str) -> Iterator[tuple[str, list[str]]]:
    """``(label, paragraphs)`` for every header, footer, footnotes, endnotes and comments part
    that has text, in that order (Word's separator footnotes are empty and left out)."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = sorted(archive.namelist())
        for label, pattern in _PARTS:
            for name in (n for n in names if pattern.match(n)):
                try:
                    root = etree.fromstring(archive.read(name), parser)
                except (etree.XMLSyntaxError, zipfile.BadZipFile, OSError, ValueError) as exc:
                    raise DocumentError(source, f"corrupt or unreadable .docx ({type(exc).__name__} in {name})") from None
                lines = []
                for paragraph in root.iter(f"{W_NS}p"):
                    text = "".join(t.text or "" for t in paragraph.iter(f"{W_NS}t")).strip()
                    if text:
                        lines.append(text)
                if lines:
                    yield label, lines
