"""The contract review, end to end: document -> clauses -> hits -> facts -> findings -> checklist.

Deterministic Python finds and normalizes the facts; the `contract` rule pack decides what is
a finding. An optional ``suggest`` callable (an LLM, when one is configured) may point at
extra sentences worth checking; each suggestion must quote the document verbatim, and it only
becomes a fact if a detector recognizes it: the rules still decide.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from advisor.contracts.checklist import ChecklistItem, build_checklist, is_missing_rule
from advisor.contracts.clauses import Clause, Sentence, split_clauses
from advisor.contracts.detectors import Hit, detect, detect_sentences
from advisor.contracts.facts import build_facts
from advisor.contracts.injection import find_injections, injection_facts
from advisor.contracts.numbers import find_money
from advisor.contracts.parties import Layout, read_parties
from advisor.contracts.reader import Document
from advisor.contracts.simplified import to_simplified
from advisor.findings import Finding
from advisor.glossary import term
from advisor.progress import Progress, step
from advisor.rules import evaluate

PACK = "contract"
Suggester = Callable[[list[str]], list[str]]

_CJK_RE = re.compile(r"[\u4e00-\u9fff]")
_LATIN_RE = re.compile(r"[A-Za-z]")


@dataclass
class Review:
    """Everything a review found; the tool turns it into the public report."""

    document: Document
    language: str
    clauses: list[Clause]
    hits: list[Hit]
    facts: dict[str, Any]
    findings: list[Finding]
    checklist: list[ChecklistItem]
    injections: list[Sentence] = field(default_factory=list)


def detect_language(text: str) -> str:
    """``zh`` when Chinese characters make up a good share of the letters, else ``en``."""
    sample = text[:200_000]
    cjk = len(_CJK_RE.findall(sample))
    latin = len(_LATIN_RE.findall(sample))
    return "zh" if cjk and cjk * 3 >= latin * 0.5 else "en"


def review_document(
    doc: Document,
    *,
    lang: str | None = None,
    monthly_fee: float | None = None,
    currency: str | None = None,
    suggest: Suggester | None = None,
    progress: Progress | None = None,
) -> Review:
    """Review ``doc``. ``lang`` picks the language of the texts (default: the document's);
    ``progress`` gets the clauses checked so far (in about 20 steps) and the rules step."""
    language = lang or detect_language(doc.text)
    clauses = split_clauses(doc)
    plain = to_simplified(doc.text)
    zh_provider = read_parties(plain)
    hits: list[Hit] = []
    batch = max(1, len(clauses) // 20 if progress is not None else len(clauses))
    for i in range(0, len(clauses), batch):  # clauses are independent: batches give the same hits
        step(progress, term("progress.clauses", language, done=i, total=len(clauses)), i, len(clauses))
        hits.extend(detect(clauses[i:i + batch], zh_provider=zh_provider))
    if suggest is not None:
        hits.extend(_suggested_hits(clauses, hits, suggest, zh_provider))
    injections = find_injections(clauses)
    said = {id(s) for s in injections}  # an instruction to the reader is evidence of a trap, never of a protection
    hits = [h for h in hits if h.kind in ("trap", "denied") or id(h.sentence) not in said]
    facts = build_facts(hits, monthly_fee=monthly_fee, currency=currency or _default_currency(plain, language))
    facts["clause_count"] = len(clauses)
    found = injection_facts(injections)
    evidence = {**facts.get("_evidence", {}), **found.pop("_evidence", {})}
    facts.update(found)
    facts["_evidence"] = evidence
    step(progress, term("progress.rules", language), len(clauses), len(clauses))
    findings = evaluate(PACK, facts, lang=language)
    findings = [_as_missing(f) if is_missing_rule(f.rule_id) else f for f in findings]
    checklist = build_checklist(findings, hits, language)
    return Review(doc, language, clauses, hits, facts, findings, checklist, injections)


def _as_missing(finding: Finding) -> Finding:
    """A missing protection quotes no clause of its own: clauses it cites (the term that makes
    a price lock matter, say) are kept as ``context``, so that ``quote`` always means "this
    clause is the problem"."""
    evidence = {}
    for key, value in finding.evidence.items():
        if isinstance(value, dict) and "quote" in value:
            value = {("context" if k == "quote" else k): v for k, v in value.items()}
        evidence[key] = value
    return finding.model_copy(update={"evidence": evidence})


def _default_currency(text: str, language: str) -> str:
    """The currency of the first amount in the contract, else CNY for Chinese, USD otherwise."""
    found = find_money(text[:100_000])
    if found:
        return found[0].money.currency
    return "CNY" if language == "zh" else "USD"


def _suggested_hits(clauses: list[Clause], hits: list[Hit], suggest: Suggester, zh_provider: Layout) -> list[Hit]:
    sentences = [s for c in clauses for s in c.sentences]
    seen = {id(h.sentence) for h in hits}
    try:
        quotes = suggest([s.quote for s in sentences])
    except Exception:  # noqa: BLE001 - a failing suggester must not break a deterministic review
        return []
    picked = [s for s in sentences if id(s) not in seen and any(q and q.strip() in s.quote for q in quotes)]
    return detect_sentences(picked, zh_provider=zh_provider)
