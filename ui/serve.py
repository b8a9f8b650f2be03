"""``python ui/serve.py [--host H] [--port P] [--no-warm]``: the web app, headless on HOST:PORT.

What ``make run`` and ``advisor ui`` run. It checks the port (a one-line error, exit 2), starts
a background thread that warms the assistant (parser, catalog, rule packs, guide index, chart
libraries) once the server is listening, so that the first answer is as fast as the next, and
then runs ``streamlit run ui/app.py`` in this process. Nothing else is imported before the
server listens: the start is the interpreter plus Streamlit. Plain ``streamlit run ui/app.py``
works too, only with a slower first answer. Ctrl-C stops the server.
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "ui" / "app.py"
WARM_QUESTIONS = ("微调一个 Llama-3-8B，LoRA，5 万条样本，要花多少钱？",
                  "What should a LoRA fine-tune of Llama-3-8B on 50k samples cost?")
READY_LINE = "advisor: assistant warmed up in {s:.1f} s"


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


def port_problem(host: str, port: int) -> tuple[str, str | None] | None:
    """Why host:port cannot serve (what a port must be, and a hint), or None when it is free."""
    if not 1 <= port <= 65535:
        return "a port number from 1 to 65535", None
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            return f"a free port on {host} ({exc.strerror or exc})", "stop the other server or pass --port"
    return None


def wait_listening(host: str, port: int, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
            return
        time.sleep(0.1)


def warm_up(host: str, port: int) -> None:
    """Best effort: a failure here only costs speed; the app reports real errors itself."""
    wait_listening("127.0.0.1" if host in ("0.0.0.0", "") else host, port)
    started = time.perf_counter()
    try:
        # lazy: the server must be listening before the assistant (0.5 s of imports) loads,
        # or the app is healthy that much later
        from advisor.assistant import ask

        for question in WARM_QUESTIONS:
            ask(question, offline=True)
        import pandas  # noqa: F401
    except Exception as exc:
        print(f"advisor: warm-up stopped ({type(exc).__name__}); answers will still work", file=sys.stderr, flush=True)
        return
    print(READY_LINE.format(s=time.perf_counter() - started), file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="serve.py", description="Start the web UI (Streamlit, headless).")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8501, help="port to listen on")
    parser.add_argument("--no-warm", action="store_true", help="do not warm the assistant up at start")
    ns = parser.parse_args(argv)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    problem = port_problem(ns.host, ns.port)
    if problem:
        # lazy: only a refused port needs the error words; the start imports nothing of the advisor
        from advisor.errors import InputError
        from advisor.glossary import term

        error = InputError("port", ns.port, problem[0], hint=problem[1])
        print(term("error.cli", "en", message=error.one_line()), file=sys.stderr)
        return 2
    if not ns.no_warm:
        threading.Thread(target=warm_up, args=(ns.host, ns.port), name="advisor-warm-up", daemon=True).start()
    print(f"Compute Cost Advisor: http://{ns.host}:{ns.port}  (Ctrl-C stops it)", file=sys.stderr, flush=True)
    from streamlit.web import cli

    sys.argv = ["streamlit", *streamlit_args(ns.host, ns.port)]
    return cli.main()  # type: ignore[no-any-return]


if __name__ == "__main__":
    sys.exit(main())
