"""The review checklist: every DESIGN.md contract category with its status and the clause behind it.

A reviewer should see what was checked, not only what was wrong. Status per category:

- ``trap``            a rule of the category fired on a clause that is present;
- ``missing``         only a missing-protection rule fired (ids ``contract.missing_*``);
- ``ok``              the contract addresses the category and no rule objected (a protective
                      clause, or a neutral one), quoted;
- ``not_applicable``  the contract does not mention it and its absence costs nothing.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from advisor.contracts.detectors import Hit
from advisor.contracts.vocabulary import detectors
from advisor.findings import Finding
from advisor.glossary import term as glossary_term
from advisor.rules.schema import CONTRACT_CATEGORIES

Status = Literal["ok", "trap", "missing", "not_applicable"]
MISSING_PREFIX = "contract.missing_"


class ChecklistItem(BaseModel):
    """One row of the checklist. ``label`` and ``status_label`` are the category and status
    in the report's language (Chinese reports say 自动续约 / 陷阱, never auto_renewal / trap)."""

    category: str
    label: str = ""
    status: Status
    status_label: str = ""
    clause: str | None = None
    location: dict[str, Any] | None = None
    note: str
    rules: list[str] = []


def term(key: str, lang: str) -> str:
    """A contract term in ``lang`` from the project glossary: ``category.<id>``,
    ``contract.status.<status>``, ``severity.<severity>``."""

    return glossary_term(key, _lang(lang))


def category_name(category: str, lang: str) -> str:
    return term(f"category.{category}", lang)


def _labelled(items: list[ChecklistItem], lang: str) -> list[ChecklistItem]:
    for item in items:
        item.label = category_name(item.category, lang)
        item.status_label = term(f"contract.status.{item.status}", lang)
    return items


def _checklist_kinds(detector: str) -> tuple[str, ...]:
    spec = next((d for d in detectors() if d.name == detector), None)
    return spec.checklist_kinds if spec else ("trap", "protect", "present")


def is_missing_rule(rule_id: str) -> bool:
    return rule_id.startswith(MISSING_PREFIX)


def build_checklist(findings: list[Finding], hits: list[Hit], lang: str = "en") -> list[ChecklistItem]:
    """One item per DESIGN.md category, in the DESIGN.md order."""
    items: list[ChecklistItem] = []
    for category in CONTRACT_CATEGORIES:
        found = [f for f in findings if f.category == category]
        traps = [f for f in found if not is_missing_rule(f.rule_id)]
        missing = [f for f in found if is_missing_rule(f.rule_id)]
        cat_hits = [h for h in hits if h.category == category and h.kind in _checklist_kinds(h.detector)]
        if traps:
            quote, location = _quote_of(traps)
            items.append(ChecklistItem(category=category, status="trap", clause=quote, location=location,
                                       note=traps[0].text[_lang(lang)].title, rules=[f.rule_id for f in found]))
        elif missing:
            items.append(ChecklistItem(category=category, status="missing", note=missing[0].text[_lang(lang)].title,
                                       rules=[f.rule_id for f in missing]))
        elif cat_hits:
            protect = [h for h in cat_hits if h.kind == "protect"]
            pool = protect or cat_hits
            hit = next((h for h in pool if len(h.quote) >= 16), pool[0])  # a sentence, not a heading
            key = "contract.note.protect" if protect else "contract.note.ok"
            items.append(ChecklistItem(category=category, status="ok", clause=hit.evidence()["quote"],  # type: ignore[arg-type]
                                       location=hit.sentence.location.as_dict(), note=glossary_term(key, lang)))
        else:
            items.append(ChecklistItem(category=category, status="not_applicable",
                                       note=glossary_term("contract.note.not_applicable", lang)))
    return _labelled(items, lang)


def primary_evidence(finding: Finding) -> dict[str, Any] | None:
    """The quoted clause behind a finding: that of the first condition's fact, else any."""
    ev = finding.evidence
    facts = [c.get("fact") for c in ev.get("conditions") or [] if isinstance(c, dict)]
    for name in [*facts, *ev.keys()]:
        value = ev.get(name) if isinstance(name, str) else None
        if isinstance(value, dict) and value.get("quote"):
            return value
    return None


def _quote_of(findings: list[Finding]) -> tuple[str | None, dict[str, Any] | None]:
    for f in findings:
        value = primary_evidence(f)
        if value:
            return str(value["quote"]), value.get("location")
    return None, None


def _lang(lang: str) -> Literal["en", "zh"]:
    return "zh" if lang == "zh" else "en"
