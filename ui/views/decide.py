"""Decide: serving cost, quote check and own vs rent, one tab each (issue #12)."""

from __future__ import annotations

import streamlit as st

from ui import state
from ui.components.decision_pages import own_tab, quote_tab, serve_tab
from ui.i18n import t


def main() -> None:
    lang = state.ui_lang()
    st.title(t("decide.title", lang))
    serve, quote, own = st.tabs([t("nav.serve", lang), t("nav.quote", lang), t("nav.own", lang)])
    with serve:
        serve_tab(lang)
    with quote:
        quote_tab(lang)
    with own:
        own_tab(lang)


main()
