"""Compute Cost Advisor, the web app: ``advisor ui`` (or ``make run``) starts it.

Entry point: page config, session state, sidebar, and the pages (``st.navigation``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from string import Template

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `streamlit run ui/app.py` puts only ui/ on the path
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from advisor.glossary import term  # noqa: E402
from ui import sidebar, state  # noqa: E402

VIEWS, ASSETS = Path(__file__).with_name("views"), Path(__file__).with_name("assets")
# The pages, in the top bar's order (views/<name>.py, titled nav.<name>); no icons, so that every page fits the bar.
PAGES = ("chat", "estimate", "recommend", "billing", "plan", "decide", "contract", "usage", "budgets", "learn", "report")


def main() -> None:
    st.set_page_config(page_title="Compute Cost Advisor · 算力成本顾问", page_icon=str(ASSETS / "favicon.png"),
                       layout="wide", initial_sidebar_state="auto")
    state.init()
    lang = state.ui_lang()
    pages = [st.Page(VIEWS / f"{name}.py", title=term(f"nav.{name}", lang), default=not i, url_path=name if i else None)
             for i, name in enumerate(PAGES)]
    page = st.navigation(pages, position="top")
    if lang == "zh":  # the uploader's own words are English: the glossary's are shown instead
        css = Template((ASSETS / "uploader_words.css").read_text(encoding="utf-8"))
        words = {"drop": term("app.uploader_drop", lang), "browse": term("app.uploader_browse", lang)}
        st.html(f"<style>{css.substitute(words)}</style>")
    sidebar.render()
    page.run()


main()
