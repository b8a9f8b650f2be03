"""Estimate: a form for one training run with what-if controls (GPU type and count, MFU,
price, billing mode) and the hidden costs, as ui/forms.yaml describes them. Every change
re-prices the run at once; a pinned baseline shows what each change is worth."""

from __future__ import annotations

import streamlit as st

from advisor.glossary import term
from advisor.present import present
from advisor.present.fmt import money
from ui.components.common import page
from ui.components.decision_pages import add_button, form_args, run
from ui.components.view import view_card


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
        view, baseline = present("estimate_training_cost", result, lang), st.session_state.get("est_baseline")
        base = present("estimate_training_cost", baseline, lang) if baseline else None
        if base is not None:  # what was priced, in a line (the view's "understood")
            st.caption(term("est.baseline_caption", lang, text=" · ".join(base.understood)))
        with st.container(horizontal=True, key="est-actions"):
            if st.button(term("est.pin", lang), icon=":material/push_pin:", key="est_pin"):
                st.session_state.est_baseline, base = result, None
            if base is not None and st.button(term("est.unpin", lang), key="est_unpin", type="tertiary"):
                st.session_state.est_baseline = base = None
            add_button(result, view, "est_add")
        diff = (view.headline.raw or 0.0) - (base.headline.raw or 0.0) if base is not None else 0.0
        if abs(diff) > 1e-9:
            view.headline.range = (view.headline.range or "") + " · " + term(
                "label.vs_baseline", lang, diff=("+" if diff > 0 else "−") + money(abs(diff), result["cost"]["currency"]))
        with st.container(border=True, key="card-est"):
            view_card(view, "est", per_row=3)


main()
