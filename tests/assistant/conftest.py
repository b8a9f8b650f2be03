"""Fixtures of the assistant tests: an environment with no LLM configured, and a stand-in
OpenAI-compatible server on 127.0.0.1 (see stand_in.py)."""

from __future__ import annotations

import pytest

LLM_ENV = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ADVISOR_LLM_MODEL", "ADVISOR_LLM_PRESET", "ADVISOR_LLM_TIMEOUT",
           "ADVISOR_LLM_RETRIES", "ADVISOR_CONFIG", "DEEPSEEK_API_KEY", "DASHSCOPE_API_KEY")


@pytest.fixture
def clean_llm_env(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """No LLM settings from the developer's environment, .env or advisor.yaml leak in."""
    for name in LLM_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def stand_in():
    """Start a stand-in OpenAI-compatible server with ``stand_in(*script)``; stopped after the test."""
    from fakes import StandIn

    started: list[StandIn] = []

    def start(*script):
        server = StandIn(*script)
        started.append(server)
        return server

    yield start
    for server in started:
        server.close()


@pytest.fixture
def closed_port() -> int:
    """A port on 127.0.0.1 where nothing listens."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
