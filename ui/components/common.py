"""Small shared pieces: citations, error boxes."""

from __future__ import annotations

from typing import Any

import streamlit as st

from advisor.glossary import term


def citations_block(citations: list[dict[str, Any]], lang: str) -> None:
    if not citations:
        return
    items = [f"- {title}" for title in dict.fromkeys(str(c.get("title", "")) for c in citations)]
    st.markdown(f"**{term('card.citations', lang)}**\n" + "\n".join(items))


def error_box(message: str) -> None:
    st.error(message, icon=":material/error:")
