"""The billing-mode chart: the same job priced under each mode, the cheapest and the
recommended marked, modes that do not suit the job greyed out."""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from ui.components.fmt import hours, mode_label, money, number
from ui.i18n import t

COLORS = {"cheapest": "#1a7f37", "recommended": "#0969da", "other": "#8c959f", "unsuitable": "#d0d7de"}
LOG_SCALE_RATIO = 20  # above this spread of totals, a linear axis hides the small bars


def _status(o: dict[str, Any]) -> str:
    if o.get("cheapest"):
        return "cheapest"
    if o.get("recommended"):
        return "recommended"
    if not o.get("suitable", True):
        return "unsuitable"
    return "other"


def _label(o: dict[str, Any], lang: str) -> str:
    """The mode's name with its marks: "Spot · cheapest", "Off-peak · recommended"."""
    tags = []
    if o.get("cheapest"):
        tags.append("★ " + t("card.cheapest", lang))
    if o.get("recommended"):
        tags.append(t("card.recommended", lang))
    if not o.get("suitable", True):
        tags.append(t("card.not_suitable", lang))
    name = mode_label(str(o.get("mode")), lang)
    return f"{name} · {' · '.join(tags)}" if tags else name


def billing_frame(options: list[dict[str, Any]], lang: str, cur: str) -> pd.DataFrame:
    rows = []
    for o in options:
        if not o.get("available", True):
            continue
        rows.append({
            "mode": _label(o, lang),
            "total": float(o.get("total") or 0.0),
            "status": _status(o),
            "amount": money(o.get("total"), cur),
        })
    return pd.DataFrame(rows)


def billing_chart(options: list[dict[str, Any]], lang: str, cur: str) -> alt.LayerChart | None:
    df = billing_frame(options, lang, cur)
    if df.empty:
        return None
    positive = df[df.total > 0].total
    log = len(positive) == len(df) and float(positive.max() / positive.min()) > LOG_SCALE_RATIO
    if log:
        x_scale = alt.Scale(type="log", domain=[float(positive.min()) / 2, float(df.total.max()) * 6])
        title = f"{cur} · " + ("对数坐标" if lang == "zh" else "log scale")
    else:
        x_scale = alt.Scale(domain=[0, float(df.total.max()) * 1.35])
        title = cur
    base = alt.Chart(df).encode(
        y=alt.Y("mode:N", sort=alt.EncodingSortField("total", order="ascending"), title=None,
                axis=alt.Axis(labelLimit=160)),
        x=alt.X("total:Q", scale=x_scale, title=title, axis=alt.Axis(format="~s", tickCount=4)),
        tooltip=[alt.Tooltip("mode:N", title=t("card.mode", lang)), alt.Tooltip("amount:N", title=cur)],
    )
    bars = base.mark_bar(cornerRadiusEnd=3, height=18).encode(
        color=alt.Color("status:N", scale=alt.Scale(domain=list(COLORS), range=list(COLORS.values())), legend=None),
    )
    text = base.mark_text(align="left", dx=4, fontSize=12).encode(text="amount:N")
    return (bars + text).properties(height=max(32 * len(df), 110))


def billing_section(options: list[dict[str, Any]], lang: str, cur: str) -> None:
    chart = billing_chart(options, lang, cur)
    if chart is None:
        return
    st.markdown(f"**{t('card.billing', lang)}**")
    st.altair_chart(chart, width="stretch")
    cheapest = next((o for o in options if o.get("cheapest")), None)
    recommended = next((o for o in options if o.get("recommended")), None)
    lines = []
    if cheapest:
        lines.append(t("card.billing_cheapest", lang, mode=mode_label(cheapest["mode"], lang),
                       amount=money(cheapest.get("total"), cur)))
    if recommended and recommended is not cheapest:
        note = recommended.get("note_zh") if lang == "zh" else recommended.get("note")
        lines.append(t("card.billing_recommended", lang, mode=mode_label(recommended["mode"], lang),
                       amount=money(recommended.get("total"), cur), note=note or ""))
    if lines:
        st.caption(" ".join(lines))
    with st.expander(t("card.raw", lang)):
        rows = [{
            t("card.mode", lang): mode_label(str(o.get("mode")), lang),
            t("card.col_total", lang): money(o.get("total"), cur) if o.get("available", True) else t("card.unavailable", lang),
            t("card.col_unit_price", lang): money(o.get("unit_price"), cur),
            t("card.gpu_hours", lang): number(o.get("billed_gpu_hours")),
            t("card.wall", lang): hours(o.get("wall_hours"), lang),
            t("card.note", lang): (o.get("note_zh") if lang == "zh" else o.get("note")) or "",
        } for o in options]
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
