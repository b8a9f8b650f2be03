"""``advisor ask`` and ``advisor chat``: the assistant in the terminal.

- ``advisor ask "QUESTION" [--json] [--offline] [--lang zh|en] [--history FILE]`` — one turn; ``--json``
  prints the AskResult (DESIGN.md ``advisor ask --json``); ``--history FILE`` continues the conversation
  saved in FILE and saves this turn to it, so a follow-up ("换成H100呢？") keeps the job.
- ``advisor chat [--offline] [--lang zh|en]`` — a conversation with history; ``/reset`` starts
  over, ``/quit`` (or end of input) leaves. Reads piped input line by line too.

With an LLM configured (docs/LLM.md) the reply streams as it is written; without one, or
with ``--offline``, the built-in assistant answers. The assistant is imported inside the
commands so that other commands start fast.
"""

from __future__ import annotations

import sys
from argparse import Namespace
from typing import Any

import typer

from advisor.cli import args as A
from advisor.cli.common import emit_json
from advisor.errors import AdvisorError, InputError
from advisor.glossary import both, term


def register(app: typer.Typer) -> None:
    """Add ``ask`` and ``chat`` to ``app`` (flags and help in options.yaml)."""
    A.command(app, "ask", ask_command)
    A.command(app, "chat", chat_command)


class _Printer:
    """Streams the LLM's tokens to stdout and remembers what was shown."""
    def __init__(self) -> None:
        self.shown = ""

    def __call__(self, token: str) -> None:
        self.shown += token
        sys.stdout.write(token)
        sys.stdout.flush()


def _show(result: Any, printer: _Printer | None) -> None:
    streamed = printer.shown.strip() if printer else ""
    notice = f"[{result.notice}]" if result.notice else ""
    if streamed and streamed.endswith(result.answer.strip()):  # a preamble before the tool calls may precede it
        sys.stdout.write("\n" + (f"\n{notice}\n" if notice else ""))
    else:
        sys.stdout.write(("\n\n" if streamed else "") + (f"{notice}\n\n" if notice else "") + result.answer.rstrip() + "\n")


def ask_command(ns: Namespace) -> None:
    """One assistant turn."""
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.assistant import ask

    history = _read_history(ns.history_file)
    printer = None if (ns.json or ns.offline) else _Printer()
    result = ask(ns.question, history=history, offline=True if ns.offline else None, lang=ns.lang, on_token=printer)
    if ns.history_file:
        _write_history(ns.history_file, result.history)
    if ns.json:
        emit_json(result)
    else:
        _show(result, printer)


def _read_history(path: str | None) -> list[dict[str, Any]] | None:
    """The conversation saved by an earlier ``advisor ask --history PATH`` (None when there is none)."""
    import json
    from pathlib import Path

    if not path or not Path(path).exists():
        return None
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8") or "[]")
    except (OSError, ValueError) as exc:
        raise InputError("--history", path, f"a JSON conversation file written by advisor ask ({type(exc).__name__})") from None
    if not isinstance(data, list):
        raise InputError("--history", path, "a JSON list of conversation entries")
    return data


def _write_history(path: str, history: list[dict[str, Any]]) -> None:
    import json
    from pathlib import Path

    try:
        Path(path).write_text(json.dumps(history, ensure_ascii=False, indent=1), encoding="utf-8")
    except OSError as exc:
        raise InputError("--history", path, f"a writable file ({exc.strerror})") from None


def _read_line(prompt: str, interactive: bool) -> str | None:
    if interactive:
        try:
            return input(prompt)
        except EOFError:
            return None
    line = sys.stdin.readline()
    return None if line == "" else line


def chat_command(ns: Namespace) -> None:
    """A conversation: each question continues the previous ones."""
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.assistant import ask

    offline, lang = ns.offline, ns.lang
    interactive = sys.stdin.isatty()
    ui_lang = lang or "en"
    if interactive:
        print(term("chat.banner", ui_lang) if lang else "\n".join(both("chat.banner").values()))
    history: list[dict[str, Any]] | None = None
    while True:
        line = _read_line("> " if interactive else "", interactive)
        if line is None:
            break
        text = line.strip()
        if not text:
            continue
        if text.lower() in ("/quit", "/exit", "/q"):
            break
        if text.lower() == "/reset":
            history = None
            print(term("chat.cleared", ui_lang))
            continue
        if not interactive:
            print(f"> {text}")
        printer = None if offline else _Printer()
        try:
            result = ask(text, history=history, offline=True if offline else None, lang=lang, on_token=printer)
        except AdvisorError as exc:
            # lazy: cold start of the CLI (the presenters load only when an error is worded)
            from advisor.present.errors import say

            print(term("error.cli", ui_lang, message=say(exc, ui_lang)), file=sys.stderr)
            continue
        _show(result, printer)
        print()
        history = result.history
