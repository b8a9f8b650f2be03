"""Progress of a usage analysis: steps over many files reach the sink with how far along they
are; the CLI draws a rich bar only on a terminal (piped output stays the report); the UI's
sink moves its bar from the page's thread only."""

from __future__ import annotations

import io
import json
import threading
from pathlib import Path

import pytest
from usage_helpers import FIXTURES, FOCUS_SAMPLE, H100, H200

from advisor.cli import main
from advisor.cli.progress import tty_progress
from advisor.progress import Step
from advisor.tools import analyze_usage

FILES = [FIXTURES / f"{H100}__load.metrics", FIXTURES / f"{H200}__idle.metrics", FOCUS_SAMPLE]


@pytest.mark.parametrize("count", [2, 3])
def test_each_file_is_a_step_of_all(count: int) -> None:
    seen: list[str] = []
    analyze_usage(files=[str(f) for f in FILES[:count]], price_per_gpu_hour=2.0, progress=seen.append)
    steps = [(m.done, m.total) for m in seen if isinstance(m, Step)]
    assert steps == [(i, count) for i in range(count)] + [(count, count)]
    assert all(Path(f).name in " ".join(seen) for f in FILES[:count])


def test_piped_output_has_no_progress(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["usage", *map(str, FILES), "--price", "2", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and json.loads(out)["inputs"]["mode"] == "files"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_a_rich_bar(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    term = _Terminal()
    monkeypatch.setattr("sys.stderr", term)
    monkeypatch.setenv("TERM", "xterm")
    with tty_progress("usage analysis / 用量分析") as sink:
        assert sink is not None
        sink(Step("reading a.csv (1/4)", 0, 4))
        sink("analysing telemetry …")
        sink(Step("reading d.csv (4/4)", 3, 4))
    shown = term.getvalue()
    assert "reading a.csv (1/4)" in shown and "用量分析" in shown and "75%" in shown


def test_off_a_terminal_there_is_no_sink(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("sys.stderr", io.StringIO())
    with tty_progress("x") as sink:
        assert sink is None


class _Bar:
    def __init__(self) -> None:
        self.calls: list[tuple[float, str]] = []

    def progress(self, share: float, text: str) -> None:
        self.calls.append((share, text))


@pytest.mark.parametrize(("lang", "text"), [("en", "50 % done"), ("zh", "已完成 50%")])
def test_the_ui_bar_moves_from_the_page_thread_only(lang: str, text: str) -> None:
    from ui.components.progress import progress_sink

    bar = _Bar()
    sink = progress_sink(bar, lang)
    sink(Step("reading b (2/4)", 2, 4))
    sink("no count: nothing to draw")
    other = threading.Thread(target=sink, args=(Step("from a poller", 3, 4),))
    other.start()
    other.join()
    assert bar.calls == [(0.5, text)]
