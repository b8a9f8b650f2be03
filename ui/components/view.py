"""Every report drawn from its view (advisor.present): the headline figure with its range,
the key figures, what was understood, the top findings, one line per alternative; the
tables, charts, other findings and assumptions fold away under "details" and "assumptions"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from advisor.glossary import term
from advisor.present.view import Figure, FindingLine, Table, View

BADGE = {"critical": "red", "warning": "orange", "info": "blue"}
GREY, BLUE, GREEN = "#c9d1d9", "#0969da", "#1a7f37"
TOP_FINDINGS = 2


def metrics(figures: list[Figure], per_row: int = 4) -> None:
    for start in range(0, len(figures), per_row):
        row = figures[start:start + per_row]
        for col, f in zip(st.columns(per_row), row, strict=False):
            with col:
                st.metric(f.label, f.value, border=True)
                caption = " · ".join(x for x in (f.range, None if f.status else f.note) if x)
                if caption:
                    st.caption(caption)
                if f.status and f.note:
                    st.badge(f.note, color="green" if f.status == "good" else "red")


def finding(f: FindingLine, lang: str, key: str) -> None:
    head = f":{BADGE.get(f.severity, 'gray')}-badge[{f.severity_label}] **{f.title}**"
    if f.saving:
        head += f" :green-badge[{f.saving}]"
    st.markdown(head)
    if f.recommendation:
        st.caption(f.recommendation)


def finding_detail(f: FindingLine, lang: str) -> None:
    """The finding's text and why it fired: quoted clauses and the facts behind it."""
    st.markdown(f.detail)
    for q in f.quotes:
        st.markdown(f"> {q.text}" + (f"\n>\n> — *{q.where}*" if q.where else ""))
    if f.source:
        st.caption(f"{term('col.source', lang)}: {f.source}")
    if f.tested or f.facts:
        st.caption(" · ".join([*(f"`{fact} {test}` (`{actual}`)" for fact, test, actual in f.tested),
                               *(f"`{k}` = {v}" for k, v in f.facts)][:8]))


def table(t: Table) -> None:
    df = pd.DataFrame(t.rows, columns=t.columns)
    if t.muted and any(t.muted):
        muted = list(t.muted)
        style = df.style.apply(lambda row: ["color: #8c959f" if muted[row.name] else "" for _ in row], axis=1)
        st.dataframe(style, hide_index=True, width="stretch")
    else:
        st.dataframe(df, hide_index=True, width="stretch")


# --- charts drawn from a table's data -----------------------------------------------------------

def billing_chart(t: Table, lang: str) -> alt.LayerChart | None:
    """Modes by cost on a linear axis; unsuitable or unavailable modes greyed, the recommended blue."""
    df = pd.DataFrame(t.data)
    if df.empty:
        return None
    df = df.sort_values("total", kind="stable")
    df["colour"] = [BLUE if r else ("#57606a" if s else GREY) for r, s in zip(df.recommended, df.suitable, strict=True)]
    y = alt.Y("mode:N", sort=list(df["mode"]), title=None, axis=alt.Axis(labelLimit=120))
    bars = alt.Chart(df).mark_bar(cornerRadiusEnd=3).encode(
        y=y, x=alt.X("total:Q", title=None, scale=alt.Scale(domainMin=0, nice=True), axis=alt.Axis(format="~s")),
        color=alt.Color("colour:N", scale=None, legend=None), tooltip=["mode:N", "label:N"])
    text = alt.Chart(df).mark_text(align="left", dx=4, fontSize=12).encode(y=y, x="total:Q", text="label:N")
    return (bars + text).properties(height=alt.Step(28))


def stages_chart(t: Table, lang: str) -> alt.LayerChart | None:
    df = pd.DataFrame(t.data)
    if df.empty:
        return None
    y = alt.Y("stage:N", sort=alt.EncodingSortField("order"), title=None, axis=alt.Axis(labelLimit=120))
    bars = alt.Chart(df).mark_bar(color=BLUE).encode(y=y, x=alt.X("cost:Q", title=None, axis=alt.Axis(format="~s")),
                                                      tooltip=["stage:N", "amount:N", "share_text:N"])
    text = alt.Chart(df).mark_text(align="left", dx=4).encode(y=y, x="cost:Q", text="share_text:N")
    return (bars + text).properties(height=alt.Step(30))


