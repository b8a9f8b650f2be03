"""The decision tools' pages (issue #12): serving cost, quote check, own vs rent. Each draws
its form and the engine's figures in one tab of the Decide page (ui/views/decide.py)."""

from __future__ import annotations

from typing import Any, Literal

import streamlit as st

from advisor.present import present
from ui import services, state
from ui.components.common import error_box
from ui.components.view import view_card
from ui.i18n import t

KEEP: Literal["session"] = "session"
SERVE_GPUS = ("auto", "H100-SXM", "H800", "H200", "H20", "A100-80GB", "A800-80GB", "L40S", "L20", "L4", "RTX-4090",
              "Ascend-910B", "MI300X")
PRECISIONS = ("bf16", "fp8", "int8", "int4")
QUOTE_GPUS = ("H100-SXM", "H800", "H200", "H20", "A100-80GB", "A800-80GB", "L40S", "RTX-4090", "Ascend-910B")
UNITS = ("gpu_hour", "gpu_month", "node_month", "gpu_year")
OWN_GPUS = ("H100-SXM", "H800", "A100-80GB", "A800-80GB", "RTX-4090")


def run(tool: str, args: dict[str, Any], lang: str) -> dict[str, Any] | None:
    """The tool's report for ``args`` (sidebar currency and price sheet filled in); None after a
    clear error box on bad input."""
    s = state.settings()
    args = services.with_settings(tool, args, s)
    args.setdefault("currency", s.currency or ("CNY" if lang == "zh" else "USD"))
    args["lang"] = lang
    outcome = services.cached_tool(tool, lang, services.args_key(args))  # type: ignore[arg-type]
    if not outcome.ok:
        error_box(outcome.error or "")
        return None
    return outcome.result or {}


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
        view_card(present("estimate_serving_cost", r, lang), "serve")


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
        view_card(present("check_quote", r, lang), "quote")


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
        view_card(present("compare_own_vs_rent", r, lang), "own")

