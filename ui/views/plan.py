"""Plan: a project stage by stage (validation, pre-training, fine-tuning, serving), each
stage's cost and share of the total, with a chart."""

from __future__ import annotations

from typing import Any

import streamlit as st

from advisor.present import present
from ui import services, state
from ui.components.common import error_box
from ui.components.view import view_card
from ui.i18n import t


def controls(lang: str) -> dict[str, Any]:
    with st.container(border=True):
        model = st.text_input(t("est.model", lang), value="llama-2-7b", key="plan_model", help=t("est.model_help", lang))
        gpu = st.text_input(t("est.gpu", lang), value="H100", key="plan_gpu")
        pretrain = st.number_input(t("plan.pretrain", lang), min_value=0.0, value=200.0, step=50.0, key="plan_pre")
        finetune = st.number_input(t("plan.finetune", lang), min_value=0.0, value=0.5, step=0.1, format="%.3g",
                                   key="plan_ft")
        serve = st.number_input(t("plan.serve", lang), min_value=0.0, value=50.0, step=10.0, key="plan_serve")
    args: dict[str, Any] = {"gpu": gpu.strip() or None, "pretrain_tokens_b": pretrain or None,
                            "finetune_tokens_b": finetune or None,
                            "serving_tokens_per_day": serve * 1e6 if serve else None}
    if model.strip():
        args["model"] = model.strip()
    return {k: v for k, v in args.items() if v is not None}


def main() -> None:
    lang = state.ui_lang()
    st.title(t("plan.title", lang))
    st.caption(t("plan.intro", lang))
    left, right = st.columns([1, 2.4], gap="large")
    with left:
        args = controls(lang)
    s = state.settings()
    args = services.with_settings("plan_project", {**args, "lang": lang}, s)
    args.setdefault("currency", s.currency or ("CNY" if lang == "zh" else "USD"))
    with right:
        if "model" not in args:
            st.info(t("est.need_model", lang), icon=":material/info:")
            return
        outcome = services.cached_tool("plan_project", lang, services.args_key(args))
        if not outcome.ok:
            error_box(outcome.error or "")
            return
        result = outcome.result or {}
        if st.button(t("est.add", lang), icon=":material/note_add:", key="plan_add"):
            state.add_record("plan_project", present("plan_project", result, lang).summary[:80], result, lang)
            st.toast(t("est.added", lang), icon=":material/check:")
        view_card(present("plan_project", result, lang), "plan", open_details=True)


main()
