"""The key leak, tried as a visitor would in a real browser: the app runs (``make run``) with
an operator key configured for the operator's endpoint (in its settings file); the visitor types the address of a
server they control into the sidebar and asks. Two local recording endpoints on 127.0.0.1 stand
in for both. Neither the visitor's endpoint nor the page (its HTML and every websocket frame the
browser receives) ever carries the operator's key."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import harness as h
import pytest
from stand_in_llm import StandInLLM

pytestmark = [pytest.mark.browser, pytest.mark.slow]

if not h.CHROMIUM.exists():
    pytest.skip(f"Chromium is not installed at {h.CHROMIUM}", allow_module_level=True)
playwright_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")

OPERATOR_KEY = "sk-operator-browser-5e4d3c2b1a09"
QUESTION = "Hello, who are you?"


@pytest.fixture(scope="module")
def endpoints() -> Iterator[tuple[StandInLLM, StandInLLM]]:
    operator, visitor = StandInLLM("operator endpoint reply"), StandInLLM("visitor endpoint reply")
    try:
        yield operator, visitor
    finally:
        operator.close()
        visitor.close()


@pytest.fixture(scope="module")
def app(endpoints, tmp_path_factory) -> Iterator[h.App]:
    operator, _ = endpoints
    settings = tmp_path_factory.mktemp("operator") / "advisor.yaml"  # the operator's settings file
    settings.write_text(f"llm:\n  base_url: {operator.url}\n  model: operator-model\n  api_key: {OPERATOR_KEY}\n",
                        encoding="utf-8")
    app = h.start_app(extra_env={"ADVISOR_CONFIG": str(settings)})
    try:
        yield app
    finally:
        h.stop_app(app.process)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        b = h.launch(p)
        yield b
        b.close()


class Frames:
    """Every websocket frame the page receives (what the server sends the browser)."""

    def __init__(self, page: Any) -> None:
        self.data: list[str] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._add))

    def _add(self, payload: Any) -> None:
        self.data.append(payload.decode("latin-1") if isinstance(payload, bytes) else str(payload))

    def text(self) -> str:
        return "\n".join(self.data)


def ask_llm(page: Any, question: str) -> None:
    h.wait_idle(page)
    before = h.messages(page).count()
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(question)
    box.press("Enter")
    page.wait_for_function(f"() => document.querySelectorAll('[data-testid=stChatMessage]').length >= {before + 2}",
                           timeout=90_000)
    h.settle(page, 500)


def test_visitor_endpoint_and_page_never_see_the_operator_key(app, browser, endpoints):
    operator, visitor = endpoints
    context = browser.new_context(viewport=h.DESKTOP, locale="en-US")
    page = context.new_page()
    frames = Frames(page)
    page.goto(app.url, wait_until="domcontentloaded")
    page.get_by_test_id("stChatInputTextArea").wait_for(state="visible", timeout=90_000)
    h.settle(page)
    base = page.get_by_role("textbox", name="LLM base URL")
    assert base.input_value() == operator.url, "the operator's endpoint is offered, without its key"
    key_box = page.get_by_role("textbox", name="API key")
    assert key_box.input_value() == ""

    ask_llm(page, QUESTION)  # the operator's own endpoint: its key is used there, and only there
    assert operator.headers and operator.headers[-1]["authorization"] == f"Bearer {OPERATOR_KEY}"
    page.get_by_text("operator endpoint reply").first.wait_for(timeout=60_000)

    for typed in (visitor.url, visitor.url + "/", visitor.url.replace("127.0.0.1", "localhost")):
        base.fill(typed)
        base.press("Enter")
        h.settle(page, 300)
        ask_llm(page, QUESTION)
    page.get_by_text("your own API key").first.wait_for(timeout=60_000)
    h.shot(page, "secrets-visitor-endpoint")
    seen_by_visitor = repr(visitor.headers) + repr(visitor.requests)
    assert OPERATOR_KEY not in seen_by_visitor
    assert not visitor.requests, "without a key of their own the visitor's endpoint is never called"
    assert OPERATOR_KEY not in page.content()
    assert OPERATOR_KEY not in frames.text()
    assert frames.data, "the page's websocket traffic was recorded"
    context.close()
