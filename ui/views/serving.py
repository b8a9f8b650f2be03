"""Serving: GPUs and the monthly bill for a daily token volume (estimate_serving_cost)."""

from __future__ import annotations

from typing import Literal

import streamlit as st

from ui import state
from ui.components.decisions import footer, run, summary
from ui.components.fmt import money, number, pct
from ui.i18n import t

KEEP: Literal["session"] = "session"
GPUS = ("auto", "H100-SXM", "H800", "H200", "H20", "A100-80GB", "A800-80GB", "L40S", "L20", "L4", "RTX-4090",
        "Ascend-910B", "MI300X")
PRECISIONS = ("bf16", "fp8", "int8", "int4")


def main() -> None:
    lang = state.ui_lang()
    st.title(t("serve.title", lang))
    st.caption(t("serve.intro", lang))
    left, right = st.columns([1, 2.2], gap="large")
    with left, st.container(border=True, key="serve-form"):
        model = st.text_input(t("serve.model", lang), value="llama-3.1-70b", key="serve_model", persist_state=KEEP)
        millions = st.number_input(t("serve.tokens_m", lang), min_value=0.001, value=100.0, step=10.0,
                                   key="serve_tokens", persist_state=KEEP)
        gpu = st.selectbox(t("serve.gpu", lang), GPUS, key="serve_gpu", persist_state=KEEP,
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
            st.stop()
        r = run("estimate_serving_cost", args, lang)
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


main()
