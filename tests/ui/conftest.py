"""Fixtures for the UI tests: the app under AppTest (headless, in-process), with no LLM
configured from the environment, and helpers to open a page and read what it shows."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `import ui` as the app does
    sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

APP = ROOT / "ui" / "app.py"
FIXTURES = ROOT / "tests" / "fixtures" / "ui"
TIMEOUT_S = 90  # the first answer of a test run builds the guide index (several seconds on a busy machine)


@pytest.fixture(autouse=True)
def _no_llm_from_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ADVISOR_LLM_MODEL", "ADVISOR_LLM_PRESET"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ADVISOR_LEARN_PROGRESS", str(tmp_path / "learn.json"))


@pytest.fixture
def app() -> Iterator[AppTest]:
    """The app on its home page (Chat), after the first run."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    at.run()
    assert not at.exception, at.exception
    yield at


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
