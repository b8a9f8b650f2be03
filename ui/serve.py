"""``python ui/serve.py run ui/app.py [streamlit flags]``: what ``streamlit run`` does, plus a
background thread that warms the assistant (parser, catalog, rule packs, guide index, chart
libraries) once the server is listening, so that the first answer is as fast as the next and
the server's start is not slowed. ``advisor ui`` runs this; plain ``streamlit run ui/app.py``
works too, only with a slower first answer.
"""

from __future__ import annotations

import contextlib
import socket
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WARM_QUESTIONS = ("微调一个 Llama-3-8B，LoRA，5 万条样本，要花多少钱？",
                  "What should a LoRA fine-tune of Llama-3-8B on 50k samples cost?")
READY_LINE = "advisor: assistant warmed up in {s:.1f} s"


def flag(argv: list[str], name: str, default: str) -> str:
    for i, arg in enumerate(argv):
        if arg == name and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return default


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
        # or `advisor ui` is healthy that much later
        from advisor.assistant import ask

        for question in WARM_QUESTIONS:
            ask(question, offline=True)
        import altair  # noqa: F401  (charts of the cards)
        import pandas  # noqa: F401
    except Exception as exc:
        print(f"advisor: warm-up stopped ({type(exc).__name__}); answers will still work", file=sys.stderr, flush=True)
        return
    print(READY_LINE.format(s=time.perf_counter() - started), file=sys.stderr, flush=True)


def main() -> int:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    argv = sys.argv[1:]
    host = flag(argv, "--server.address", "127.0.0.1")
    port = int(flag(argv, "--server.port", "8501"))
    threading.Thread(target=warm_up, args=(host, port), name="advisor-warm-up", daemon=True).start()
    from streamlit.web import cli

    sys.argv = ["streamlit", *argv]
    return cli.main()  # type: ignore[no-any-return]


if __name__ == "__main__":
    sys.exit(main())
