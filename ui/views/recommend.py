"""Recommend: which GPUs, how many, on which billing plan — the options table with the
offers behind them and the cost-vs-time front."""

from __future__ import annotations

from typing import Any

import streamlit as st

from advisor.glossary import term
from advisor.present import present
from ui import services, state
from ui.components.common import error_box
from ui.components.view import view_card
from ui.i18n import t
from ui.widgets import choice

METHODS = ("lora", "qlora", "full", "pretrain")


def controls(lang: str) -> dict[str, Any]:
    with st.container(border=True):
        model = st.text_input(t("est.model", lang), value="llama-3-8b", key="rec_model", help=t("est.model_help", lang))
        method = choice(st.selectbox, t("est.method", lang), METHODS, key="rec_method", lang=lang,
                        format_func=lambda m: term(f"method.{m}", lang))
        tokens = st.number_input(t("est.tokens_b", lang), min_value=0.0001, value=0.1, step=0.1, format="%.4g",
                                 key="rec_tokens")
        deadline = st.number_input(t("est.deadline", lang), min_value=0.0, value=48.0, step=24.0, format="%.0f",
                                   key="rec_deadline")
    args: dict[str, Any] = {"method": method, "tokens_b": tokens, "deadline_hours": deadline or None}
    if model.strip():
        args["model"] = model.strip()
    return args


def main() -> None:
    lang = state.ui_lang()
    st.title(t("rec.title", lang))
    st.caption(t("rec.intro", lang))
    left, right = st.columns([1, 2.4], gap="large")
    with left:
        args = controls(lang)
    s = state.settings()
    args = services.with_settings("recommend_hardware", {**args, "lang": lang}, s)
    args.setdefault("currency", s.currency or ("CNY" if lang == "zh" else "USD"))
    with right:
        if "model" not in args:
            st.info(t("est.need_model", lang), icon=":material/info:")
            return
        outcome = services.cached_tool("recommend_hardware", lang, services.args_key(args))
        if not outcome.ok:
            error_box(outcome.error or "")
            return
        result = outcome.result or {}
        if st.button(t("est.add", lang), icon=":material/note_add:", key="rec_add"):
            state.add_record("recommend_hardware", present("recommend_hardware", result, lang).summary[:80], result, lang)
            st.toast(t("est.added", lang), icon=":material/check:")
        view_card(present("recommend_hardware", result, lang), "rec", open_details=True)


main()
