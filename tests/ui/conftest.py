"""Fixtures for the UI tests: the app under AppTest (headless, in-process), with no LLM
configured from the environment. Shared helpers live in ui_helpers.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest  # noqa: E402
from ui_helpers import APP, TIMEOUT_S  # noqa: E402


@pytest.fixture(autouse=True)
def _no_llm_from_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ADVISOR_LLM_MODEL", "ADVISOR_LLM_PRESET"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ADVISOR_LEARN_PROGRESS", str(tmp_path / "learn.json"))
    # The Budgets page writes to the ledger: each test has its own, never the user's data folder.
    monkeypatch.setenv("ADVISOR_DATABASE_URL", f"sqlite:///{tmp_path / 'ledger.db'}")


@pytest.fixture
def app() -> Iterator[AppTest]:
    """The app on its home page (Chat), after the first run."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    at.run()
    assert not at.exception, at.exception
    yield at
