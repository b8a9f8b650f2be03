"""Usage analysis views: spend, waste and utilization, utilization charts (by day, by hour,
by GPU), idle and forgotten resources, billing breakdowns, and the utilization findings."""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from ui.components.common import assumptions_expander
from ui.components.findings import findings_section
from ui.components.fmt import hours, money, number, pct, text_of
from ui.i18n import t

LOW_USE_LINE = 0.70  # drawn for reference only; the rules decide what is flagged


def usage_metrics(r: dict[str, Any], lang: str) -> None:
    s = r.get("summary") or {}
    cur = s.get("currency") or r.get("currency") or "USD"
    cols = st.columns(4)
    cols[0].metric(t("use.spend", lang), money(s.get("total_cost"), cur) if s.get("total_cost") is not None else "—",
                   border=True)
    cols[1].metric(t("use.waste", lang), money(s.get("waste_cost"), cur) if s.get("waste_cost") is not None else "—",
                   border=True)
    util = s.get("avg_utilization")
    cols[2].metric(t("use.util", lang), pct(util) if util is not None else "—", border=True,
                   delta=f"{t('use.target', lang)}" if util is not None else None, delta_color="off",
                   delta_arrow="off")
    cols[3].metric(t("use.saving", lang), money(s.get("target_saving"), cur) if s.get("target_saving") else "—",
                   border=True)
    if s.get("idle_gpu_hours") is not None:
        st.caption(t("use.idle_caption", lang, h=number(s.get("idle_gpu_hours")), cost=money(s.get("idle_cost"), cur),
                     n=s.get("gpus_needed_at_target") or "—"))


def _target_rule(target: float, lang: str) -> alt.LayerChart:
    df = pd.DataFrame([{"y": target, "label": t("use.target_line", lang, p=pct(target))}])
    base = alt.Chart(df)
    return base.mark_rule(color="#1a7f37", strokeDash=[4, 3]).encode(y="y:Q") + base.mark_text(
        align="left", x=4, dy=-7, color="#1a7f37", fontSize=11).encode(y="y:Q", text="label:N")


def trend_chart(trend: list[dict[str, Any]], target: float, lang: str) -> alt.LayerChart | None:
    df = pd.DataFrame([p for p in trend if p.get("avg_utilization") is not None])
    if df.empty:
        return None
    line = alt.Chart(df).mark_line(point=True, color="#0969da").encode(
        x=alt.X("date:O", title=None, axis=alt.Axis(labelAngle=0, labelOverlap=True)),
        y=alt.Y("avg_utilization:Q", title=t("use.util", lang), axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1])),
        tooltip=[alt.Tooltip("date:O"), alt.Tooltip("avg_utilization:Q", format=".0%")],
    )
    return (line + _target_rule(target, lang)).properties(height=220)


def hour_chart(profile: list[dict[str, Any]], lang: str) -> alt.Chart | None:
    df = pd.DataFrame(profile)
    if df.empty:
        return None
    return alt.Chart(df).mark_bar(color="#8250df").encode(
        x=alt.X("key:O", title=t("use.hour", lang), axis=alt.Axis(labelAngle=0, values=list(range(0, 24, 3)))),
        y=alt.Y("avg_utilization:Q", title=None, axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])),
        tooltip=[alt.Tooltip("key:O", title=t("use.hour", lang)), alt.Tooltip("avg_utilization:Q", format=".0%")],
    ).properties(height=180)


