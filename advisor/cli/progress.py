"""Progress for long commands: a rich bar on stderr when it is a terminal, nothing otherwise
(piped or captured output stays exactly the report, so scripts and tests can parse it)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def tty_progress(title: str) -> Iterator[Callable[[str], None] | None]:
    """A progress sink drawing ``title: message`` with a bar (when the message carries
    ``done``/``total``, e.g. :class:`advisor.progress.Step`), or None off a terminal."""
    from rich.console import Console

    err = Console(stderr=True)
    if not err.is_terminal:
        yield None
        return
    from rich.progress import (
        BarColumn,
        Progress,
        SpinnerColumn,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    with Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(bar_width=20), TaskProgressColumn(),
                  TimeElapsedColumn(), console=err, transient=True) as bar:
        task = bar.add_task(title, total=None)

        def sink(message: str) -> None:
            done, total = getattr(message, "done", None), getattr(message, "total", None)
            if total:
                bar.update(task, description=f"{title}: {message}", completed=done or 0, total=total, refresh=True)
            else:
                bar.update(task, description=f"{title}: {message}", refresh=True)

        yield sink
