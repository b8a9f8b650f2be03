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
from ui.components.progress import run_with_progress
from ui.components.view import view_card
from ui.widgets import choice

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "fleet_smi.csv"
FILE_TYPES = ["csv", "gz", "parquet", "txt", "metrics", "prom"]
MODES = ("on_demand", "committed", "spot")


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


def summary_tab(lang: str, currency: str) -> dict[str, Any] | None:
    c1, c2 = st.columns(2)
    gpus = c1.number_input(term("use.gpu_count", lang), min_value=1, value=64, step=8, key="use_gpus",
                           persist_state="session")
    util = c2.slider(term("use.avg_util", lang), min_value=0, max_value=100, value=35, key="use_util",
                     persist_state="session")
    c3, c4 = st.columns(2)
    price = c3.number_input(f"{term('use.price', lang)} ({currency})", min_value=0.01, value=10.0 if currency == "CNY" else 2.0,
                            step=0.5, key=f"use_price_{currency}", persist_state="session")
    period = c4.number_input(term("use.period", lang), min_value=1.0, value=730.0, step=24.0, key="use_period",
                             persist_state="session")
    modes = {m: term(f"mode.{m}", lang) for m in MODES}
    mode = choice(st.segmented_control, term("use.billing_mode", lang), MODES, key="use_mode", lang=lang,
                  format_func=modes.__getitem__)
    if not st.button(term("use.analyze", lang), type="primary", key="use_go_summary", icon=":material/query_stats:"):
        return None
    return {"gpu_count": int(gpus), "avg_utilization": util / 100, "price_per_gpu_hour": price,
            "period_hours": period, "currency": currency, "billing_mode": mode or "on_demand"}


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
