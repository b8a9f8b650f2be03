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

from advisor.glossary import term  # noqa: E402
from ui import sidebar, state  # noqa: E402

VIEWS = Path(__file__).with_name("views")
# The pages, in the top bar's order (views/<name>.py, titled nav.<name>); no icons, so that every page fits the bar.
PAGES = ("chat", "estimate", "recommend", "billing", "plan", "decide", "contract", "usage", "budgets", "learn", "report")

# Streamlit's uploader has no language option: in Chinese its own words are replaced by the glossary's
UPLOADER = """<style>
[data-testid="stFileUploaderDropzoneInstructions"] > div > span,
[data-testid="stFileUploaderDropzoneInstructions"] > div > small {{display: none}}
[data-testid="stFileUploaderDropzoneInstructions"] > div::after {{content: "{drop}"; font-size: .875rem}}
[data-testid="stFileUploaderDropzone"] button[data-testid="stBaseButton-secondary"] > * {{display: none}}
[data-testid="stFileUploaderDropzone"] button[data-testid="stBaseButton-secondary"]::after {{content: "{browse}"; font-size: .875rem}}
</style>"""


def main() -> None:
    st.set_page_config(page_title="Compute Cost Advisor · 算力成本顾问", page_icon=str(Path(__file__).with_name("assets") / "favicon.png"),
                       layout="wide", initial_sidebar_state="auto")
    state.init()
    lang = state.ui_lang()
    pages = [st.Page(VIEWS / f"{name}.py", title=term(f"nav.{name}", lang), default=not i, url_path=name if i else None)
             for i, name in enumerate(PAGES)]
    page = st.navigation(pages, position="top")
    if lang == "zh":  # Streamlit's own English words would show
        st.html(UPLOADER.format(drop=term("app.uploader_drop", lang), browse=term("app.uploader_browse", lang)))
    sidebar.render()
    page.run()


main()
