"""Reading a finding's evidence: the conditions its rule tested, the clauses it quotes, the
other facts (the cards themselves are drawn from the view: ui/components/view.py)."""

from __future__ import annotations

from typing import Any

from advisor.glossary import term

OPERATORS = {"eq": "=", "ne": "≠", "lt": "<", "lte": "≤", "gt": ">", "gte": "≥", "in": "∈", "not_in": "∉",
             "exists": "is set", "not_exists": "is not set", "matches": "~"}


def quote_of(value: Any) -> dict[str, Any] | None:
    """A clause quoted as evidence: ``{quote, where, where_zh, location[, value]}`` (a fact read from a
    clause names it ``context``)."""
    if isinstance(value, dict) and not value.get("quote") and value.get("context"):
        value = {**value, "quote": value["context"]}
    return value if isinstance(value, dict) and value.get("quote") else None


def condition_text(c: dict[str, Any], lang: str = "en") -> tuple[str, str, str]:
    """(fact, the rule's test, the actual value) of one matched condition."""
    op = str(c.get("operator", ""))
    test = term(f"op.{op}", lang) if op in ("exists", "not_exists") else OPERATORS.get(op, op)
    if op not in ("exists", "not_exists"):
        test = f"{test} {_value(c.get('value'), lang)}"
    return str(c.get("fact", "")), test, _value(c.get("actual"), lang)


def evidence_parts(evidence: dict[str, Any], lang: str = "en") -> tuple[list[dict[str, Any]], list[dict[str, Any]],
                                                                         list[tuple[str, str]]]:
    """The matched conditions, the quoted clauses (each once) and the other facts."""
    conditions = [c for c in evidence.get("conditions") or [] if isinstance(c, dict)]
    quotes: list[dict[str, Any]] = []
    facts: list[tuple[str, str]] = []
    for name, value in evidence.items():
        if name == "conditions":
            continue
        items = value if isinstance(value, list) and value and all(quote_of(v) for v in value) else [value]
        for item in items:
            q = quote_of(item)
            if q:
                if all(q["quote"] != seen["quote"] for seen in quotes):
                    quotes.append(q)
                if "value" in q:
                    facts.append((str(name), _value(q["value"], lang)))
            else:
                facts.append((str(name), _value(item, lang)))
    return conditions, quotes, facts


def _value(value: Any, lang: str = "en") -> str:
    if isinstance(value, bool):
        return term("value.yes" if value else "value.no", lang) if lang == "zh" else str(value).lower()
    if value is None:
        return "—" if lang == "zh" else "none"
    if isinstance(value, float):
        return f"{value:,.4g}" if abs(value) < 1e6 else f"{value:,.0f}"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_value(v, lang)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_value(v, lang) for v in value)
    return str(value)
