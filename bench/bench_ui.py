"""Web UI benchmark: how soon the app (``make run``: ui/serve.py) is healthy, how soon the assistant is warm, and
how long an offline answer takes to appear on screen after Enter (Chinese and English).

Targets (issue #6 "Streamlit chat UI"): healthy < 5 s after start; an offline answer on
screen < 3 s after Enter. Also reported: when the chat page is ready in the browser, and the
first answer of a user who asks before the warm-up is done. Uses the browser test's helpers (tests/ui/harness.py); without
Chromium at /usr/lib/chromium/chromium only the start is measured.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = {
    "zh": "微调一个 Llama-3-8B，LoRA，5 万条样本，要花多少钱？",
    "en": "We need 16 H100s for three months: monthly or on-demand?",
}
STARTS = 3
ASKS = 3


def _harness():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(ROOT / "tests" / "ui"))
    import harness

    return harness


def _warm(app, started: float, timeout_s: float = 120) -> float:  # type: ignore[no-untyped-def]
    while time.perf_counter() - started < timeout_s:
        if "warmed up" in app.log.read_text(encoding="utf-8", errors="replace"):
            return time.perf_counter() - started
        time.sleep(0.1)
    raise TimeoutError("the app did not finish warming up")


def run() -> dict:
    h = _harness()
    health, warm = [], []
    for _ in range(STARTS):
        started = time.perf_counter()
        app = h.start_app()
        try:
            health.append(app.health_s)
            warm.append(_warm(app, started))
        finally:
            h.stop_app(app.process)
    figures: dict = {
        "health_s_median": round(statistics.median(health), 2),
        "health_s_max": round(max(health), 2),
        "warm_up_s_median": round(statistics.median(warm), 2),
        "target_health_s": 5.0,
    }
    if not h.CHROMIUM.exists():
        figures["answer"] = f"skipped: no Chromium at {h.CHROMIUM}"
        return figures
    from playwright.sync_api import sync_playwright

    started = time.perf_counter()
    app = h.start_app()
    try:
        with sync_playwright() as p:
            browser = h.launch(p)
            console = h.Console()
            page = h.open_page(browser, app.url, h.DESKTOP, console)
            figures["page_ready_s"] = round(time.perf_counter() - started, 2)
            h.settle(page)
            # A user who asks the moment the page is up, before the warm-up is done:
            figures["cold_answer_zh_s"] = round(h.ask(page, QUESTIONS["zh"], timeout_s=60), 2)
            figures["start_to_first_answer_s"] = round(time.perf_counter() - started, 2)
            _warm(app, started)
            h.settle(page, 300)
            times: dict[str, list[float]] = {"zh": [], "en": []}
            for _ in range(ASKS):
                for lang, question in QUESTIONS.items():
                    times[lang].append(h.ask(page, question))
                    h.settle(page, 300)
            browser.close()
    finally:
        h.stop_app(app.process)
    for lang, values in times.items():
        figures[f"answer_{lang}_s_median"] = round(statistics.median(values), 2)
        figures[f"answer_{lang}_s_max"] = round(max(values), 2)
    figures["console_errors"] = len(console.errors)
    figures["target_answer_s"] = 3.0
    return figures
