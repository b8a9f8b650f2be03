"""Quote check: a quoted price normalised per GPU-hour and judged against the market (check_quote)."""

from __future__ import annotations

from typing import Literal

import pandas as pd
import streamlit as st

from ui import state
from ui.components.decisions import footer, run, summary
from ui.components.fmt import money, pct
from ui.i18n import t

KEEP: Literal["session"] = "session"
GPUS = ("H100-SXM", "H800", "H200", "H20", "A100-80GB", "A800-80GB", "L40S", "RTX-4090", "Ascend-910B")
UNITS = ("gpu_hour", "gpu_month", "node_month", "gpu_year")


def main() -> None:
    lang = state.ui_lang()
    st.title(t("quote.title", lang))
    st.caption(t("quote.intro", lang))
    left, right = st.columns([1, 2.2], gap="large")
    with left, st.container(border=True, key="quote-form"):
        gpu = st.selectbox(t("quote.gpu", lang), GPUS, key="quote_gpu", persist_state=KEEP)
        price = st.number_input(t("quote.price", lang), min_value=0.01, value=2.10, step=0.1, format="%.2f",
                                key="quote_price", persist_state=KEEP)
        unit = st.selectbox(t("quote.unit", lang), UNITS, key="quote_unit", persist_state=KEEP,
                            format_func=lambda u: t(f"quote.unit_{u}", lang))
        count = st.number_input(t("quote.gpu_count", lang), min_value=0, value=0, step=1, key="quote_count",
                                help=t("quote.gpu_count_help", lang), persist_state=KEEP)
        term = st.number_input(t("quote.term", lang), min_value=0, value=12, step=1, key="quote_term",
                               persist_state=KEEP)
        util = st.slider(t("quote.utilization", lang), min_value=0.05, max_value=1.0, value=1.0, step=0.05,
                         key="quote_util", persist_state=KEEP)
    args = {"gpu": gpu, "price": price, "unit": unit, "gpu_count": int(count) or None, "term_months": term or None,
            "utilization": util}
    with right:
        r = run("check_quote", args, lang)
        cur, m = r["currency"], r["market"]
        summary(r, lang)
        a, b, c, d = st.columns(4)
        a.metric(t("quote.m_norm", lang), money(r["price_per_gpu_hour"], cur))
        b.metric(t("quote.m_median", lang), money(m["median"], cur))
        c.metric(t("quote.m_verdict", lang), t(f"quote.verdict_{r['verdict']}", lang))
        d.metric(t("quote.m_target", lang), money(r["target_price"], cur))
        st.dataframe(pd.DataFrame([{t("quote.col_mode", lang): m["mode"], "p10": money(m["p10"], cur),
                                    t("quote.col_median", lang): money(m["median"], cur), "p90": money(m["p90"], cur),
                                    t("quote.col_offers", lang): m["offers"],
                                    t("quote.col_dates", lang): f"{m.get('as_of_min') or '?'} – {m.get('as_of_max') or '?'}"}]),
                     hide_index=True)
        note = m.get("fallback_zh") if lang == "zh" else m.get("fallback")
        if note:
            st.caption(note)
        if r.get("lock"):
            lock = r["lock"]
            st.caption(t("quote.lock", lang, saving=money(lock["expected_saving"], cur),
                         chance=pct(lock["probability_above_at_end"]), months=lock["months"]))
        footer(r, lang, "quote")


main()
