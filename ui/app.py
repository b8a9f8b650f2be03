"""Compute Cost Advisor, the web app: ``advisor ui`` (or ``make run``) starts it.

Entry point: page config, session state, sidebar, and the pages (``st.navigation``).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `streamlit run ui/app.py` puts only ui/ on the path
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from ui import sidebar, state  # noqa: E402
from ui.i18n import t  # noqa: E402

VIEWS = Path(__file__).with_name("views")
PAGES = (  # (file, nav key, icon, default)
    ("chat.py", "nav.chat", ":material/chat:", True),
    ("estimate.py", "nav.estimate", ":material/calculate:", False),
    ("decide.py", "nav.decide", ":material/balance:", False),
    ("contract.py", "nav.contract", ":material/gavel:", False),
    ("usage.py", "nav.usage", ":material/monitoring:", False),
    ("learn.py", "nav.learn", ":material/school:", False),
    ("report.py", "nav.report", ":material/description:", False),
)


def main() -> None:
    st.set_page_config(page_title="Compute Cost Advisor · 算力成本顾问", page_icon=str(Path(__file__).with_name("assets") / "favicon.png"),
                       layout="wide", initial_sidebar_state="auto")
    state.init()
    lang = state.ui_lang()
    pages = [st.Page(VIEWS / file, title=t(key, lang), icon=icon, default=default,
                     url_path=file.removesuffix(".py") if not default else None)
             for file, key, icon, default in PAGES]
    page = st.navigation(pages, position="top")
    sidebar.render()
    page.run()


main()
