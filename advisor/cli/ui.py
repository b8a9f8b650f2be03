"""``advisor ui``: start the web app (Streamlit, headless) on HOST:PORT.

Runs ``streamlit run ui/app.py --server.headless true ...`` in place of this process (exec),
through ``ui/serve.py``, which first starts warming the assistant in a background thread so
that the first question is answered as fast as the next ones. Ctrl-C stops the server.
Streamlit itself is imported only under ``ui/``.
"""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path
from typing import Annotated

import typer

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "ui" / "app.py"
SERVE = ROOT / "ui" / "serve.py"


def register(app: typer.Typer) -> None:
    """Add the ``ui`` command to ``app``."""
    app.command("ui", help="Start the web UI (Streamlit, headless). 启动网页界面。")(ui)


def streamlit_args(host: str, port: int) -> list[str]:
    """The arguments of ``streamlit`` that start the app headless on host:port."""
    return [
        "run", str(APP),
        "--server.headless", "true",
        "--server.address", host,
        "--server.port", str(port),
        "--server.fileWatcherType", "none",
        "--browser.gatherUsageStats", "false",
        "--client.toolbarMode", "viewer",
        "--theme.primaryColor", "#0969da",
    ]


def command(host: str, port: int, *, warm: bool = True) -> list[str]:
    """The full command line: ``python ui/serve.py run ui/app.py ...`` (or plain streamlit)."""
    if warm:
        return [sys.executable, str(SERVE), *streamlit_args(host, port)]
    return [sys.executable, "-m", "streamlit", *streamlit_args(host, port)]


def check_port(host: str, port: int) -> None:
    """A one-line error now rather than Streamlit's later, if the port is taken or invalid."""
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.errors import InputError

    if not 1 <= port <= 65535:
        raise InputError("port", port, "a port number from 1 to 65535")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            raise InputError("port", port, f"a free port on {host} ({exc.strerror or exc})",
                             hint="stop the other server or pass --port") from None


def ui(
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="port to listen on")] = 8501,
    no_warm: Annotated[bool, typer.Option("--no-warm", help="do not warm the assistant up at start")] = False,
) -> None:
    """Start the web app; open http://HOST:PORT in a browser. Ctrl-C stops it."""
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.errors import DataError

    for path in (APP, SERVE):
        if not path.is_file():
            raise DataError(str(path), "the web UI is not in this installation (install from the repository)")
    check_port(host, port)
    cmd = command(host, port, warm=not no_warm)
    print(f"Compute Cost Advisor: http://{host}:{port}  (Ctrl-C stops it)", file=sys.stderr, flush=True)
    sys.stdout.flush()
    os.execv(cmd[0], cmd)
