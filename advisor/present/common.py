"""Parts every presenter shares: findings, assumptions, the headline money figure."""

from __future__ import annotations

from typing import Any

from advisor.findings import Assumption, Finding
from advisor.glossary import has, term, unit
from advisor.present import fmt
from advisor.present.view import Figure, FindingLine, Table


def findings(items: list[Finding], lang: str) -> list[FindingLine]:
    """Each finding once, most severe first, in ``lang``."""
    order = {"critical": 0, "warning": 1, "info": 2}
    out = []
    for f in sorted(items, key=lambda f: order.get(f.severity, 3)):
        text = f.text.get(lang) or f.text.get("en")  # type: ignore[call-overload]
        title = text.title if text else f.title
        amount = fmt.money(f.savings.amount, f.savings.currency) if f.savings else None
        out.append(FindingLine(
            rule_id=f.rule_id, severity=f.severity, severity_label=term(f"severity.{f.severity}", lang),
            title=title, detail=text.detail if text else f.detail,
            recommendation=text.recommendation if text else f.recommendation,
            saving=term("label.saves", lang, amount=amount) if amount and amount not in title else None,
            source=fmt.public_source(f.source) if f.source else None, evidence=dict(f.evidence), category=f.category,
        ))
    return out


def assumption_name(name: str, lang: str) -> str:
    key = f"assumption.{name}"
    return term(key, lang) if has(key) else name


def assumption_value(a: Assumption, lang: str) -> str:
    if isinstance(a.value, dict | list):
        return term("value.table", lang)
    if isinstance(a.value, bool):
        return term("value.yes" if a.value else "value.no", lang)
    value = fmt.number(a.value) if isinstance(a.value, int | float) else str(a.value)
    return f"{value} {unit(a.unit, lang)}".strip() if a.unit else value


def assumption_source(a: Assumption, lang: str) -> str:
    key = f"source.{a.name}"
    return term(key, lang) if lang == "zh" and has(key) else fmt.public_source(a.source)


def assumptions(items: list[Assumption], lang: str) -> Table:
    rows = [[assumption_name(a.name, lang), assumption_value(a, lang), assumption_source(a, lang)] for a in items]
    return Table("assumptions", term("label.assumptions", lang),
                 [term("col.name", lang), term("col.value", lang), term("col.source", lang)], rows)


def money_figure(key: str, label_key: str, total: float, low: float | None, high: float | None, currency: str,
                 lang: str) -> Figure:
    rng = None
    if low is not None and high is not None and (abs(high - low) > 1e-9):
        rng = term("label.range", lang, low=fmt.money(low, currency), high=fmt.money(high, currency))
    return Figure(key, term(label_key, lang), fmt.money(total, currency), range=rng, raw=float(total))


def lang_of(report: Any, lang: str | None) -> str:
    if lang in ("zh", "en"):
        return lang
    inputs = getattr(report, "inputs", None)
    got = inputs.get("lang") if isinstance(inputs, dict) else getattr(inputs, "lang", None)
    return "zh" if got == "zh" else "en"
