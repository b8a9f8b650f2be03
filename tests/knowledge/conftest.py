"""Shared fixtures of the knowledge tests: the question set and a private progress file."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

HERE = Path(__file__).parent


@pytest.fixture(scope="session")
def questions() -> list[dict]:
    return yaml.safe_load((HERE / "questions.yaml").read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def _private_progress(tmp_path, monkeypatch):
    """Quiz progress goes to a temporary file, never to the user's home."""
    monkeypatch.setenv("ADVISOR_LEARN_PROGRESS", str(tmp_path / "learn.json"))
