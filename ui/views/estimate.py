"""Estimate: a form for one training run with what-if controls (GPU type and count, MFU,
price, billing mode) and the hidden costs, as ui/forms.yaml describes them. Every change
re-prices the run at once; a pinned baseline shows what each change is worth."""

from __future__ import annotations

from typing import Any

import streamlit as st

from advisor.glossary import term
from advisor.present import present
from ui.components.common import page
from ui.components.decision_pages import add_button, form_args, run
from ui.components.results import estimate_card


def config_line(result: dict[str, Any], lang: str) -> str:
    """What was priced, in a line (the view's "understood")."""
    return " · ".join(present("estimate_training_cost", result, lang).understood)


def main() -> None:
    lang = page("est")
    left, right = st.columns([1, 2.2], gap="large")
    with left:
        with st.container(border=True, key="est-job"):
            st.markdown(f"**{term('est.job', lang)}**")
            args = form_args("estimate_job", lang)
        with st.container(border=True, key="est-whatif"):  # every change re-prices at once
            st.markdown(f"**{term('est.whatif', lang)}**")
            args.update(form_args("estimate_whatif", lang))
            with st.expander(term("est.hidden", lang)):
                args.update(form_args("estimate_hidden", lang))
    with right:
        if "model" not in args and "params_b" not in args:
            st.info(term("est.need_model", lang), icon=":material/info:")
            st.stop()
        result = run("estimate_training_cost", args, lang)
        if result is None:
            st.stop()
        baseline = st.session_state.get("est_baseline")
        if baseline:
            st.caption(term("est.baseline_caption", lang, text=config_line(baseline, lang)))
        with st.container(horizontal=True, key="est-actions"):
            if st.button(term("est.pin", lang), icon=":material/push_pin:", key="est_pin"):
                st.session_state.est_baseline = result
                baseline = result
            if baseline and st.button(term("est.unpin", lang), key="est_unpin", type="tertiary"):
                st.session_state.est_baseline = None
                baseline = None
            add_button(result, present("estimate_training_cost", result, lang), "est_add")
        estimate_card(result, lang, "est", baseline=baseline if baseline is not result else None)


main()