def pareto_chart(t: Table, lang: str) -> alt.LayerChart | None:
    df = pd.DataFrame(t.data)
    if df.empty:
        return None
    x = alt.X("wall_hours:Q", title=term("col.wall", lang) + " (h)", scale=alt.Scale(type="log"))
    y = alt.Y("total:Q", title=term("col.total", lang), scale=alt.Scale(zero=False))
    line = alt.Chart(df).mark_line(point=True, color=BLUE).encode(x=x, y=y, tooltip=["label:N", "mode:N", "total:Q",
                                                                                      "wall_hours:Q"])
    text = alt.Chart(df.head(6)).mark_text(align="left", dx=6, dy=-6, fontSize=11).encode(x=x, y=y, text="label:N")
    return (line + text).properties(height=260)


def memory_chart(t: Table, lang: str) -> alt.Chart | None:
    df = pd.DataFrame(t.data)
    if df.empty:
        return None
    return alt.Chart(df).mark_bar().encode(
        x=alt.X("sum(gb):Q", title="GB"), color=alt.Color("part:N", legend=alt.Legend(orient="bottom", title=None)),
        order=alt.Order("gb:Q"), tooltip=["part:N", "gb:Q"]).properties(height=60)


def curve_chart(t: Table, lang: str) -> alt.Chart | None:
    """Own vs rent: cost per used GPU-hour against utilisation, one line each."""
    df = pd.DataFrame(t.data)
    if df.empty:
        return None
    long = df.melt("utilization", var_name="side", value_name="cost")
    return alt.Chart(long).mark_line(point=True).encode(
        x=alt.X("utilization:Q", title=t.columns[0], axis=alt.Axis(format="%")),
        y=alt.Y("cost:Q", title=None), color=alt.Color("side:N", legend=alt.Legend(orient="bottom", title=None)),
        tooltip=["side:N", alt.Tooltip("utilization:Q", format=".0%"), alt.Tooltip("cost:Q", format=",.2f")],
    ).properties(height=240)


CHARTS: dict[str, Callable[[Table, str], Any]] = {"billing": billing_chart, "stages": stages_chart,
                                                 "pareto": pareto_chart, "memory": memory_chart, "curve": curve_chart}


def details(v: View, key: str, charts: bool = True) -> None:
    for t in v.tables:
        st.markdown(f"**{t.title}**")
        draw = CHARTS.get(t.key) if charts else None
        chart = draw(t, v.lang) if draw else None
        if chart is not None:
            st.altair_chart(chart, width="stretch")
        table(t)


def view_card(v: View, key: str, *, in_chat: bool = False, open_details: bool = False,
              extra: Callable[[], None] | None = None, per_row: int = 4) -> None:
    """The short form, then the folded details and assumptions. ``in_chat``: the answer text
    above is the short form already, so only the folded parts are drawn (nothing twice)."""
    shown = TOP_FINDINGS
    if not in_chat:
        st.markdown(f"**{v.summary}**")
        figures = [v.headline, *v.figures]
        metrics(figures, per_row=min(per_row, len(figures)) or 1)
        if v.understood:
            st.caption(f"{term('label.understood', v.lang)}{term('sep.colon', v.lang)}{term('sep.clause', v.lang).join(v.understood)}")
        if v.priced:
            st.caption(v.priced)
        for note in v.notes:
            st.info(note, icon=":material/info:")
        for i, f in enumerate(v.top_findings(shown)):
            finding(f, v.lang, f"{key}-f{i}")
            with st.popover(term("label.why", v.lang), icon=":material/help:"):
                finding_detail(f, v.lang)
        if v.alternatives:
            st.markdown(f"**{term('label.alternatives', v.lang)}**\n" + "\n".join(f"- {a}" for a in v.alternatives))
    with st.expander(term("label.details", v.lang), icon=":material/table_chart:", expanded=open_details):
        if in_chat:
            for note in v.notes:
                st.info(note, icon=":material/info:")
        if in_chat:  # why the findings the answer names fired, without repeating their titles
            for f in v.top_findings(shown):
                finding_detail(f, v.lang)
        for f in v.findings[shown:]:
            finding(f, v.lang, f"{key}-d")
            finding_detail(f, v.lang)
        if extra is not None:
            extra()
        details(v, key)
    if v.assumptions is not None and v.assumptions.rows:
        with st.expander(f"{v.assumptions.title} ({len(v.assumptions.rows)})", icon=":material/fact_check:"):
            table(v.assumptions)