def gpu_chart(gpus: list[dict[str, Any]], lang: str) -> alt.LayerChart | None:
    if not gpus:
        return None
    df = pd.DataFrame([{
        "gpu": f"{g.get('instance')} · {str(g.get('id'))[-4:]}", "util": float(g.get("avg_utilization") or 0),
        "state": "forgotten" if g.get("forgotten") else ("low" if float(g.get("avg_utilization") or 0) < LOW_USE_LINE
                                                         else "ok"),
    } for g in gpus])
    names = {"forgotten": t("use.state_forgotten", lang), "low": t("use.state_low", lang), "ok": t("use.state_ok", lang)}
    df["state"] = df["state"].map(names)
    bars = alt.Chart(df).mark_bar().encode(
        y=alt.Y("gpu:N", sort="x", title=None, axis=alt.Axis(labelLimit=150, labelOverlap=False)),
        x=alt.X("util:Q", title=t("use.util", lang), axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("state:N", scale=alt.Scale(domain=list(names.values()), range=["#cf222e", "#bf8700", "#1a7f37"]),
                        legend=alt.Legend(orient="bottom", title=None)),
        tooltip=["gpu:N", alt.Tooltip("util:Q", format=".0%"), "state:N"],
    )
    rule = alt.Chart(pd.DataFrame([{"x": LOW_USE_LINE}])).mark_rule(strokeDash=[4, 3], color="#57606a").encode(x="x:Q")
    return (bars + rule).properties(height=alt.Step(18))


def telemetry_section(tel: dict[str, Any], lang: str, cur: str) -> None:
    target = float(tel.get("target_utilization") or 0.85)
    trend = trend_chart(tel.get("trend") or [], target, lang)
    if trend is not None:
        st.markdown(f"**{t('use.chart', lang)}**")
        st.altair_chart(trend, width="stretch")
    left, right = st.columns(2)
    with left:
        chart = gpu_chart(tel.get("gpus") or [], lang)
        if chart is not None:
            st.markdown(f"**{t('use.by_gpu', lang)}**")
            st.altair_chart(chart, width="stretch")
    with right:
        hours_chart = hour_chart(tel.get("by_hour") or [], lang)
        if hours_chart is not None:
            st.markdown(f"**{t('use.by_hour', lang)}**")
            st.altair_chart(hours_chart, width="stretch")
    stretches = tel.get("idle_stretches") or []
    if stretches:
        st.markdown(f"**{t('use.idle', lang)}**")
        rows = [{
            t("use.col_instance", lang): s.get("instance"), t("use.col_gpu", lang): str(s.get("gpu_id"))[-12:],
            t("use.col_from", lang): s.get("start"), t("use.col_to", lang): s.get("end"),
            t("use.col_hours", lang): hours(s.get("hours"), lang),
            t("use.col_cost", lang): money(s.get("cost"), cur) if s.get("cost") is not None else "—",
            t("use.col_open", lang): "⚠ " + t("use.still_idle", lang) if s.get("open") else "",
        } for s in stretches]
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def billing_section(b: dict[str, Any], lang: str) -> None:
    cur = b.get("currency") or "USD"
    st.metric(t("use.billed", lang), money(b.get("total_billed_cost"), cur), border=True)
    lines = b.get("by_service") or []
    if lines:
        df = pd.DataFrame([{"name": x.get("name"), "cost": float(x.get("billed_cost") or 0),
                            "amount": money(x.get("billed_cost"), cur)} for x in lines[:12]])
        st.markdown(f"**{t('use.by_service', lang)}**")
        st.altair_chart(alt.Chart(df).mark_bar(height=14, color="#0969da").encode(
            y=alt.Y("name:N", sort="-x", title=None, axis=alt.Axis(labelLimit=180)),
            x=alt.X("cost:Q", title=cur), tooltip=["name:N", "amount:N"],
        ).properties(height=max(22 * len(df), 120)), width="stretch")
    teams = b.get("by_team") or []
    if teams:
        with st.expander(t("use.by_team", lang)):
            st.dataframe(pd.DataFrame([{"team": x.get("name"), "cost": money(x.get("billed_cost"), cur)}
                                       for x in teams]), hide_index=True, width="stretch")


def inventory_section(inv: dict[str, Any], lang: str) -> None:
    forgotten = inv.get("forgotten") or []
    if forgotten:
        st.markdown(f"**{t('use.forgotten', lang)}**")
        st.dataframe(pd.DataFrame([{
            t("use.col_instance", lang): f.get("resource"), t("use.col_reason", lang): f.get("reason"),
            t("use.col_hours", lang): hours(f.get("hours"), lang), t("use.col_cost", lang): money(f.get("cost"), f.get("currency")),
        } for f in forgotten]), hide_index=True, width="stretch")
    charge = inv.get("chargeback") or []
    if charge:
        with st.expander(t("use.chargeback", lang)):
            st.dataframe(pd.DataFrame(charge), hide_index=True, width="stretch")


def usage_overview(r: dict[str, Any], lang: str, key: str) -> None:
    headline = r.get("headline")
    if headline:
        st.markdown(f"**{text_of(headline, lang)}**")
    cur = r.get("currency") or "USD"
    usage_metrics(r, lang)
    if r.get("telemetry"):
        telemetry_section(r["telemetry"], lang, cur)
    if r.get("billing"):
        billing_section(r["billing"], lang)
    if r.get("inventory"):
        inventory_section(r["inventory"], lang)
    findings_section(r.get("findings") or [], lang, key)
    for note in r.get("notes") or []:
        st.caption(note)
    assumptions_expander(r.get("assumptions") or [], lang)
