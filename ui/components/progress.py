"""Progress of long work on a page: the steps a tool reports, drawn on a Streamlit bar inside
an ``st.status`` box (usage analysis, contract review, hardware sweeps, ledger imports)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import streamlit as st

from advisor.glossary import term
from ui import services
from ui.state import Lang


def progress_sink(bar: Any, lang: str) -> Callable[[str], None]:
    """A tool's progress sink that moves ``bar`` (an ``st.progress``) when a message carries
    ``done``/``total`` (:class:`advisor.progress.Step`). Only calls from the page's own
    thread draw: the engines also report from their polling threads, where Streamlit cannot."""
    owner = threading.current_thread()

    def sink(message: str) -> None:
        if threading.current_thread() is not owner:
            return
        done, total = getattr(message, "done", None), getattr(message, "total", None)
        if total:
            share = min(1.0, float(done or 0) / float(total))
            bar.progress(share, text=term("use.step", lang, pct=round(share * 100)))

    return sink


def run_with_progress(name: str, lang: Lang, running: str, /, **args: Any) -> services.Outcome:
    """:func:`ui.services.run_tool` inside a status box titled ``running`` whose bar follows
    the tool's steps; the box ends as done or failed."""
    with st.status(running, expanded=False) as status:
        bar = st.progress(0.0, text=running)
        outcome = services.run_tool(name, lang, progress=progress_sink(bar, lang), **args)
        status.update(label=term("run.done" if outcome.ok else "run.failed", lang), state="complete" if outcome.ok else "error")
    return outcome
