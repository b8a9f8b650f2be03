"""One card per tool result: ``tool_card(name, result, lang, key)`` picks the renderer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from ui.components.billing import billing_section
from ui.components.common import assumptions_expander
from ui.components.cost import basis_line, components_table, config_line, cost_metrics, headline
from ui.components.findings import findings_section
from ui.components.fmt import hours, mode_label, money, number, pct
from ui.components.memory import memory_section
from ui.i18n import t


def estimate_card(r: dict[str, Any], lang: str, key: str, baseline: dict[str, Any] | None = None,
                  per_row: int = 4) -> None:
    headline(r.get("summary") or {}, lang)
    st.caption(config_line(r, lang))
    cost_metrics(r, lang, baseline, per_row)
    basis = basis_line(r, lang)
    if basis:
        st.caption(basis)
    components_table(r, lang)
    billing_section(r.get("billing") or [], lang, (r.get("cost") or {}).get("currency", "USD"))
    memory_section(r.get("memory") or {}, lang)
    findings_section(r.get("findings") or [], lang, key)
    assumptions_expander(r.get("assumptions") or [], lang)


def recommend_card(r: dict[str, Any], lang: str, key: str) -> None:
    headline(r.get("summary") or {}, lang)
    options = r.get("options") or []
    if options:
        st.markdown(f"**{t('card.options', lang)}**")
        rows = [{
            t("card.col_gpu", lang): o.get("gpu"), t("card.col_count", lang): o.get("gpu_count"),
            t("card.col_billing", lang): mode_label(str(o.get("billing")), lang),
            t("card.col_total", lang): money(o.get("total"), o.get("currency")),
            t("card.col_wall", lang): hours(o.get("wall_hours"), lang),
            t("card.col_memory", lang): f"{number(o.get('per_gpu_gb'), 1)} / {number(o.get('gpu_memory_gb'))}",
        } for o in options]
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
        if r.get("evaluated"):
            st.caption(t("card.evaluated", lang, n=int(r["evaluated"]), f=int(r.get("feasible") or 0)))
    findings_section(r.get("findings") or [], lang, key)
    assumptions_expander(r.get("assumptions") or [], lang)


def billing_card(r: dict[str, Any], lang: str, key: str) -> None:
    headline(r.get("summary") or {}, lang)
    billing_section(r.get("options") or [], lang, r.get("currency", "USD"))
    be = r.get("break_even") or {}
    if be:
        st.caption(t("card.break_even", lang, m=number(be.get("monthly_hours_per_month")),
                     y=number(be.get("yearly_hours_per_year"))))
    findings_section(r.get("findings") or [], lang, key)
    assumptions_expander(r.get("assumptions") or [], lang)


def plan_card(r: dict[str, Any], lang: str, key: str) -> None:
    headline(r.get("summary") or {}, lang)
    cur = r.get("currency", "USD")
    c1, c2 = st.columns(2)
    c1.metric(t("card.total", lang), money(r.get("total"), cur), border=True)
    c2.caption(t("card.range", lang, low=money(r.get("low"), cur), high=money(r.get("high"), cur)) + f" · {cur}")
    stages = r.get("stages") or []
    if stages:
        st.markdown(f"**{t('card.stages', lang)}**")
        df = pd.DataFrame([{
            "stage": s.get("stage_zh") if lang == "zh" else s.get("stage"), "cost": float(s.get("cost") or 0),
            "share": pct(s.get("share")), "amount": money(s.get("cost"), cur), "order": i,
        } for i, s in enumerate(stages)])
        chart = alt.Chart(df).mark_bar(height=18).encode(
            y=alt.Y("stage:N", sort=alt.EncodingSortField("order"), title=None),
            x=alt.X("cost:Q", title=cur, axis=alt.Axis(format="~s")),
            tooltip=["stage:N", "amount:N", "share:N"],
        ) + alt.Chart(df).mark_text(align="left", dx=4).encode(
            y=alt.Y("stage:N", sort=alt.EncodingSortField("order")), x="cost:Q", text="share:N")
        st.altair_chart(chart.properties(height=max(34 * len(df), 110)), width="stretch")
        rows = [{
            t("card.col_stage", lang): s.get("stage_zh") if lang == "zh" else s.get("stage"),
            t("card.col_gpu", lang): f"{s.get('gpu_count')}× {s.get('gpu')}",
            t("card.col_billing", lang): mode_label(str(s.get("billing")), lang),
            t("card.col_total", lang): money(s.get("cost"), cur),
            t("card.col_share", lang): pct(s.get("share")),
            t("card.col_wall", lang): hours(s.get("wall_hours"), lang),
        } for s in stages]
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    findings_section(r.get("findings") or [], lang, key)
    assumptions_expander(r.get("assumptions") or [], lang)


def knowledge_card(r: dict[str, Any], lang: str, key: str) -> None:
    hits = r.get("hits") or []
    if not hits:
        return
    with st.expander(f"{t('card.hits', lang)} ({len(hits)})", icon=":material/menu_book:"):
        for h in hits:
            st.markdown(f"**{h.get('title', '')} › {h.get('section', '')}**  \n"
                        f"{h.get('snippet') or h.get('text', '')[:300]}")
            st.caption(f"`{h.get('path', '')}`")


def contract_card(r: dict[str, Any], lang: str, key: str) -> None:
    from ui.components.contract import review_summary

    review_summary(r, lang)
    findings_section(r.get("findings") or [], lang, key, show_empty=True)


def usage_card(r: dict[str, Any], lang: str, key: str) -> None:
    from ui.components.usage import usage_overview

    usage_overview(r, lang, key)


CARDS: dict[str, Callable[[dict[str, Any], str, str], None]] = {
    "estimate_training_cost": estimate_card,
    "recommend_hardware": recommend_card,
    "compare_billing": billing_card,
    "plan_project": plan_card,
    "review_contract": contract_card,
    "analyze_usage": usage_card,
    "search_knowledge": knowledge_card,
}


def tool_card(name: str, result: dict[str, Any], lang: str, key: str, *, in_chat: bool = False) -> None:
    """The card of one tool result. ``in_chat``: the answer above already says the headline."""
    render = CARDS.get(name)
    if in_chat:
        result = {**result, "summary": {}, "headline": {}}
    if render is None:
        with st.expander(name):
            st.json(result, expanded=False)
        return
    with st.container(border=True, key=f"card-{key}"):
        render(result, lang, key)
