"""Small shared pieces: the assumptions expander, citations, error boxes."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from ui.i18n import t


def assumptions_expander(assumptions: list[dict[str, Any]], lang: str) -> None:
    if not assumptions:
        return
    with st.expander(t("card.assumptions", lang, n=len(assumptions)), icon=":material/fact_check:"):
        rows = [{
            t("card.col_name", lang): a.get("name", ""),
            t("card.col_value", lang): f"{a.get('value')}" + (f" {a['unit']}" if a.get("unit") else ""),
            t("card.col_source", lang): a.get("source", ""),
        } for a in assumptions]
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def citations_block(citations: list[dict[str, Any]], lang: str) -> None:
    if not citations:
        return
    items = [f"- {title}" for title in dict.fromkeys(str(c.get("title", "")) for c in citations)]
    st.markdown(f"**{t('card.citations', lang)}**\n" + "\n".join(items))


def error_box(message: str) -> None:
    st.error(message, icon=":material/error:")
