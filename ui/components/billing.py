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


def _tags(o: dict[str, Any], lang: str) -> str:
    tags = []
    if o.get("cheapest"):
        tags.append("★ " + t("card.cheapest", lang))
    if o.get("recommended"):
        tags.append("✓ " + t("card.recommended", lang))
    if not o.get("suitable", True):
        tags.append(t("card.not_suitable", lang))
    return " · ".join(tags)


def billing_frame(options: list[dict[str, Any]], lang: str, cur: str) -> pd.DataFrame:
    """One row per available mode, cheapest first, with its label text."""
    rows = []
    for o in options:
        if not o.get("available", True):
            continue
        tags = _tags(o, lang)
        amount = money(o.get("total"), cur)
        rows.append({
            "mode": mode_label(str(o.get("mode")), lang),
            "total": float(o.get("total") or 0.0),
            "status": _status(o),
            "label": f"{amount}  {tags}" if tags else amount,
        })
    return pd.DataFrame(rows).sort_values("total", kind="stable") if rows else pd.DataFrame(rows)


def billing_chart(options: list[dict[str, Any]], lang: str, cur: str) -> alt.LayerChart | None:
    df = billing_frame(options, lang, cur)
    if df.empty:
        return None
    positive = df[df.total > 0].total
    log = len(positive) == len(df) and float(positive.max() / positive.min()) > LOG_SCALE_RATIO
    if log:  # bars start at the left edge of the axis, not at 0 (which a log axis does not have)
        floor = float(positive.min()) / 3
        df["base"] = floor
        x_scale = alt.Scale(type="log", domain=[floor, float(df.total.max()) * 15], nice=False)
        title = f"{cur} · " + ("对数坐标" if lang == "zh" else "log scale")
    else:
        df["base"] = 0.0
        x_scale = alt.Scale(domain=[0, float(df.total.max()) * 1.9], nice=False)
        title = cur
    y = alt.Y("mode:N", sort=list(df["mode"]), title=None, axis=alt.Axis(labelOverlap=False, labelLimit=140,
                                                                        labelFontSize=12))
    base = alt.Chart(df).encode(y=y, tooltip=[alt.Tooltip("mode:N", title=t("card.mode", lang)),
                                               alt.Tooltip("label:N", title=cur)])
    bars = base.mark_bar(cornerRadiusEnd=3).encode(
        x=alt.X("total:Q", scale=x_scale, title=title, axis=alt.Axis(format="~s", tickCount=4, grid=False)),
        x2="base:Q",
        color=alt.Color("status:N", scale=alt.Scale(domain=list(COLORS), range=list(COLORS.values())), legend=None),
    )
    text = base.mark_text(align="left", dx=5, fontSize=12).encode(x="total:Q", text="label:N")
    return (bars + text).properties(height=alt.Step(30))


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
