"""Progress of long work (usage analysis, contract review, hardware sweeps, ledger imports).

A tool takes an optional sink, a ``Callable[[str], None]``, and sends it short messages while it
runs. A :class:`Step` also says how far along the work is, for sinks that draw a bar: the CLI's
rich bar on a terminal (``advisor.cli.progress.tty_progress``) and the UI's ``st.progress``.
Output that scripts parse (JSON, piped text) never carries progress: the faces give no sink then.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Progress = Callable[[str], None]


class Step(str):
    """A progress message that also says how far along it is (``done`` of ``total``), for
    sinks that draw a bar; a plain sink just shows the text."""

    done: float | None
    total: float | None

    def __new__(cls, text: str, done: float | None = None, total: float | None = None) -> Step:
        obj = super().__new__(cls, text)
        obj.done, obj.total = done, total
        return obj


def step(sink: Progress | None, text: str, done: float, total: float) -> None:
    """Send ``text`` as step ``done`` of ``total`` to ``sink`` (nothing without a sink)."""
    if sink is not None:
        sink(Step(text, done, total))


@contextmanager
def watch(sink: Progress | None, label: str | None, poll: Callable[[], str | None] | None = None,
          every_s: float = 1.0) -> Iterator[None]:
    """Report one long call: ``label …`` first, then, from a thread, what ``poll()`` returns
    whenever it changes (checked every ``every_s``; None or an error: nothing new), then
    ``label done in N s``. Without a sink or a label it reports nothing."""
    if not label or sink is None:
        yield
        return
    done = threading.Event()
    started = time.monotonic()
    sink(f"{label} …")

    def run() -> None:
        last: str | None = None
        while poll is not None and not done.wait(every_s):
            try:
                shown = poll()
            except Exception:  # the engine is busy or closed: nothing to show this time
                continue
            if shown and shown != last:
                last = shown
                sink(shown)

    watcher = threading.Thread(target=run, daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()
        sink(f"{label} done in {time.monotonic() - started:.1f} s")
