"""Billing: the same usage priced under every billing mode, sorted by cost, with the
break-even points; modes that do not suit the work are greyed out."""

from __future__ import annotations

from typing import Any

import streamlit as st

from advisor.present import present
from ui import services, state
from ui.components.common import error_box
from ui.components.view import view_card
from ui.i18n import t

GPU_CHOICES = ("H100-SXM", "A100-80GB", "A800-80GB", "H800", "H200", "H20", "L40S", "RTX-4090", "Ascend-910B")


def controls(lang: str) -> dict[str, Any]:
    with st.container(border=True):
        gpu = st.selectbox(t("est.gpu", lang), GPU_CHOICES, key="bill_gpu", accept_new_options=True)
        count = st.number_input(t("bill.gpus", lang), min_value=1, max_value=16384, value=8, step=1, key="bill_count")
        days = st.number_input(t("bill.days", lang), min_value=0.5, value=30.0, step=1.0, key="bill_days")
        hours = st.slider(t("bill.hours_per_day", lang), min_value=1, max_value=24, value=24, key="bill_hpd")
        interruptible = st.toggle(t("bill.interruptible", lang), key="bill_interruptible")
    return {"gpu": gpu, "gpu_count": int(count), "wall_hours": float(days) * 24, "hours_per_day": float(hours),
            "interruptible": bool(interruptible)}


def main() -> None:
    lang = state.ui_lang()
    st.title(t("bill.title", lang))
    st.caption(t("bill.intro", lang))
    left, right = st.columns([1, 2.4], gap="large")
    with left:
        args = controls(lang)
    s = state.settings()
    args = services.with_settings("compare_billing", {**args, "lang": lang}, s)
    args.setdefault("currency", s.currency or ("CNY" if lang == "zh" else "USD"))
    with right:
        outcome = services.cached_tool("compare_billing", lang, services.args_key(args))
        if not outcome.ok:
            error_box(outcome.error or "")
            return
        result = outcome.result or {}
        if st.button(t("est.add", lang), icon=":material/note_add:", key="bill_add"):
            state.add_record("compare_billing", present("compare_billing", result, lang).summary[:80], result, lang)
            st.toast(t("est.added", lang), icon=":material/check:")
        view_card(present("compare_billing", result, lang), "bill", open_details=True)


main()
