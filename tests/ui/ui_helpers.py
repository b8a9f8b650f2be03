"""Helpers the UI tests share: where the app and its fixtures are, and how to open a page,
ask a question and read what the page shows. (Imported by name from the tests; a module of
its own, because every test folder has a ``conftest`` and their names would collide.)"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `import ui` as the app does
    sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

APP = ROOT / "ui" / "app.py"
FIXTURES = ROOT / "tests" / "fixtures" / "ui"
TIMEOUT_S = 90  # the first answer of a test run builds the guide index (several seconds on a busy machine)


def open_page(at: AppTest, page: str) -> AppTest:
    """Switch to ``views/<page>.py`` and run it."""
    at.switch_page(f"views/{page}.py")
    at.run()
    assert not at.exception, at.exception
    return at


def ask(at: AppTest, question: str) -> AppTest:
    at.chat_input[0].set_value(question).run()
    assert not at.exception, at.exception
    return at


def texts(at: AppTest) -> str:
    """Everything the page shows as text (markdown, captions, alerts, metrics, badges), joined."""
    parts: list[str] = []
    for kind in ("markdown", "caption", "error", "warning", "info", "success", "title", "subheader"):
        parts.extend(str(e.value) for e in getattr(at, kind))
    parts.extend(f"{m.label} {m.value}" for m in at.metric)
    return "\n".join(parts)


def messages(at: AppTest) -> list[str]:
    return [m.name for m in at.chat_message]
