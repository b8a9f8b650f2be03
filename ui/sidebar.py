"""Sidebar settings: language, offline or an LLM endpoint, currency, price sheet, budget and
approval threshold. Widgets keep their values in the session (keys in :mod:`ui.state`)."""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from streamlit.runtime.uploaded_file_manager import UploadedFile

from advisor.glossary import term
from ui import state
from ui.services import discard_uploads, endpoint, operator_config, save_uploads
from ui.widgets import choice


def _save_price_sheet(upload: UploadedFile | None) -> None:
    """The uploaded sheet serves this session's tools; its temporary copy is deleted when the
    user removes or replaces it."""
    kept, old = st.session_state, st.session_state.get("prices_file")
    if (upload is None and not kept.get("prices_id")) or (
            upload is not None and kept.get("prices_id") == upload.file_id and old and Path(old).exists()):
        return  # no sheet, or the same one
    discard_uploads([old] if old else [])
    if upload is None:  # the user removed the sheet
        kept.prices_file = kept.prices_name = kept.prices_id = None
    else:
        kept.prices_file = save_uploads([(upload.name, upload.getvalue())])[0]
        kept.prices_name, kept.prices_id = upload.name, upload.file_id


def _prefill_from_operator() -> None:
    """Once per session: offer the operator's configured endpoint (its base URL and model; the
    key stays on the server and is used only with that base URL, see services.endpoint)."""
    if st.session_state.get("_operator_prefilled"):
        return
    st.session_state._operator_prefilled = True

    cfg = operator_config()
    if cfg is not None and not st.session_state.get(state.K_BASE_URL):
        st.session_state[state.K_BASE_URL] = cfg.base_url
        st.session_state[state.K_MODEL] = cfg.model
        st.session_state[state.K_OFFLINE] = False


def render() -> None:
    _prefill_from_operator()
    lang = state.ui_lang()
    with st.sidebar:
        names = {"auto": term("side.lang_auto", lang), "zh": "中文", "en": "English"}
        choice(st.radio, term("side.language", lang), ["auto", "zh", "en"], key=state.K_LANG, lang=lang,
               format_func=names.__getitem__, horizontal=True)
        st.subheader(term("side.assistant", lang), divider="gray")
        st.toggle(term("side.offline", lang), key=state.K_OFFLINE, help=term("side.offline_help", lang))
        if not st.session_state[state.K_OFFLINE]:
            st.text_input(term("side.base_url", lang), key=state.K_BASE_URL, placeholder="http://127.0.0.1:8000/v1")
            st.text_input(term("side.model", lang), key=state.K_MODEL, placeholder="qwen-plus / gpt-4o-mini")
            st.text_input(term("side.api_key", lang), key=state.K_API_KEY, type="password",
                          help=term("side.api_key_help", lang), autocomplete="off")
            s = state.settings()
            if not s.use_llm:
                st.caption(term("side.llm_incomplete", lang))
            elif not state.api_key():
                st.caption(term("side.needs_key" if endpoint(s, None).missing_key else "side.server_key", lang))
        st.subheader(term("side.pricing", lang), divider="gray")
        currencies = {"auto": term("side.currency_auto", lang), "CNY": "CNY ¥", "USD": "USD $"}
        choice(st.selectbox, term("side.currency", lang), list(currencies), key=state.K_CURRENCY, lang=lang,
               format_func=currencies.__getitem__)
        upload = st.file_uploader(term("side.price_sheet", lang), type=["csv"], help=term("side.price_sheet_help", lang),
                                  key="price_sheet_upload")
        _save_price_sheet(upload)
        if st.session_state.get("prices_name"):
            st.caption(term("side.price_sheet_loaded", lang, name=st.session_state.prices_name))
        st.subheader(term("side.budget_head", lang), divider="gray")
        st.number_input(term("side.budget", lang), min_value=0.0, step=1000.0, key=state.K_BUDGET, format="%.0f")
        st.number_input(term("side.threshold", lang), min_value=0.0, step=1000.0, key=state.K_THRESHOLD, format="%.0f")
        st.divider()
        st.button(term("side.new_chat", lang), on_click=state.clear_conversation, icon=":material/refresh:",
                  width="stretch")
        st.caption(term("side.footer", lang))
