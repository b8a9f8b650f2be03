"""Findings as coloured cards: severity, what was found, what to do, and a "why" that shows
the rule and the facts (or the quoted clause) that triggered it."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from advisor.findings import SEVERITY_ORDER
from ui.components.fmt import money
from ui.i18n import t

BOX = {"critical": st.error, "warning": st.warning, "info": st.info}
ICON = {"critical": ":material/error:", "warning": ":material/warning:", "info": ":material/info:"}
BADGE = {"critical": "red", "warning": "orange", "info": "blue"}


def localized(f: dict[str, Any], lang: str) -> dict[str, str]:
    text = (f.get("text") or {}).get(lang) or {}
    return {k: text.get(k) or f.get(k) or "" for k in ("title", "detail", "recommendation")}


def ordered(findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(findings, key=lambda f: (SEVERITY_ORDER.get(str(f.get("severity")), 9), str(f.get("rule_id"))))


OPERATORS = {"eq": "=", "ne": "≠", "lt": "<", "lte": "≤", "gt": ">", "gte": "≥", "in": "∈", "not_in": "∉",
             "exists": "is set", "not_exists": "is not set", "matches": "~"}


def quote_of(value: Any) -> dict[str, Any] | None:
    """A clause quoted as evidence: ``{quote, where, where_zh, location[, value]}``."""
    return value if isinstance(value, dict) and value.get("quote") else None


def condition_text(c: dict[str, Any]) -> tuple[str, str, str]:
    """(fact, the rule's test, the actual value) of one matched condition."""
    op = str(c.get("operator", ""))
    test = OPERATORS.get(op, op)
    if op not in ("exists", "not_exists"):
        test = f"{test} {_value(c.get('value'))}"
    return str(c.get("fact", "")), test, _value(c.get("actual"))


def evidence_parts(evidence: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]],
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
                    facts.append((str(name), _value(q["value"])))
            else:
                facts.append((str(name), _value(item)))
    return conditions, quotes, facts


def _value(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:,.4g}" if abs(value) < 1e6 else f"{value:,.0f}"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_value(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_value(v) for v in value)
    return str(value)


def why(f: dict[str, Any], lang: str) -> None:
    """The rule, the conditions it tested with the actual values, the clauses and facts."""
    conditions, quotes, facts = evidence_parts(f.get("evidence") or {})
    for q in quotes:
        where = q.get("where_zh") if lang == "zh" else q.get("where")
        st.markdown(f"> {q['quote']}" + (f"\n>\n> — *{where}*" if where else ""))
    if conditions:
        st.dataframe(pd.DataFrame([dict(zip((t("card.fact", lang), t("card.test", lang), t("card.actual", lang)),
                                            condition_text(c), strict=True)) for c in conditions]),
                     hide_index=True, width="stretch")
    if facts:
        st.dataframe(pd.DataFrame([{t("card.fact", lang): k, t("card.value", lang): v} for k, v in facts]),
                     hide_index=True, width="stretch")
    meta = [f"{t('card.rule', lang)}: `{f.get('rule_id', '')}`", f"{t('card.pack', lang)}: {f.get('pack', '')}"]
    st.caption(" · ".join(meta))
    if f.get("source"):
        st.caption(f"{t('card.source', lang)}: {f['source']}")


def finding_card(f: dict[str, Any], lang: str, key: str) -> None:
    sev = str(f.get("severity", "info"))
    text = localized(f, lang)
    savings = f.get("savings") or None
    with st.container(border=True, key=f"finding-{key}"):
        head = f":{BADGE.get(sev, 'gray')}-badge[{t(f'card.sev.{sev}', lang)}] **{text['title']}**"
        if savings and savings.get("amount"):
            head += f" :green-badge[{t('card.savings', lang, amount=money(savings['amount'], savings.get('currency')))}]"
        st.markdown(head)
        BOX.get(sev, st.info)(text["detail"], icon=ICON.get(sev))
        if text["recommendation"]:
            st.markdown(f"**{t('card.do', lang)}:** {text['recommendation']}")
        with st.expander(t("card.why", lang), icon=":material/help:"):
            why(f, lang)


def findings_section(findings: list[dict[str, Any]], lang: str, key: str, *, show_empty: bool = False) -> None:
    if not findings:
        if show_empty:
            st.caption(t("card.no_findings", lang))
        return
    st.markdown(f"**{t('card.findings', lang)}**")
    for i, f in enumerate(ordered(findings)):
        finding_card(f, lang, f"{key}-{i}")
