"""Usage charts: utilization over time, by GPU and by hour of day (the figures, tables and
findings come from the report's view)."""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from advisor.glossary import term
from advisor.present.fmt import pct
from advisor.present.registry import typed

LOW_USE_LINE = 0.70  # drawn for reference only; the rules decide what is flagged


def _target_rule(target: float, lang: str) -> alt.LayerChart:
    df = pd.DataFrame([{"y": target, "label": term("label.usage_target", lang, p=pct(target))}])
    base = alt.Chart(df)
    return base.mark_rule(color="#1a7f37", strokeDash=[4, 3]).encode(y="y:Q") + base.mark_text(
        align="left", x=4, dy=-7, color="#1a7f37", fontSize=11).encode(y="y:Q", text="label:N")


def trend_chart(trend: list[dict[str, Any]], target: float, lang: str) -> alt.LayerChart | None:
    df = pd.DataFrame([p for p in trend if p.get("avg_utilization") is not None])
    if df.empty:
        return None
    line = alt.Chart(df).mark_line(point=True, color="#0969da").encode(
        x=alt.X("date:O", title=None, axis=alt.Axis(labelAngle=0, labelOverlap=True)),
        y=alt.Y("avg_utilization:Q", title=term("label.usage_util", lang), axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1])),
        tooltip=[alt.Tooltip("date:O"), alt.Tooltip("avg_utilization:Q", format=".0%")],
    )
    return (line + _target_rule(target, lang)).properties(height=220)


def hour_chart(profile: list[dict[str, Any]], lang: str) -> alt.Chart | None:
    df = pd.DataFrame(profile)
    if df.empty:
        return None
    return alt.Chart(df).mark_bar(color="#8250df").encode(
        x=alt.X("key:O", title=term("label.usage_hour", lang), axis=alt.Axis(labelAngle=0, values=list(range(0, 24, 3)))),
        y=alt.Y("avg_utilization:Q", title=None, axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])),
        tooltip=[alt.Tooltip("key:O", title=term("label.usage_hour", lang)), alt.Tooltip("avg_utilization:Q", format=".0%")],
    ).properties(height=180)


def gpu_chart(gpus: list[dict[str, Any]], lang: str) -> alt.LayerChart | None:
    if not gpus:
        return None
    df = pd.DataFrame([{
        "gpu": f"{g.get('instance')} · {str(g.get('id'))[-4:]}", "util": float(g.get("avg_utilization") or 0),
        "state": "forgotten" if g.get("forgotten") else ("low" if float(g.get("avg_utilization") or 0) < LOW_USE_LINE
                                                         else "ok"),
    } for g in gpus])
    names = {"forgotten": term("status.forgotten", lang), "low": term("label.usage_low", lang), "ok": term("label.usage_ok", lang)}
    df["state"] = df["state"].map(names)
    bars = alt.Chart(df).mark_bar().encode(
        y=alt.Y("gpu:N", sort="x", title=None, axis=alt.Axis(labelLimit=150, labelOverlap=False)),
        x=alt.X("util:Q", title=term("label.usage_util", lang), axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("state:N", scale=alt.Scale(domain=list(names.values()), range=["#cf222e", "#bf8700", "#1a7f37"]),
                        legend=alt.Legend(orient="bottom", title=None)),
        tooltip=["gpu:N", alt.Tooltip("util:Q", format=".0%"), "state:N"],
    )
    rule = alt.Chart(pd.DataFrame([{"x": LOW_USE_LINE}])).mark_rule(strokeDash=[4, 3], color="#57606a").encode(x="x:Q")
    return (bars + rule).properties(height=alt.Step(18))


def usage_charts(result: Any, lang: str) -> None:
    """The telemetry charts: utilization over time, by GPU and by hour of day."""
    tel = typed("analyze_usage", result).telemetry  # type: ignore[attr-defined]
    if tel is None:
        return
    data = tel.model_dump(mode="json")
    trend = trend_chart(data["trend"], float(tel.target_utilization), lang)
    if trend is not None:
        st.markdown(f"**{term('label.usage_trend', lang)}**")
        st.altair_chart(trend, width="stretch")
    left, right = st.columns(2)
    with left:
        chart = gpu_chart(data["gpus"], lang)
        if chart is not None:
            st.markdown(f"**{term('label.usage_by_gpu', lang)}**")
            st.altair_chart(chart, width="stretch")
    with right:
        hours_chart = hour_chart(data["by_hour"], lang)
        if hours_chart is not None:
            st.markdown(f"**{term('label.usage_by_hour', lang)}**")
            st.altair_chart(hours_chart, width="stretch")
