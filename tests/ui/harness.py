"""Start the app the way the README does (``make run``: ``python ui/serve.py``) and drive it in Debian's Chromium.

Shared by tests/ui/test_browser.py and bench/bench_ui.py. Nothing here touches the network
beyond 127.0.0.1; Chromium runs with background networking off.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = Path("/usr/lib/chromium/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
FIGURE = re.compile(r"[$¥]\s?\d|\d[\d,.]*\s?(?:GB|GPU|h\b|小时|张|元)")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class App:
    process: subprocess.Popen[bytes]
    port: int
    health_s: float
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def wait_healthy(port: int, process: subprocess.Popen[bytes], timeout_s: float = 30.0) -> float:
    """Seconds from now until ``/_stcore/health`` answers ``ok``."""
    started = time.perf_counter()
    url = f"http://127.0.0.1:{port}/_stcore/health"
    while time.perf_counter() - started < timeout_s:
        if process.poll() is not None:
            raise RuntimeError(f"the app exited with code {process.returncode} before it was healthy")
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=1) as response:
            if response.status == 200 and response.read().strip() == b"ok":
                return time.perf_counter() - started
        time.sleep(0.05)
    raise TimeoutError(f"the app was not healthy after {timeout_s:.0f} s")


def start_app(port: int | None = None, log_dir: Path = ARTIFACTS, extra_env: dict[str, str] | None = None) -> App:
    """``python ui/serve.py --host 127.0.0.1 --port PORT`` (what ``make run`` runs), timed to healthy.
    No LLM is configured unless ``extra_env`` configures one (as an operator would)."""
    port = port or free_port()
    log_dir.mkdir(parents=True, exist_ok=True)
    log = log_dir / f"app-{port}.log"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ADVISOR_LLM_MODEL", "ADVISOR_LLM_PRESET"):
        env.pop(name, None)
    env.update(extra_env or {})
    with log.open("wb") as out:
        started = time.perf_counter()
        process = subprocess.Popen([sys.executable, str(ROOT / "ui" / "serve.py"), "--host", "127.0.0.1", "--port", str(port)],
                                   cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        wait_healthy(port, process)
    except Exception:
        stop_app(process)
        raise
    return App(process=process, port=port, health_s=time.perf_counter() - started, log=log)


def stop_app(process: subprocess.Popen[bytes]) -> None:
    """Ctrl-C, as a user would; then a firmer stop if it does not end."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@contextlib.contextmanager
def running_app() -> Iterator[App]:
    app = start_app()
    try:
        yield app
    finally:
        stop_app(app.process)


@dataclass
class Console:
    """Errors the page reports: console errors and uncaught page errors."""

    errors: list[str] = field(default_factory=list)

    def watch(self, page: Any) -> None:
        page.on("console", lambda msg: self.errors.append(f"console: {msg.text}") if msg.type == "error" else None)
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))


def launch(playwright: Any) -> Any:
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)


def open_page(browser: Any, url: str, viewport: dict[str, int], console: Console, locale: str = "en-US") -> Any:
    context = browser.new_context(viewport=viewport, locale=locale, device_scale_factor=1)
    page = context.new_page()
    console.watch(page)
    page.goto(url, wait_until="domcontentloaded")
    page.get_by_test_id("stChatInputTextArea").wait_for(state="visible", timeout=30_000)
    return page


def messages(page: Any) -> Any:
    return page.get_by_test_id("stChatMessage")


def ask(page: Any, question: str, timeout_s: float = 30.0) -> float:
    """Type a question, press Enter; seconds until the answer with a figure is on screen."""
    wait_idle(page)
    before = messages(page).count()
    box = page.get_by_test_id("stChatInputTextArea")
    box.fill(question)
    started = time.perf_counter()
    box.press("Enter")
    deadline = started + timeout_s
    seen = ""
    while time.perf_counter() < deadline:
        count = messages(page).count()
        if count >= before + 2:
            with contextlib.suppress(Exception):  # the element can be replaced while it is read
                seen = messages(page).nth(before + 1).inner_text(timeout=1000)
                if FIGURE.search(seen):
                    return time.perf_counter() - started
        time.sleep(0.02)
    with contextlib.suppress(Exception):
        shot(page, f"timeout-{int(time.time())}")  # what the page showed instead
    raise TimeoutError(f"no answer with a figure within {timeout_s:.0f} s for {question!r} "
                       f"(messages before {before}, now {messages(page).count()}; last read {seen[:120]!r})")


def wait_idle(page: Any, timeout_s: float = 30.0, quiet_ms: int = 150) -> None:
    """Until the app's script run is over (and stays over for ``quiet_ms``: reruns follow)."""
    deadline = time.perf_counter() + timeout_s
    quiet_since = None
    while time.perf_counter() < deadline:
        state = page.get_by_test_id("stApp").get_attribute("data-test-script-state")
        if state == "notRunning":
            quiet_since = quiet_since or time.perf_counter()
            if (time.perf_counter() - quiet_since) * 1000 >= quiet_ms:
                return
        else:
            quiet_since = None
        time.sleep(0.02)
    raise TimeoutError(f"the app was still running after {timeout_s:.0f} s")


def settle(page: Any, ms: int = 800) -> None:
    """Wait for the script run to finish, then ``ms`` more for charts to draw."""
    wait_idle(page)
    page.wait_for_timeout(ms)


SCROLL_HEIGHT_JS = """() => Math.max(...['stAppScrollToBottomContainer', 'stMain'].map(
    id => { const e = document.querySelector(`[data-testid="${id}"], .${id}`); return e ? e.scrollHeight : 0; }))"""


def shot(page: Any, name: str, full_page: bool = False) -> Path:
    """A screenshot of the viewport; ``full_page`` grows the viewport to the app's scroll height
    first (Streamlit scrolls inside its own container, which a plain full-page shot misses)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    if not full_page:
        page.screenshot(path=str(path))
        return path
    size = page.viewport_size
    height = min(int(page.evaluate(SCROLL_HEIGHT_JS)), 12_000)
    page.set_viewport_size({"width": size["width"], "height": max(height, size["height"])})
    page.wait_for_timeout(2500)  # elements below the old fold draw lazily
    page.screenshot(path=str(path))
    page.set_viewport_size(size)
    page.wait_for_timeout(300)
    return path
