"""The contract highlighter marks every clause a finding quotes, read from the typed view
(FindingLine.quotes), not only the clause shown first."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from advisor.present import present
from advisor.tools import review_contract
from ui.components.contract import highlighted_html, quotes

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
