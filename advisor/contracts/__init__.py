"""Contract review, below the tool: documents -> clauses -> detector hits -> facts -> findings.

::

    reader.py      .txt/.md (UTF-8, GB18030/GBK), .pdf, .docx, pasted text -> Document (pages)
    clauses.py     Document -> clauses and sentences with section, page and line
    numbers.py     "三十日", "twelve (12) months", "200%", "¥5,000" -> days, months, percent, money
    patterns.yaml  the detector vocabulary (English and Chinese), as data
    vocabulary.py  loads and compiles it;  parties.py  who is provider, who is customer
    detectors.py   sentences -> hits (trap / protect / present) with values.py's numbers
    facts.py       hits -> the flat facts of rules/facts/contract.yaml, with quoted evidence
    injection.py   instructions aimed at an AI reviewer: reported, never followed
    checklist.py   every DESIGN.md category with its status and clause
    review.py      the whole review (the `contract` rule pack decides the findings)
    markdown.py    the report as Markdown

The public entry point is :func:`advisor.tools.review_contract`.
"""

from advisor.contracts.reader import Document, read_bytes, read_path, read_text
from advisor.contracts.review import Review, detect_language, review_document

__all__ = ["Document", "Review", "detect_language", "read_bytes", "read_path", "read_text", "review_document"]
