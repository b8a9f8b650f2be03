"""Choice widgets whose option labels are translated.

A keyed widget keeps the labels it was first drawn with, so a choice whose labels depend on
the page language gets one widget per language (``key__zh``, ``key__en``), all backed by one
value under ``key`` in the session: switching language keeps the choice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st


def _sync(widget_key: str, key: str) -> None:
    st.session_state[key] = st.session_state[widget_key]


def choice(widget: Callable[..., Any], label: str, options: Sequence[Any], *, key: str, lang: str,
           format_func: Callable[[Any], str], default: Any = None, **kwargs: Any) -> Any:
    """``widget`` (st.selectbox, st.radio, st.segmented_control, ...) drawn for ``lang``."""
    if key not in st.session_state:
        st.session_state[key] = default if default is not None else options[0]
    widget_key = f"{key}__{lang}"
    if widget_key not in st.session_state or st.session_state[widget_key] != st.session_state[key]:
        st.session_state[widget_key] = st.session_state[key]
    value = widget(label, options, key=widget_key, format_func=format_func, on_change=_sync,
                   args=(widget_key, key), **kwargs)
    if value is not None:
        st.session_state[key] = value
    return value if value is not None else st.session_state[key]
