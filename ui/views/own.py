"""Own vs rent: cost per used GPU-hour each way, the break-even utilisation, and the
own-the-base, rent-the-peaks plan (compare_own_vs_rent)."""

from __future__ import annotations

from typing import Literal

import pandas as pd
import streamlit as st

from advisor.glossary import term
from ui import state
from ui.components.decisions import footer, run, summary
from ui.components.fmt import money, pct
from ui.i18n import t

KEEP: Literal["session"] = "session"
GPUS = ("H100-SXM", "H800", "A100-80GB", "A800-80GB", "RTX-4090")


def main() -> None:
    lang = state.ui_lang()
    st.title(t("own.title", lang))
    st.caption(t("own.intro", lang))
    left, right = st.columns([1, 2.2], gap="large")
    with left, st.container(border=True, key="own-form"):
        gpu = st.selectbox(t("own.gpu", lang), GPUS, key="own_gpu", persist_state=KEEP)
        count = st.number_input(t("own.gpu_count", lang), min_value=1, value=64, step=8, key="own_count",
                                persist_state=KEEP)
        util = st.slider(t("own.utilization", lang), min_value=0.05, max_value=1.0, value=0.7, step=0.05,
                         key="own_util", persist_state=KEEP)
        years = st.number_input(t("own.years", lang), min_value=1.0, value=4.0, step=1.0, key="own_years",
                                persist_state=KEEP)
        rent = st.number_input(t("own.rent_price", lang), min_value=0.0, value=0.0, step=0.5, format="%.2f",
                               key="own_rent", help=t("own.rent_price_help", lang), persist_state=KEEP)
        base = st.number_input(t("own.base", lang), min_value=0, value=64, step=8, key="own_base", persist_state=KEEP)
        peak = st.number_input(t("own.peak", lang), min_value=0, value=256, step=8, key="own_peak", persist_state=KEEP)
        months = st.number_input(t("own.peak_months", lang), min_value=1, max_value=12, value=3, step=1,
                                 key="own_peak_months", persist_state=KEEP)
    args = {"gpu": gpu, "gpu_count": int(count), "utilization": util, "years": years,
            "price_per_gpu_hour": rent or None, "peak_months": int(months)}
    if peak > 0 and base <= peak:
        args.update(base_gpus=float(base), peak_gpus=float(peak))
    with right:
        r = run("compare_own_vs_rent", args, lang)
        cur = r["currency"]
        summary(r, lang)
        a, b, c = st.columns(3)
        a.metric(t("own.m_own", lang), money(r["own"]["per_used_gpu_hour"], cur))
        b.metric(t("own.m_rent", lang), money(r["rent"]["per_used_gpu_hour"], cur))
        be = r.get("break_even_utilization")
        c.metric(t("own.m_break_even", lang), pct(be) if be is not None else t("own.never", lang))
        st.markdown(f"**{t('own.components', lang)}**")
        st.dataframe(pd.DataFrame([{t("own.col_item", lang): term(f"own_component.{x['name']}", lang),
                                    t("own.col_year", lang): money(x["per_gpu_year"], cur)}
                                   for x in r["own_components"]]), hide_index=True)
        curve = pd.DataFrame(r["curve"]).set_index("utilization")
        curve.columns = [t("own.own", lang), t("own.rent", lang)]
        st.line_chart(curve)
        h = r.get("hybrid")
        if h:
            st.markdown(f"**{t('own.hybrid', lang)}**")
            x, y, z = st.columns(3)
            x.metric(t("own.m_owned", lang), str(h["owned_gpus"]))
            y.metric(t("own.m_hybrid", lang), money(h["total"], cur))
            z.metric(t("own.m_all_rent", lang), money(h["all_rent_total"], cur))
        footer(r, lang, "own")


main()
