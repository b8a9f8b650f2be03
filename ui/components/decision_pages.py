"""The decision tools' pages (issue #12): serving cost, quote check, own vs rent. Each draws
its form and the engine's figures in one tab of the Decide page (ui/views/decide.py)."""

from __future__ import annotations

from typing import Literal

import pandas as pd
import streamlit as st

from advisor.glossary import term
from ui.components.decisions import footer, run, summary
from ui.components.fmt import money, number, pct
from ui.i18n import t

KEEP: Literal["session"] = "session"
SERVE_GPUS = ("auto", "H100-SXM", "H800", "H200", "H20", "A100-80GB", "A800-80GB", "L40S", "L20", "L4", "RTX-4090",
              "Ascend-910B", "MI300X")
PRECISIONS = ("bf16", "fp8", "int8", "int4")
QUOTE_GPUS = ("H100-SXM", "H800", "H200", "H20", "A100-80GB", "A800-80GB", "L40S", "RTX-4090", "Ascend-910B")
UNITS = ("gpu_hour", "gpu_month", "node_month", "gpu_year")
OWN_GPUS = ("H100-SXM", "H800", "A100-80GB", "A800-80GB", "RTX-4090")


def serve_tab(lang: str) -> None:
    st.subheader(t("serve.title", lang))
    st.caption(t("serve.intro", lang))
    left, right = st.columns([1, 2.2], gap="large")
    with left, st.container(border=True, key="serve-form"):
        model = st.text_input(t("serve.model", lang), value="llama-3.1-70b", key="serve_model", persist_state=KEEP)
        millions = st.number_input(t("serve.tokens_m", lang), min_value=0.001, value=100.0, step=10.0,
                                   key="serve_tokens", persist_state=KEEP)
        gpu = st.selectbox(t("serve.gpu", lang), SERVE_GPUS, key="serve_gpu", persist_state=KEEP,
                           format_func=lambda g: t("serve.auto", lang) if g == "auto" else g)
        count = st.number_input(t("serve.gpu_count", lang), min_value=0, value=0, step=1, key="serve_count",
                                persist_state=KEEP)
        precision = st.selectbox(t("serve.precision", lang), PRECISIONS, key="serve_precision", persist_state=KEEP)
        tpot = st.number_input(t("serve.tpot", lang), min_value=5.0, value=50.0, step=5.0, key="serve_tpot",
                               persist_state=KEEP)
    args = {"model": model.strip() or None, "tokens_per_day": millions * 1e6, "precision": precision, "tpot_ms": tpot,
            "gpu": None if gpu == "auto" else gpu, "gpu_count": int(count) or None}
    with right:
        if not args["model"]:
            st.info(t("serve.need_model", lang), icon=":material/info:")
            return
        r = run("estimate_serving_cost", args, lang)
        if r is None:
            return
        cur = r["currency"]
        summary(r, lang)
        a, b, c, d = st.columns(4)
        a.metric(t("serve.m_gpus", lang), f"{r['gpu_count']} × {r['gpu']}")
        b.metric(t("serve.m_month", lang), money(r["monthly_cost"], cur))
        c.metric(t("serve.m_per_m", lang), money(r["cost_per_million_tokens"], cur))
        d.metric(t("serve.m_load", lang), pct(r["load_share"]))
        st.caption(t("serve.detail", lang, replicas=r["replicas"], tp=r["gpus_per_replica"],
                     batch=r["batch_per_replica"], tps=number(r["tokens_per_second_per_gpu"]),
                     hours=number(r["gpu_hours_per_month"])))
        if r.get("fractional"):
            st.info(t("serve.slice", lang, slice=pct(r["fractional"]["slice"]),
                      cost=money(r["fractional"]["monthly_cost"], cur)), icon=":material/pie_chart:")
        footer(r, lang, "serve")



def quote_tab(lang: str) -> None:
    st.subheader(t("quote.title", lang))
    st.caption(t("quote.intro", lang))
    left, right = st.columns([1, 2.2], gap="large")
    with left, st.container(border=True, key="quote-form"):
        gpu = st.selectbox(t("quote.gpu", lang), QUOTE_GPUS, key="quote_gpu", persist_state=KEEP)
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
        if r is None:
            return
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



def own_tab(lang: str) -> None:
    st.subheader(t("own.title", lang))
    st.caption(t("own.intro", lang))
    left, right = st.columns([1, 2.2], gap="large")
    with left, st.container(border=True, key="own-form"):
        gpu = st.selectbox(t("own.gpu", lang), OWN_GPUS, key="own_gpu", persist_state=KEEP)
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
        if r is None:
            return
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

