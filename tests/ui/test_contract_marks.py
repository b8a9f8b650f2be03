"""The contract highlighter marks every clause a finding quotes, read from the typed view
(FindingLine.quotes), not only the clause shown first."""

from __future__ import annotations

import html
import random
import re
from pathlib import Path

import pytest

from advisor.present import present
from advisor.tools import review_contract
from ui.components.contract import highlighted_html, quotes, upload_text

CONTRACTS = Path(__file__).resolve().parents[1] / "fixtures" / "contracts"


def _quoted(evidence: dict) -> set[str]:
    values = [v for value in evidence.values() for v in (value if isinstance(value, list) else [value])]
    return {str(v.get("quote") or v.get("context")) for v in values if isinstance(v, dict) and (v.get("quote") or v.get("context"))}


@pytest.mark.parametrize(("name", "lang"), [("en_gpu_cloud_trap.txt", "en"), ("zh_trap_compute_lease.txt", "zh")])
def test_every_quoted_clause_of_every_finding_is_marked(name: str, lang: str) -> None:
    text = (CONTRACTS / name).read_text("utf-8")
    report = review_contract(text=text, lang=lang)
    view = present("review_contract", report, lang)
    for line, finding in zip(view.findings, sorted(report.findings, key=lambda f: {"critical": 0, "warning": 1}.get(f.severity, 2)),
                             strict=True):
        assert {q.text for q in line.quotes} == _quoted(finding.evidence), line.rule_id
    several = [f for f in view.findings if len(f.quotes) > 1]
    assert several, "the fixture has findings that quote several clauses"
    marks = quotes(view)
    assert len(marks) == sum(len(f.quotes) for f in view.findings)
    marked = [html.unescape(m) for m in re.findall(r"<mark [^>]*>(.*?)</mark>", highlighted_html(text, marks), re.S)]
    for f in several:  # each of its clauses is marked (by it, or by a more severe finding quoting the same lines)
        for q in (q.text for q in f.quotes):
            core = " ".join(q.rstrip("…").split())[:30]
            assert any(core in " ".join(m.split()) or " ".join(m.split())[:30] in " ".join(q.split()) for m in marked), (f.rule_id, q)


@pytest.mark.parametrize(("name", "encoding"), [("zh_trap_compute_lease.txt", "utf-16"), ("zh_trap_compute_lease.txt", "big5"),
                                                ("zh_trap_compute_lease.txt", "utf-8-sig"), ("en_gpu_cloud_trap.txt", "utf-16-le")])
def test_an_upload_is_shown_as_the_review_reads_it(tmp_path: Path, name: str, encoding: str) -> None:
    """The text beside the findings is decoded as the review decodes the file, so the clauses a
    finding quotes are marked in it whatever the file's encoding."""
    text = (CONTRACTS / name).read_text("utf-8")
    if encoding == "big5":  # Big5 has traditional characters only: the fixture as Taiwanese text would read
        text = text.encode("big5", errors="ignore").decode("big5")
    data = text.encode(encoding)
    shown = upload_text(data, name)
    assert shown is not None and " ".join(shown.split()) == " ".join(text.lstrip("\ufeff").split())
    path = tmp_path / name
    path.write_bytes(data)
    view = present("review_contract", review_contract(path=str(path)), "en")
    assert view.findings and quotes(view)
    assert "<mark " in highlighted_html(shown, quotes(view))


def test_binary_upload_shows_no_text() -> None:
    image = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + random.Random(0).randbytes(2048)  # an image renamed .txt
    assert upload_text(image, "scan.txt") is None
