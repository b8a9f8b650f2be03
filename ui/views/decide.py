"""Decide: serving cost, quote check and own vs rent, one tab each (issue #12)."""

from __future__ import annotations

import streamlit as st

from advisor.glossary import term
from ui import state
from ui.components.decision_pages import tool_tab

TABS = {"estimate_serving_cost": "nav.serve", "check_quote": "nav.quote", "compare_own_vs_rent": "nav.own"}


def main() -> None:
    lang = state.ui_lang()
    st.title(term("decide.title", lang))
    for tab, tool in zip(st.tabs([term(name, lang) for name in TABS.values()]), TABS, strict=True):
        with tab:
            tool_tab(tool, lang)


main()
