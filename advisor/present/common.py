"""Parts every presenter shares: findings, assumptions, the headline money figure."""

from __future__ import annotations

from typing import Any

from advisor.findings import Assumption, Finding
from advisor.glossary import entries, has, term, unit
from advisor.present import fmt
from advisor.present.view import Figure, FindingLine, Quote, Table

SYMBOLS = {"eq": "=", "ne": "≠", "lt": "<", "lte": "≤", "gt": ">", "gte": "≥", "in": "∈", "not_in": "∉", "matches": "~"}


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
            source=rule_source(f.rule_id, f.source, lang), category=f.category, **evidence(f.evidence, lang),
        ))
    return out


def evidence(ev: dict[str, Any], lang: str) -> dict[str, Any]:
    """A finding's evidence as the view holds it: the clauses it quotes (each once), the conditions
    its rule tested and the other facts."""
    quotes: dict[str, Quote] = {}
    tested: list[tuple[str, str, str]] = []
    facts: list[tuple[str, str]] = []
    for name, value in ev.items():
        if name == "conditions":
            for c in (c for c in value or [] if isinstance(c, dict)):
                op = str(c.get("operator", ""))
                test = term(f"op.{op}", lang) if op in ("exists", "not_exists") else f"{SYMBOLS.get(op, op)} {_value(c.get('value'), lang)}"
                tested.append((str(c.get("fact", "")), test, _value(c.get("actual"), lang)))
            continue
        for item in value if isinstance(value, list) and value and all(_quoted(v) for v in value) else [value]:
            q = _quoted(item)
            if q is None:
                facts.append((str(name), _value(item, lang)))
                continue
            quotes.setdefault(q, Quote(q, str(item.get("where_zh" if lang == "zh" else "where") or "")))
            if "value" in item:
                facts.append((str(name), _value(item["value"], lang)))
    return {"quotes": list(quotes.values()), "tested": tested, "facts": facts}


def _quoted(value: Any) -> str | None:
    """The clause a piece of evidence quotes (a fact read from a clause names it ``context``)."""
    return str(value.get("quote") or value.get("context")) if isinstance(value, dict) and (value.get("quote") or value.get("context")) else None


def _value(value: Any, lang: str) -> str:
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


def rule_source(rule_id: str, source: str | None, lang: str) -> str | None:
    """Where a rule's practice comes from, in ``lang``: ``source.rule.<rule id>`` from the glossary,
    else (English) the rule's own source without internal references."""
    if not source:
        return None
    key = f"source.rule.{rule_id}"
    return term(key, lang) if lang in entries().get(key, {}) else fmt.public_source(source)


def keyed(prefix: str, name: str, lang: str) -> str | None:
    """``prefix.<name>`` from the glossary; a name with a variable tail (``price_per_gpu_hour.H100-SXM``)
    reads the longest entry it starts with, the tail as ``{sub}``."""
    parts = name.replace("[", ".").rstrip("]").split(".")
    for i in range(len(parts), 0, -1):
        key = f"{prefix}.{'.'.join(parts[:i])}"
        if has(key):
            return term(key, lang, sub=".".join(parts[i:]))
    return None


def assumption_name(name: str, lang: str) -> str:
    return keyed("assumption", name, lang) or name


def assumption_value(a: Assumption, lang: str) -> str:
    if isinstance(a.value, dict | list):
        return term("value.table", lang)
    if isinstance(a.value, bool):
        return term("value.yes" if a.value else "value.no", lang)
    if has(f"shown.{a.name}") and a.source_values:
        value = term(f"shown.{a.name}", lang, **fmt.worded(a.source_values, lang))
    elif isinstance(a.value, str) and has(f"value.{a.value}"):
        value = term(f"value.{a.value}", lang)
    else:
        value = fmt.number(a.value) if isinstance(a.value, int | float) else str(a.value)
    return f"{value} {unit(a.unit, lang)}".strip() if a.unit else value


def assumption_source(a: Assumption, lang: str) -> str:
    """Where the value comes from, as a user reads it: the public source from the glossary, the
    user's own input, or (English only) the maintainers' note without internal references."""
    if a.source.startswith("request"):
        return term("source.request", lang)
    for key in (a.source_key, f"source.{a.name}" if a.source_key is None else None):
        if key and lang in entries().get(key, {}):
            return term(key, lang, **fmt.worded(a.source_values, lang))
    return fmt.public_source(a.source)


def price_line(items: list[Assumption], lang: str, gpu: str | None = None) -> str | None:
    """"Prices: …": the sheet, providers and dates behind the report's price per GPU-hour (of
    ``gpu`` when the report prices several cards), or None when no price was used."""
    names = (f"price_per_gpu_hour.{gpu}", "price_per_gpu_hour", "quote.market")
    a = next((a for n in names for a in items if a.name == n), None)
    a = a or next((a for a in items if a.name.startswith("price_per_gpu_hour.")), None)
    return None if a is None else term("label.priced", lang, source=assumption_source(a, lang))


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


def model_name(inputs: dict[str, Any], lang: str) -> str:
    """The model a request named, else its size ("a 7B model")."""
    return str(inputs.get("model") or term("label.model_size", lang, b=fmt.number(inputs.get("params_b"))))


def job_lines(inputs: dict[str, Any], lang: str, *more: str) -> list[str]:
    """"Job: <model> · <method> · <more>", then the other lines, then the deadline a request gives."""
    job = " · ".join([model_name(inputs, lang), term(f"method.{inputs.get('method')}", lang), *more[:1]])
    deadline = [f"{term('label.deadline', lang)}: {fmt.hours(inputs['deadline_hours'], lang)}"] if inputs.get("deadline_hours") else []
    return [f"{term('label.job', lang)}: {job}", *more[1:], *deadline]


def pairs(key: str, title: str, items: list[tuple[str, str]], lang: str) -> Table:
    """A table of named values (each name a glossary key)."""
    return Table(key, title, [term("col.item", lang), term("col.value", lang)], [[term(k, lang), v] for k, v in items],
                 numeric={1})


def lang_of(report: Any, lang: str | None) -> str:
    if lang in ("zh", "en"):
        return lang
    inputs = getattr(report, "inputs", None)
    got = inputs.get("lang") if isinstance(inputs, dict) else getattr(inputs, "lang", None)
    return "zh" if got == "zh" else "en"
