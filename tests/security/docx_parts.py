"""Minimal DOCX files built in memory for the reader and injection tests: a body, plus any extra
parts (headers, footnotes, comments, oversized or deeply nested XML)."""

from __future__ import annotations

import io
import zipfile

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
CONTENT_TYPES = (
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.'
    'wordprocessingml.document.main+xml"/></Types>')
RELS = ('<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
        'officeDocument" Target="word/document.xml"/></Relationships>')


def docx_with(parts: dict[str, str], body: str | list[str] = "1. Fees. The customer pays monthly.") -> bytes:
    """A DOCX whose body holds ``body`` (one paragraph per item) and the given extra parts."""
    paragraphs = "".join(f"<w:p><w:r><w:t>{p}</w:t></w:r></w:p>" for p in ([body] if isinstance(body, str) else body))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", CONTENT_TYPES)
        z.writestr("_rels/.rels", RELS)
        z.writestr("word/document.xml", f'<?xml version="1.0"?><w:document {W}><w:body>{paragraphs}</w:body></w:document>')
        for name, xml in parts.items():
            z.writestr(name, xml)
    return buf.getvalue()


def note_part(root: str, item: str, text: str, item_id: str = "1") -> str:
    """A footnotes/endnotes/comments part with one item holding ``text``."""
    return (f'<?xml version="1.0"?><w:{root} {W}><w:{item} w:id="{item_id}"><w:p><w:r><w:t>{text}</w:t></w:r></w:p>'
            f'</w:{item}></w:{root}>')
