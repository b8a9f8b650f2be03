"""``advisor ui``: start the web app (Streamlit, headless) on HOST:PORT.

Runs ``python ui/serve.py --host HOST --port PORT`` in place of this process (exec): the same
command as ``make run``. serve.py checks the port, warms the assistant up in a background thread
once the server listens, and runs Streamlit. Ctrl-C stops the server. Streamlit itself is
imported only under ``ui/``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

ROOT = Path(__file__).resolve().parents[2]
SERVE = ROOT / "ui" / "serve.py"


def register(app: typer.Typer) -> None:
    """Add the ``ui`` command to ``app``."""
    app.command("ui", help="Start the web UI (Streamlit, headless). 启动网页界面。")(ui)


def command(host: str, port: int, *, warm: bool = True) -> list[str]:
    """The full command line: ``python ui/serve.py --host HOST --port PORT [--no-warm]``."""
    return [sys.executable, str(SERVE), "--host", host, "--port", str(port), *([] if warm else ["--no-warm"])]


def ui(
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="port to listen on")] = 8501,
    no_warm: Annotated[bool, typer.Option("--no-warm", help="do not warm the assistant up at start")] = False,
) -> None:
    """Start the web app; open http://HOST:PORT in a browser. Ctrl-C stops it."""
    if not SERVE.is_file():
        # lazy: cold start of the CLI (each command loads only what it runs)
        from advisor.errors import DataError

        raise DataError(str(SERVE), "the web UI is not in this installation (install from the repository)")
    cmd = command(host, port, warm=not no_warm)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(cmd[0], cmd)
