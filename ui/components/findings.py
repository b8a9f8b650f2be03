"""Findings as coloured cards: severity, what was found, what to do, and a "why" that shows
the rule, the facts (or the quoted clause) that triggered it and the requirement it serves."""

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


def quote_of(value: Any) -> dict[str, Any] | None:
    """A clause quoted as evidence: ``{quote, where, where_zh, location}``."""
    return value if isinstance(value, dict) and value.get("quote") else None


def evidence_rows(evidence: dict[str, Any], lang: str) -> tuple[list[dict[str, str]], list[dict[str, Any]]]:
    facts, quotes = [], []
    for name, value in (evidence or {}).items():
        q = quote_of(value)
        if q:
            quotes.append(q)
        elif isinstance(value, list) and value and all(quote_of(v) for v in value):
            quotes.extend(value)
        else:
            facts.append({t("card.fact", lang): str(name), t("card.value", lang): _value(value)})
    return facts, quotes


def _value(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:,.4g}"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_value(v)}" for k, v in value.items())
    return str(value)


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
        with st.expander(t("card.why", lang, rule=f.get("rule_id", "")), icon=":material/help:"):
            facts, quotes = evidence_rows(f.get("evidence") or {}, lang)
            for q in quotes:
                where = q.get("where_zh") if lang == "zh" else q.get("where")
                st.markdown(f"> {q['quote']}" + (f"\n>\n> — *{where}*" if where else ""))
            if facts:
                st.markdown(f"*{t('card.evidence', lang)}*")
                st.dataframe(pd.DataFrame(facts), hide_index=True, width="stretch")
            meta = [f"{t('card.rule', lang)}: `{f.get('rule_id', '')}`", f"{t('card.pack', lang)}: {f.get('pack', '')}"]
            if f.get("requirement"):
                meta.append(f"{t('card.requirement', lang)}: {', '.join(map(str, f['requirement']))}")
            st.caption(" · ".join(meta))
            if f.get("source"):
                st.caption(f"{t('card.source', lang)}: {f['source']}")


def findings_section(findings: list[dict[str, Any]], lang: str, key: str, *, show_empty: bool = False) -> None:
    if not findings:
        if show_empty:
            st.caption(t("card.no_findings", lang))
        return
    st.markdown(f"**{t('card.findings', lang)}**")
    for i, f in enumerate(ordered(findings)):
        finding_card(f, lang, f"{key}-{i}")
