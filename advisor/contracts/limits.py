"""Size limits for documents under review, with the reason for each figure.

A long compute-rental master agreement with its order forms and SLA annex runs to about
100 pages, roughly 300,000 characters of text (a dense page holds 2,500–3,500 characters).
The limits leave more than six times that headroom while keeping one review bounded in
memory and time: the detectors handle 100 pages in well under 2 s (``bench/bench_contracts.py``),
so 2,000,000 characters stays within a few seconds. A PDF carries images and fonts besides
its text, so the byte limit is generous: 20 MB holds a scanned-free contract of several
hundred pages. Anything larger is almost certainly not a single contract.
"""

from __future__ import annotations

from advisor.limits import read_limit

MAX_DOCUMENT_BYTES = int(read_limit("max_file_bytes", "contract"))
"""Largest file (or stdin / pasted input) read, in bytes: 20 MiB (knowledge/limits.yaml)."""

MAX_DOCUMENT_CHARS = int(read_limit("max_text_chars"))
"""Largest extracted text reviewed, in characters (about 600 dense pages; knowledge/limits.yaml)."""

TEXT_EXTENSIONS = (".txt", ".md", ".markdown", ".text")
PDF_EXTENSIONS = (".pdf",)
DOCX_EXTENSIONS = (".docx",)
ACCEPTED_FORMATS = ".txt, .md, .pdf or .docx (or '-' for stdin)"
