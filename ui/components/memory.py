"""The memory bar: what one GPU holds (weights, gradients, optimizer, activations, overhead)
against the card's memory and the part of it that is usable."""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from ui.components.fmt import number
from ui.i18n import t

PARTS = ("weights_gb", "gradients_gb", "optimizer_gb", "activations_gb", "overhead_gb")
PALETTE = ("#0969da", "#8250df", "#bf3989", "#bc4c00", "#8c959f")


def memory_frame(memory: dict[str, Any], lang: str) -> pd.DataFrame:
    rows = []
    for order, part in enumerate(PARTS):
        gb = float(memory.get(part) or 0.0)
        rows.append({"part": t(f"card.mem.{part}", lang), "gb": gb, "order": order, "row": "GPU",
                     "label": f"{t(f'card.mem.{part}', lang)}: {number(gb, 1)} GB"})
    return pd.DataFrame(rows)


def memory_chart(memory: dict[str, Any], lang: str) -> alt.LayerChart:
    df = memory_frame(memory, lang)
    card = float(memory.get("gpu_memory_gb") or 0.0)
    usable = float(memory.get("usable_gb") or 0.0)
    total = float(memory.get("per_gpu_gb") or df.gb.sum())
    top = max(card, total) * 1.08
    names = [t(f"card.mem.{p}", lang) for p in PARTS]
    bars = alt.Chart(df).mark_bar(height=28).encode(
        x=alt.X("sum(gb):Q", title="GB", scale=alt.Scale(domain=[0, top])),
        y=alt.Y("row:N", title=None, axis=None),
        color=alt.Color("part:N", scale=alt.Scale(domain=names, range=list(PALETTE)),
                        legend=alt.Legend(orient="bottom", title=None, columns=3, labelLimit=140)),
        order=alt.Order("order:Q"),
        tooltip=[alt.Tooltip("label:N", title="")],
    )
    marks = pd.DataFrame([
        {"gb": card, "label": t("card.memory_card", lang, gb=number(card)), "dash": "card"},
        {"gb": usable, "label": t("card.memory_usable", lang, gb=number(usable)), "dash": "usable"},
    ])
    marks = marks[marks.gb > 0]
    rules = alt.Chart(marks).mark_rule(strokeWidth=2, color="#cf222e").encode(
        x="gb:Q",
        strokeDash=alt.StrokeDash("dash:N", scale=alt.Scale(domain=["card", "usable"], range=[[1, 0], [4, 3]]),
                                  legend=None),
    )
    labels = alt.Chart(marks[marks.dash == "card"]).mark_text(align="right", dx=-4, dy=-22, color="#cf222e",
                                                              fontSize=11).encode(x="gb:Q", text="label:N")
    return (bars + rules + labels).properties(height=110)


def memory_section(memory: dict[str, Any], lang: str) -> None:
    if not memory:
        return
    st.markdown(f"**{t('card.memory_head', lang)}**")
    st.altair_chart(memory_chart(memory, lang), width="stretch")
