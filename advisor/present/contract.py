"""Contract review -> view: findings by severity with the quoted clauses, the full checklist."""

from __future__ import annotations

from advisor.contracts.checklist import primary_evidence
from advisor.glossary import term
from advisor.present import common
from advisor.present.view import Figure, Table, View
from advisor.tools.contract import ContractReport


def present_contract(r: ContractReport, lang: str) -> View:
    counts = {s: sum(1 for f in r.findings if f.severity == s) for s in ("critical", "warning", "info")}
    head = Figure("critical", term("severity.critical", lang), str(counts["critical"]), raw=float(counts["critical"]))
    figures = [Figure(s, term(f"severity.{s}", lang), str(counts[s]), raw=float(counts[s])) for s in ("warning", "info")]
    figures.append(Figure("clauses", term("label.clauses", lang), str(r.clause_count), raw=float(r.clause_count)))
    summary = term("summary.contract", lang, c=counts["critical"], w=counts["warning"], i=counts["info"],
                   n=len(r.checklist))
    lines = common.findings(r.findings, lang)
    by_rule = {f.rule_id: f for f in lines}
    for line, f in zip(lines, sorted(r.findings, key=lambda f: {"critical": 0, "warning": 1}.get(f.severity, 2)),
                       strict=True):
        primary = (primary_evidence(f) or {}).get("quote")
        line.quotes.sort(key=lambda q: q.text != primary)
    rows = []
    for item in r.checklist:
        note = next((by_rule[rid].title for rid in item.rules if rid in by_rule), None) or term(
            f"contract.note.{item.status}", lang)
        rows.append([term(f"category.{item.category}", lang), term(f"contract.status.{item.status}", lang), note,
                     (item.clause or "")[:160]])
    table = Table("checklist", term("label.checklist", lang, n=len(r.checklist)),
                  [term("col.category", lang), term("col.status", lang), term("col.note", lang), term("col.clause", lang)],
                  rows, muted=[i.status == "not_applicable" for i in r.checklist])
    notes = [term("label.injection", lang)] if r.injection_detected else []
    understood = [term("label.contract_read", lang, pages=r.pages, clauses=r.clause_count)]
    return View(summary=summary, headline=head, figures=figures, understood=understood, findings=lines, notes=notes,
                tables=[table])
