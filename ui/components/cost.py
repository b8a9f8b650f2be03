"""The cost card of an estimate: total with its range, GPU-hours, wall time, memory fit, and
the table of cost components (Infracost style: one priced line per resource)."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from ui.components.fmt import hours, method_label, money, number
from ui.i18n import t


def headline(summary: Any, lang: str) -> None:
    text = summary.get(lang) or summary.get("en") if isinstance(summary, dict) else summary
    if text:
        st.markdown(f"**{text}**")


def cost_metrics(report: dict[str, Any], lang: str, baseline: dict[str, Any] | None = None, per_row: int = 4) -> None:
    """Four figures a manager reads first (in rows of ``per_row``); with a baseline, the total
    shows the change against it."""
    cost = report.get("cost") or {}
    cur = cost.get("currency")
    gh = report.get("gpu_hours") or {}
    wall = report.get("wall_hours") or {}
    mem = report.get("memory") or {}
    cols = st.columns(4) if per_row >= 4 else [*st.columns(2), *st.columns(2)]
    delta = None
    if baseline:
        diff = float(cost.get("total", 0)) - float((baseline.get("cost") or {}).get("total", 0))
        delta = ("+" if diff >= 0 else "−") + money(abs(diff), cur) + " " + t("est.vs_baseline", lang)
    with cols[0]:
        st.metric(t("card.total", lang), money(cost.get("total"), cur), delta=delta, delta_color="inverse",
                  border=True, help=t("card.range", lang, low=money(cost.get("low"), cur),
                                      high=money(cost.get("high"), cur)))
        st.caption(t("card.range", lang, low=money(cost.get("low"), cur), high=money(cost.get("high"), cur))
                   + f" · {cur}")
    with cols[1]:
        st.metric(t("card.gpu_hours", lang), number(gh.get("expected")), border=True)
        st.caption(f"{number(gh.get('low'))} – {number(gh.get('high'))}")
    with cols[2]:
        st.metric(t("card.wall", lang), hours(wall.get("expected"), lang), border=True)
        st.caption(f"{hours(wall.get('low'), lang)} – {hours(wall.get('high'), lang)}")
        if report.get("meets_deadline") is not None:
            ok = bool(report.get("meets_deadline"))
            st.badge(t("card.deadline_ok" if ok else "card.deadline_miss", lang), color="green" if ok else "red")
    with cols[3]:
        per, card = mem.get("per_gpu_gb"), mem.get("gpu_memory_gb")
        st.metric(t("card.memory", lang), f"{number(per, 1)} GB", border=True)
        fits = bool(mem.get("fits"))
        st.caption(t("card.of_card", lang, gb=number(card)))
        st.badge(t("card.fits" if fits else "card.no_fit", lang), color="green" if fits else "red")


def basis_line(report: dict[str, Any], lang: str) -> str:
    """What the total rests on: the price per GPU-hour and where it comes from, and the MFU."""
    inputs = report.get("inputs") or {}
    cur = (report.get("cost") or {}).get("currency")
    price = inputs.get("price_per_gpu_hour")
    source = next((a.get("source") for a in report.get("assumptions") or [] if a.get("name") == "price_per_gpu_hour"),
                  None) or t("card.your_price", lang)
    mfu = (report.get("mfu") or {}).get("expected", inputs.get("mfu"))
    parts = []
    if price:
        parts.append(t("card.basis_price", lang, price=money(price, cur), source=source))
    if mfu:
        parts.append(t("card.basis_mfu", lang, mfu=f"{float(mfu) * 100:.0f}%"))
    return " · ".join(parts)


def config_line(report: dict[str, Any], lang: str) -> str:
    inputs = report.get("inputs") or {}
    gpu = report.get("gpu") or {}
    layout = (report.get("memory") or {}).get("layout") or {}
    model = inputs.get("model") or (f"{number(inputs.get('params_b'), 1)}B" if inputs.get("params_b") else "")
    line = t("card.config", lang, count=gpu.get("count", inputs.get("gpu_count", "?")),
             gpu=gpu.get("name", inputs.get("gpu", "?")), method=method_label(str(inputs.get("method", "")), lang),
             precision=str(gpu.get("precision", inputs.get("precision", ""))).upper(),
             zero=layout.get("zero_stage", inputs.get("zero_stage", 0)))
    return f"{model} · {line}" if model else line


def components_table(report: dict[str, Any], lang: str) -> None:
    cost = report.get("cost") or {}
    cur = cost.get("currency")
    rows = []
    for c in cost.get("components") or []:
        name = c.get("name_zh") if lang == "zh" and c.get("name_zh") else c.get("name")
        rows.append({
            t("card.col_item", lang): name,
            t("card.col_amount", lang): money(c.get("amount"), cur),
            t("card.col_qty", lang): number(c.get("quantity"), 2 if float(c.get("quantity") or 0) < 10 else 0),
            t("card.col_unit", lang): c.get("unit", ""),
            t("card.col_unit_price", lang): money(c.get("unit_price"), cur),
        })
    if rows:
        st.markdown(f"**{t('card.components', lang)}**")
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch",
                     column_config={t("card.col_item", lang): st.column_config.TextColumn(width="medium")})
