"""Usage: upload GPU telemetry or a billing export (or describe the fleet in numbers) and
see utilization charts, idle and forgotten resources, and what the waste costs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import streamlit as st

from advisor.glossary import term
from advisor.present import present
from ui import services, state
from ui.components.common import page, shown
from ui.components.decision_pages import form_args
from ui.components.progress import run_with_progress
from ui.components.view import view_card
from ui.state import Lang

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "fleet_smi.csv"
FILE_TYPES = ["csv", "gz", "parquet", "txt", "metrics", "prom"]


def files_tab(lang: str, currency: str | None) -> dict[str, Any] | None:
    uploads = st.file_uploader(term("use.upload", lang), type=FILE_TYPES, accept_multiple_files=True, key="use_upload")
    sample = st.button(term("use.sample", lang), type="tertiary", icon=":material/dataset:", key="use_sample_btn")
    price = st.number_input(term("use.file_price", lang), min_value=0.0, value=0.0, step=0.5, format="%.2f",
                            key="use_file_price", help=term("use.price_help", lang), persist_state="session")
    go = st.button(term("use.analyze", lang), type="primary", key="use_go_files", icon=":material/query_stats:")
    if not (go or sample):
        return None
    if sample:
        paths = [str(SAMPLE)]
    elif uploads:
        paths = services.save_uploads([(u.name, u.getvalue()) for u in uploads])  # deleted after the analysis
    else:
        st.warning(term("use.none", lang))
        return None
    args: dict[str, Any] = {"files": paths}
    if price > 0:
        args["price_per_gpu_hour"] = price
        if currency:
            args["currency"] = currency
    return args


def summary_tab(lang: Lang, currency: str) -> dict[str, Any] | None:
    """The fleet summary (ui/forms.yaml ``analyze_usage_summary``), as tool arguments once asked."""
    args = form_args("analyze_usage_summary", lang, currency)
    if not st.button(term("use.analyze", lang), type="primary", key="use_go_summary", icon=":material/query_stats:"):
        return None
    return {**args, "currency": currency}


def main() -> None:
    lang = page("use")
    s = state.settings()
    currency = s.currency_for(lang)
    files, summary = st.tabs([term("use.tab_files", lang), term("use.tab_summary", lang)])
    with files:
        args = files_tab(lang, s.currency)
    with summary:
        args = summary_tab(lang, currency) or args
    if args is not None:
        outcome = run_with_progress("analyze_usage", lang, term("use.running", lang), lang=lang, **args)
        st.session_state.use_result = outcome
        if outcome.result is not None:
            state.add_record("analyze_usage", present("analyze_usage", outcome.result, lang).summary[:80], outcome.result, lang)
    kept = st.session_state.get("use_result")
    result = shown(kept) if kept is not None else None
    if result is not None:
        view_card(present("analyze_usage", result, lang), "use", open_details=True)


main()
