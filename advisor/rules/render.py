"""Turning a rule that fired into a :class:`Finding`: texts in both languages, the evidence
(which conditions held, with the actual values), and the savings as money.

Called by the host for each rule that fired, from the same facts the engine saw.
"""

from __future__ import annotations

import copy
from typing import Any

from advisor.findings import Finding, FindingText
from advisor.money import CURRENCIES, Money
from advisor.rules.conditions import matched_leaves
from advisor.rules.loader import LANGS, Rule


def build_finding(rule: Rule, facts: dict[str, Any], raw_facts: dict[str, Any], lang: str) -> Finding:
    """The finding of ``rule`` for normalized ``facts``; ``raw_facts`` supplies ``_evidence``."""
    text = {
        lg: FindingText(**{part: template.render(facts, lg) for part, template in rule.text[lg].items()})
        for lg in LANGS
    }
    shown = text[lang]
    return Finding(
        rule_id=rule.id,
        pack=rule.pack,
        category=rule.category,
        severity=rule.severity,  # type: ignore[arg-type]
        title=shown.title,
        detail=shown.detail,
        recommendation=shown.recommendation,
        lang=lang,  # type: ignore[arg-type]
        text=text,  # type: ignore[arg-type]
        evidence=evidence_of(rule, facts, raw_facts),
        savings=savings_of(rule, facts),
        requirement=list(rule.requirement),
        source=rule.source,
    )


def evidence_of(rule: Rule, facts: dict[str, Any], raw_facts: dict[str, Any]) -> dict[str, Any]:
    """``{"conditions": [{fact, operator, value, actual}], <evidence fact>: value, ...}``.

    An ``_evidence`` entry (a quote and its location, say) of any fact the rule uses is
    copied under that fact's name; a dict entry gains the fact's ``value`` if it has none.
    """
    evidence: dict[str, Any] = {"conditions": [leaf.record(facts) for leaf in matched_leaves(rule.when, facts)]}
    for name in rule.evidence:
        if name in facts:
            evidence[name] = facts[name]
    extra = raw_facts.get("_evidence")
    if isinstance(extra, dict):
        for name in sorted(rule.uses & extra.keys()):
            entry = copy.deepcopy(extra[name])
            if isinstance(entry, dict) and "value" not in entry and name in facts:
                entry = {"value": facts[name], **entry}
            evidence[name] = entry
    return evidence


def savings_of(rule: Rule, facts: dict[str, Any]) -> Money | None:
    """The rule's savings expression as money, when it is positive and the currency known."""
    if rule.savings is None:
        return None
    amount = rule.savings.evaluate(facts)
    currency = facts.get("currency")
    if amount is None or amount <= 0 or currency not in CURRENCIES:
        return None
    return Money(amount=round(amount, 2), currency=currency)
