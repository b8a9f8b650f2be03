"""``advisor ui``: start the web app (Streamlit, headless) on HOST:PORT.

Runs ``python ui/serve.py --host HOST --port PORT`` in place of this process (exec): the same
command as ``make run``. serve.py checks the port, warms the assistant up in a background thread
once the server listens, and runs Streamlit. Ctrl-C stops the server. Streamlit itself is
imported only under ``ui/``.
"""

from __future__ import annotations

import os
import sys
from argparse import Namespace
from pathlib import Path

import typer

from advisor.cli import args as A

ROOT = Path(__file__).resolve().parents[2]
SERVE = ROOT / "ui" / "serve.py"


def register(app: typer.Typer) -> None:
    """Add the ``ui`` command to ``app`` (flags and help in options.yaml)."""
    A.command(app, "ui", ui)


def command(host: str, port: int, *, warm: bool = True) -> list[str]:
    """The full command line: ``python ui/serve.py --host HOST --port PORT [--no-warm]``."""
    return [sys.executable, str(SERVE), "--host", host, "--port", str(port), *([] if warm else ["--no-warm"])]


def ui(ns: Namespace) -> None:
    """Start the web app; open http://HOST:PORT in a browser. Ctrl-C stops it."""
    if not SERVE.is_file():
        # lazy: cold start of the CLI (each command loads only what it runs)
        from advisor.errors import DataError

        raise DataError(str(SERVE), "the web UI is not in this installation (install from the repository)")
    cmd = command(ns.host, ns.port, warm=not ns.no_warm)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(cmd[0], cmd)
