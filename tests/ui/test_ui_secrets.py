"""The operator's API key (environment, .env or advisor.yaml) never reaches an endpoint a
visitor typed, nor the page; a visitor's own key goes only to the visitor's endpoint. Two local
recording endpoints stand in for the operator's LLM and for a server the visitor controls."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from stand_in_llm import StandInLLM
from streamlit.testing.v1 import AppTest
from ui_helpers import APP, TIMEOUT_S, ask, texts

OPERATOR_KEY = "sk-operator-secret-9f8e7d6c5b4a"
VISITOR_KEY = "sk-visitor-own-key-1a2b3c4d5e"
QUESTION = "Hello, who are you?"


@pytest.fixture
def endpoints() -> Iterator[tuple[StandInLLM, StandInLLM]]:
    operator, visitor = StandInLLM("operator endpoint reply"), StandInLLM("visitor endpoint reply")
    try:
        yield operator, visitor
    finally:
        operator.close()
        visitor.close()


@pytest.fixture
def operator_app(monkeypatch: pytest.MonkeyPatch, tmp_path, endpoints) -> AppTest:
    operator, _ = endpoints
    monkeypatch.setenv("OPENAI_BASE_URL", operator.url)
    monkeypatch.setenv("ADVISOR_LLM_MODEL", "operator-model")
    monkeypatch.setenv("OPENAI_API_KEY", OPERATOR_KEY)
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    at.run()
    assert not at.exception, at.exception
    return at


def everything(at: AppTest) -> str:
    """All the page shows and the session keeps (widgets included)."""
    widgets = " ".join(str(w.value) for w in at.text_input)
    return texts(at) + widgets + repr(at.session_state) + repr(at.session_state["messages"])


def recorded(server: StandInLLM) -> str:
    return repr(server.headers) + repr(server.requests)


def test_operator_endpoint_is_offered_without_showing_its_key(operator_app, endpoints):
    operator, _ = endpoints
    assert operator_app.text_input(key="set_base_url").value == operator.url
    assert operator_app.text_input(key="set_api_key").value == ""
    ask(operator_app, QUESTION)
    msg = operator_app.session_state["messages"][1]
    assert msg["mode"] == "llm" and msg["content"] == "operator endpoint reply"
    assert operator.headers[0]["authorization"] == f"Bearer {OPERATOR_KEY}"
    assert OPERATOR_KEY not in everything(operator_app)


@pytest.mark.parametrize("typed", ["{url}", "{url}/", " {url} ", "{url}/chat/completions"])
def test_a_visitor_typed_base_url_never_receives_the_operator_key(operator_app, endpoints, typed):
    operator, visitor = endpoints
    operator_app.text_input(key="set_base_url").set_value(typed.format(url=visitor.url)).run()
    ask(operator_app, QUESTION)
    msg = operator_app.session_state["messages"][1]
    assert OPERATOR_KEY not in recorded(visitor)
    assert OPERATOR_KEY not in everything(operator_app)
    if typed.strip().rstrip("/") == visitor.url:
        assert not visitor.requests, "no key of its own: the visitor's endpoint is not called at all"
        assert msg["mode"] == "offline" and "your own API key" in msg["notice"]
    assert not operator.requests


def test_a_visitor_key_goes_only_to_the_visitor_endpoint(operator_app, endpoints):
    operator, visitor = endpoints
    operator_app.text_input(key="set_base_url").set_value(visitor.url).run()
    operator_app.text_input(key="set_api_key").set_value(VISITOR_KEY).run()
    ask(operator_app, QUESTION)
    assert operator_app.session_state["messages"][1]["content"] == "visitor endpoint reply"
    assert visitor.headers[0]["authorization"] == f"Bearer {VISITOR_KEY}"
    assert OPERATOR_KEY not in recorded(visitor)
    assert not operator.requests
    assert VISITOR_KEY not in texts(operator_app) + repr(operator_app.session_state["messages"])


def test_settings_file_key_is_not_forwarded_either(monkeypatch, tmp_path, endpoints):
    operator, visitor = endpoints
    settings = tmp_path / "advisor.yaml"
    settings.write_text(f"llm:\n  base_url: {operator.url}\n  model: m\n  api_key: {OPERATOR_KEY}\n",
                        encoding="utf-8")
    monkeypatch.setenv("ADVISOR_CONFIG", str(settings))
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    at.run()
    at.text_input(key="set_base_url").set_value(visitor.url).run()
    ask(at, QUESTION)
    assert not visitor.requests and not operator.requests
    assert OPERATOR_KEY not in everything(at)


def test_a_sidebar_key_lives_only_in_its_session(endpoints):
    _, visitor = endpoints
    first = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    first.run()
    first.toggle(key="set_offline").set_value(False).run()
    first.text_input(key="set_base_url").set_value(visitor.url).run()
    first.text_input(key="set_model").set_value("m").run()
    first.text_input(key="set_api_key").set_value(VISITOR_KEY).run()
    ask(first, QUESTION)
    second = AppTest.from_file(str(APP), default_timeout=TIMEOUT_S)
    second.run()
    second.toggle(key="set_offline").set_value(False).run()
    second.text_input(key="set_base_url").set_value(visitor.url).run()
    second.text_input(key="set_model").set_value("m").run()
    ask(second, QUESTION)
    assert len(visitor.headers) == 1, "the second session, with no key, does not reuse the first one's"
    assert VISITOR_KEY not in everything(second)


# --- files: a question cannot make the server read its own disk; uploads are deleted after use


def test_paths_named_in_a_question_are_not_read_from_the_server(app, tmp_path):
    secret_file = tmp_path / "server-contract.txt"
    secret_file.write_text("CONFIDENTIAL-SERVER-TEXT. Provider may change prices at any time.", encoding="utf-8")
    for question in (f"Please review the contract {secret_file}", f"分析这个使用日志 {secret_file}"):
        ask(app, question)
    shown = texts(app) + repr(app.session_state["messages"])
    assert "CONFIDENTIAL-SERVER-TEXT" not in shown
    assert "upload" in shown or "上传" in shown


def test_uploads_are_deleted_after_use_and_other_paths_refused(tmp_path):
    from pathlib import Path

    from ui import services

    text = b"4. Price changes. Provider may change its prices at any time upon notice to Customer."
    path = services.save_uploads([("contract.txt", text)])[0]
    outcome = services.run_tool("review_contract", "en", path=path)
    assert outcome.ok and outcome.result["findings"]
    assert not Path(path).exists() and not Path(path).parent.exists()
    other = tmp_path / "server.txt"
    other.write_bytes(text)
    refused = services.run_tool("review_contract", "en", path=str(other))
    assert not refused.ok and "upload" in refused.error
    assert services.run_tool("analyze_usage", "en", files=[str(services.SAMPLES_DIR / "fleet_smi.csv")]).ok
