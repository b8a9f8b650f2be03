"""Progress of long work on a page: the steps a tool reports, drawn on a Streamlit bar."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ui.i18n import t


def progress_sink(bar: Any, lang: str) -> Callable[[str], None]:
    """A tool's progress sink that moves ``bar`` (an ``st.progress``) when a message carries
    ``done``/``total`` (:class:`advisor.usage.engine.Step`). Only calls from the page's own
    thread draw: the engines also report from their polling threads, where Streamlit cannot."""
    owner = threading.current_thread()

    def sink(message: str) -> None:
        if threading.current_thread() is not owner:
            return
        done, total = getattr(message, "done", None), getattr(message, "total", None)
        if total:
            share = min(1.0, float(done or 0) / float(total))
            bar.progress(share, text=t("use.step", lang, pct=round(share * 100)))

    return sink
