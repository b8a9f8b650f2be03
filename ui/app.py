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
PAGES = (  # (file, nav key, default); no icons, so that every page fits the top bar
    ("chat.py", "nav.chat", True),
    ("estimate.py", "nav.estimate", False),
    ("recommend.py", "nav.recommend", False),
    ("billing.py", "nav.billing", False),
    ("plan.py", "nav.plan", False),
    ("decide.py", "nav.decide", False),
    ("contract.py", "nav.contract", False),
    ("usage.py", "nav.usage", False),
    ("budgets.py", "nav.budgets", False),
    ("learn.py", "nav.learn", False),
    ("report.py", "nav.report", False),
)


UPLOADER_ZH = """<style>
[data-testid="stFileUploaderDropzoneInstructions"] > div > span,
[data-testid="stFileUploaderDropzoneInstructions"] > div > small {display: none}
[data-testid="stFileUploaderDropzoneInstructions"] > div::after {content: "拖放文件到这里（每个文件不超过 200MB）"; font-size: .875rem}
[data-testid="stFileUploaderDropzone"] button[data-testid="stBaseButton-secondary"] > * {display: none}
[data-testid="stFileUploaderDropzone"] button[data-testid="stBaseButton-secondary"]::after {content: "选择文件"; font-size: .875rem}
</style>"""


def main() -> None:
    st.set_page_config(page_title="Compute Cost Advisor · 算力成本顾问", page_icon=str(Path(__file__).with_name("assets") / "favicon.png"),
                       layout="wide", initial_sidebar_state="auto")
    state.init()
    lang = state.ui_lang()
    pages = [st.Page(VIEWS / file, title=term(key, lang), default=default,
                     url_path=file.removesuffix(".py") if not default else None)
             for file, key, default in PAGES]
    page = st.navigation(pages, position="top")
    if lang == "zh":  # Streamlit's uploader has no language option: its own words are replaced
        st.html(UPLOADER_ZH)
    sidebar.render()
    page.run()


main()
