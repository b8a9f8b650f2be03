"""Small shared pieces: a page's head, error boxes."""

from __future__ import annotations

from typing import Any

import streamlit as st

from advisor.glossary import term
from ui import state
from ui.services import Outcome
from ui.state import Lang


def page(words: str) -> Lang:
    """The page's language, after its title and intro (the entries ``<words>.title`` and ``<words>.intro``)."""
    lang = state.ui_lang()
    st.title(term(f"{words}.title", lang))
    st.caption(term(f"{words}.intro", lang))
    return lang


def error_box(message: str) -> None:
    st.error(message, icon=":material/error:")


def shown(outcome: Outcome) -> dict[str, Any] | None:
    """The outcome's report, or None after an error box with its message."""
    if not outcome.ok:
        error_box(outcome.error or "")
        return None
    return outcome.result or {}
