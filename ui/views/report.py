"""Report: the session's estimates, reviews and analyses, exported as Markdown and HTML."""

from __future__ import annotations

import streamlit as st

from advisor.glossary import term
from ui import report
from ui.components.common import page


def main() -> None:
    lang = page("rep")
    records = st.session_state.records
    if not records:
        st.info(term("rep.empty", lang), icon=":material/inbox:")
        return
    chosen = []
    with st.container(border=True, key="rep-include"):
        st.markdown(f"**{term('rep.include', lang)}**")
        for r in records:
            label = f"{term('tool.' + r['kind'], lang)} — {r['title']} · {r['when']}"
            if st.checkbox(label, value=True, key=f"rep_inc_{r['id']}"):
                chosen.append(r)
    markdown = report.to_markdown(chosen, lang)
    with st.container(horizontal=True, key="rep-actions"):
        st.download_button(term("rep.md", lang), markdown, file_name="compute-cost-report.md", mime="text/markdown",
                           icon=":material/download:", on_click="ignore", type="primary", disabled=not chosen)
        st.download_button(term("rep.html", lang), report.to_html(markdown, lang), file_name="compute-cost-report.html",
                           mime="text/html", icon=":material/html:", on_click="ignore", disabled=not chosen)
        if st.button(term("rep.clear", lang), type="tertiary", icon=":material/delete:", key="rep_clear"):
            st.session_state.records = []
            st.rerun()
    st.subheader(term("rep.preview", lang), divider="gray")
    with st.container(border=True, key="rep-preview"):
        st.markdown(markdown)


main()
