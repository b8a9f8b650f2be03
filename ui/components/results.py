"""One card per tool result: ``tool_card(name, result, lang, key)`` draws the report's view
(advisor.present), charts included."""

from __future__ import annotations

from typing import Any

import streamlit as st

from advisor.glossary import term
from advisor.present import PRESENTERS, present
from advisor.present.fmt import money
from ui.components.view import view_card


def estimate_card(result: Any, lang: str, key: str, baseline: Any = None) -> None:
    v = present("estimate_training_cost", result, lang)
    if baseline is not None:
        base = present("estimate_training_cost", baseline, lang)
        diff = (v.headline.raw or 0.0) - (base.headline.raw or 0.0)
        if abs(diff) > 1e-9:
            v.headline.range = (v.headline.range or "") + " · " + term(
                "label.vs_baseline", lang, diff=("+" if diff > 0 else "−") + money(abs(diff), result["cost"]["currency"]))
    with st.container(border=True, key=f"card-{key}"):
        view_card(v, key, per_row=3)


def knowledge_card(r: dict[str, Any], lang: str, key: str) -> None:
    hits = r.get("hits") or []
    if not hits:
        return
    with st.expander(f"{term('label.hits', lang)} ({len(hits)})", icon=":material/menu_book:"):
        for h in hits:
            st.markdown(f"**{h.get('title', '')} › {h.get('section', '')}**  \n"
                        f"{h.get('snippet') or h.get('text', '')[:300]}")


def tool_card(name: str, result: Any, lang: str, key: str, *, in_chat: bool = False, lazy: bool | None = None) -> None:
    """The card of one tool result. ``in_chat``: the answer above already says the summary;
    ``lazy``: see :func:`ui.components.view.fold`."""
    if name == "search_knowledge":
        knowledge_card(result, lang, key)
        return
    if name not in PRESENTERS:
        with st.expander(name):
            st.json(result, expanded=False)
        return
    with st.container(border=True, key=f"card-{key}"):
        view_card(present(name, result, lang), key, in_chat=in_chat, lazy=lazy)
