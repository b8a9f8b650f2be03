"""Estimate: a form for one training run with what-if controls (GPU type and count, MFU,
price, billing mode). Every change re-prices the run at once; a pinned baseline shows what
each change is worth."""

from __future__ import annotations

from typing import Any, Literal

import streamlit as st

from advisor.glossary import term
from advisor.present import present
from ui import services, state
from ui.components.common import error_box
from ui.components.results import estimate_card
from ui.i18n import t
from ui.widgets import choice

# Choices offered in the lists (any other catalog name or alias can be typed in).
GPU_CHOICES = ("A100-80GB", "A100-40GB", "A800-80GB", "H100-SXM", "H100-PCIe", "H800", "H200", "H20", "B200",
               "L40S", "L4", "A10G", "T4", "RTX-4090", "MI300X", "Ascend-910B")
METHODS = ("lora", "qlora", "full", "pretrain")
BILLING = ("on_demand", "daily", "monthly", "yearly", "off_peak", "spot", "per_task")
KEEP: Literal["session"] = "session"  # widgets keep their values when the user visits another page


def job_controls(lang: str) -> dict[str, Any]:
    st.markdown(f"**{t('est.job', lang)}**")
    model = st.text_input(t("est.model", lang), value="llama-3-8b", key="est_model", help=t("est.model_help", lang),
                          persist_state=KEEP)
    params_b = st.number_input(t("est.params", lang), min_value=0.0, value=0.0, step=1.0, key="est_params",
                               persist_state=KEEP)
    methods = {m: term(f"method.{m}", lang) for m in METHODS}
    method = choice(st.selectbox, t("est.method", lang), METHODS, key="est_method", lang=lang,
                    format_func=methods.__getitem__)
    data_names = {v: t(f"est.data_{v}", lang) for v in ("samples", "tokens")}
    data_as = choice(st.segmented_control, t("est.data_as", lang), list(data_names), key="est_data_as", lang=lang,
                     format_func=data_names.__getitem__)
    args: dict[str, Any] = {"method": method}
    if model.strip():
        args["model"] = model.strip()
    elif params_b > 0:
        args["params_b"] = params_b
    if data_as == "samples":
        args["samples"] = st.number_input(t("est.samples", lang), min_value=1, value=50_000, step=10_000,
                                          key="est_samples", persist_state=KEEP)
        args["tokens_per_sample"] = st.number_input(t("est.tokens_per_sample", lang), min_value=1, value=800,
                                                    step=100, key="est_tps", persist_state=KEEP)
        args["epochs"] = st.number_input(t("est.epochs", lang), min_value=0.1, value=3.0, step=1.0,
                                         key="est_epochs", persist_state=KEEP)
    else:
        args["tokens_b"] = st.number_input(t("est.tokens_b", lang), min_value=0.0001, value=0.1, step=0.1,
                                           format="%.4g", key="est_tokens_b", persist_state=KEEP)
    return args


def whatif_controls(lang: str) -> dict[str, Any]:
    st.markdown(f"**{t('est.whatif', lang)}**")
    args: dict[str, Any] = {}
    args["gpu"] = st.selectbox(t("est.gpu", lang), GPU_CHOICES, key="est_gpu", accept_new_options=True,
                               persist_state=KEEP)
    count = st.number_input(t("est.gpu_count", lang), min_value=0, max_value=16384, value=0, step=1,
                            key="est_count", persist_state=KEEP)
    mfu = st.slider(t("est.mfu", lang), min_value=0.0, max_value=0.8, value=0.0, step=0.01,
                    key="est_mfu", help=t("est.mfu_help", lang), persist_state=KEEP)
    price = st.number_input(t("est.price", lang), min_value=0.0, value=0.0, step=0.5, format="%.2f",
                            key="est_price", persist_state=KEEP)
    modes = {m: term(f"mode.{m}", lang) for m in BILLING}
    args["billing"] = choice(st.selectbox, t("est.billing", lang), BILLING, key="est_billing", lang=lang,
                             format_func=modes.__getitem__)
    deadline = st.number_input(t("est.deadline", lang), min_value=0.0, value=0.0, step=24.0, format="%.0f",
                               key="est_deadline", persist_state=KEEP)
    args.update({"gpu_count": int(count) or None, "mfu": mfu or None, "price_per_gpu_hour": price or None,
                 "deadline_hours": deadline or None})
    args.update(hidden_cost_controls(lang))
    return args


HOSTING = ("cloud", "colocation", "owned")


def hidden_cost_controls(lang: str) -> dict[str, Any]:
    """Costs the rent leaves out (REQUIREMENTS A1, A3, D3); 0 = not given."""
    with st.expander(t("est.hidden", lang)):
        names = {h: t(f"est.hosting_{h}", lang) for h in HOSTING}
        hosting = choice(st.selectbox, t("est.hosting", lang), HOSTING, key="est_hosting", lang=lang,
                         format_func=names.__getitem__)
        values = {
            field: st.number_input(t(f"est.{field}", lang), min_value=0.0, value=0.0, step=step, key=f"est_{field}",
                                   persist_state=KEEP)
            for field, step in (("support_cost", 100.0), ("idle_wait_hours", 1.0), ("egress_gb", 10.0),
                                ("interconnect_surcharge_per_gpu_hour", 0.05), ("free_gpu_hours", 10.0))
        }
    return {"hosting": None if hosting == "cloud" else hosting, **{k: v or None for k, v in values.items()}}


def config_line(result: dict[str, Any], lang: str) -> str:
    """What was priced, in a line (the view's "understood")."""
    return " · ".join(present("estimate_training_cost", result, lang).understood)


def page_currency(s: state.Settings, lang: str) -> str:
    return s.currency or ("CNY" if lang == "zh" else "USD")


def main() -> None:
    lang = state.ui_lang()
    st.title(t("est.title", lang))
    st.caption(t("est.intro", lang))
    left, right = st.columns([1, 2.2], gap="large")
    with left:
        with st.container(border=True, key="est-job"):
            args = job_controls(lang)
        with st.container(border=True, key="est-whatif"):
            args.update(whatif_controls(lang))
    s = state.settings()
    args = services.with_settings("estimate_training_cost", args, s)
    args["currency"] = page_currency(s, lang)
    args["lang"] = lang
    with right:
        if "model" not in args and "params_b" not in args:
            st.info(t("est.need_model", lang), icon=":material/info:")
            st.stop()
        outcome = services.cached_tool("estimate_training_cost", lang, services.args_key(args))
        if not outcome.ok:
            error_box(outcome.error or "")
            st.stop()
        result = outcome.result or {}
        baseline = st.session_state.get("est_baseline")
        if baseline:
            st.caption(t("est.baseline_caption", lang, text=config_line(baseline, lang)))
        with st.container(horizontal=True, key="est-actions"):
            if st.button(t("est.pin", lang), icon=":material/push_pin:", key="est_pin"):
                st.session_state.est_baseline = result
                baseline = result
            if baseline and st.button(t("est.unpin", lang), key="est_unpin", type="tertiary"):
                st.session_state.est_baseline = None
                baseline = None
            if st.button(t("est.add", lang), icon=":material/note_add:", key="est_add"):
                state.add_record("estimate_training_cost", config_line(result, lang), result, lang)
                st.toast(t("est.added", lang), icon=":material/check:")
        estimate_card(result, lang, "est", baseline=baseline if baseline is not result else None)


main()
