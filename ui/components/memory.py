"""The memory bar: what one GPU holds (weights, gradients, optimizer, activations, overhead)
against the card's memory and the part of it that is usable."""

from __future__ import annotations

import html
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from ui.components.fmt import number
from ui.i18n import t

PARTS = ("weights_gb", "gradients_gb", "optimizer_gb", "activations_gb", "overhead_gb")
HEIGHT = 40  # pixels of the plot area (one band)
PALETTE = ("#0969da", "#8250df", "#bf3989", "#bc4c00", "#8c959f")


def memory_frame(memory: dict[str, Any], lang: str) -> pd.DataFrame:
    rows = []
    for order, part in enumerate(PARTS):
        gb = float(memory.get(part) or 0.0)
        rows.append({"part": t(f"card.mem.{part}", lang), "gb": gb, "order": order, "row": "GPU",
                     "label": f"{t(f'card.mem.{part}', lang)}: {number(gb, 1)} GB"})
    return pd.DataFrame(rows)


def memory_chart(memory: dict[str, Any], lang: str) -> alt.LayerChart | alt.FacetChart:
    """One stacked bar per GPU; a solid red line at the card's memory, a dashed one at the
    usable part (the legend is drawn beside it by :func:`legend_html`)."""
    df = memory_frame(memory, lang)
    card = float(memory.get("gpu_memory_gb") or 0.0)
    usable = float(memory.get("usable_gb") or 0.0)
    total = float(memory.get("per_gpu_gb") or df.gb.sum())
    top = max(card, total) * 1.06
    names = [t(f"card.mem.{p}", lang) for p in PARTS]
    bars = alt.Chart(df).mark_bar().encode(
        x=alt.X("sum(gb):Q", title="GB", scale=alt.Scale(domain=[0, top], nice=False)),
        y=alt.Y("row:N", title=None, axis=None, scale=alt.Scale(paddingInner=0, paddingOuter=0.1)),
        color=alt.Color("part:N", scale=alt.Scale(domain=names, range=list(PALETTE)), legend=None),
        order=alt.Order("order:Q"),
        tooltip=[alt.Tooltip("label:N", title=" ")],
    )
    layers: list[alt.Chart] = [bars]
    lines = pd.DataFrame([
        {"gb": card, "row": "GPU", "kind": "card", "label": t("card.memory_card", lang, gb=number(card))},
        {"gb": usable, "row": "GPU", "kind": "usable", "label": t("card.memory_usable", lang, gb=number(usable))},
    ])
    if card > 0:
        mark = lines[lines.kind == "card"]
        layers.append(alt.Chart(mark).mark_rule(color="#cf222e", strokeWidth=3).encode(
            x="gb:Q", y=alt.value(0), y2=alt.value(HEIGHT)))
    if 0 < usable < card:
        mark = lines[lines.kind == "usable"]
        layers.append(alt.Chart(mark).mark_rule(color="#9a6700", strokeWidth=2, strokeDash=[4, 3]).encode(
            x="gb:Q", y=alt.value(0), y2=alt.value(HEIGHT)))
    return alt.layer(*layers).properties(height=alt.Step(HEIGHT))


def legend_html(memory: dict[str, Any], lang: str) -> str:
    """The colour key with each part's size, wrapping on narrow screens."""
    items = []
    for part, color in zip(PARTS, PALETTE, strict=True):
        gb = float(memory.get(part) or 0.0)
        items.append(f'<span style="display:inline-flex;align-items:center;gap:.35rem;margin:0 .9rem .2rem 0">'
                     f'<span style="width:.8rem;height:.8rem;border-radius:2px;background:{color}"></span>'
                     f'{html.escape(t(f"card.mem.{part}", lang))} <b>{number(gb, 1)} GB</b></span>')
    card, usable = float(memory.get("gpu_memory_gb") or 0), float(memory.get("usable_gb") or 0)
    for text, style in ((t("card.memory_card", lang, gb=number(card)), "border-left:3px solid #cf222e"),
                        (t("card.memory_usable", lang, gb=number(usable)), "border-left:2px dashed #9a6700")):
        items.append(f'<span style="display:inline-flex;align-items:center;gap:.35rem;margin:0 .9rem .2rem 0">'
                     f'<span style="width:0;height:.9rem;{style}"></span>{html.escape(text)}</span>')
    return f'<div style="font-size:.85rem;line-height:1.6;display:flex;flex-wrap:wrap">{"".join(items)}</div>'


def memory_section(memory: dict[str, Any], lang: str) -> None:
    if not memory:
        return
    st.markdown(f"**{t('card.memory_head', lang)}**")
    st.altair_chart(memory_chart(memory, lang), width="stretch")
    st.html(legend_html(memory, lang))
    st.caption(t("card.memory_caption", lang, per=number(memory.get("per_gpu_gb"), 1),
                 card=number(memory.get("gpu_memory_gb")), usable=number(memory.get("usable_gb")),
                 verdict=t("card.fits" if memory.get("fits") else "card.no_fit", lang)))
