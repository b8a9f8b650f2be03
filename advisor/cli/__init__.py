"""The ``advisor`` command. Each command group lives in its own module with a
``register(app)`` function; heavy libraries are imported inside the commands so that
``advisor estimate --json`` starts fast.

Bad input exits with code 2 and one line on stderr; never a traceback.
"""

from __future__ import annotations

import os
import sys

import typer

from advisor.errors import AdvisorError


def build_app() -> typer.Typer:
    # The command modules are plain imports (the layer test sees them); each keeps its heavy
    # libraries inside its commands, so loading them all stays fast.
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.cli import (
        assistant,
        budget,
        catalog,
        estimate,
        learn,
        mcp_server,
        review,
        rules,
        ui,
    )

    app = typer.Typer(
        name="advisor",
        help="Compute Cost Advisor: what GPU training should cost, and why. 算力成本顾问。",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    for module in (estimate, catalog, rules, review, assistant, learn, ui, mcp_server, budget):
        module.register(app)
    return app


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code. Everything the command
    writes to stdout or stderr, and every log record, passes :func:`advisor.redact.redact`."""
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.redact import redacting_streams

    with redacting_streams():
        return _run(argv)


def _lang_of(argv: list[str]) -> str:
    """The language a command was asked for (``--lang zh`` / ``--lang=zh``), English otherwise."""
    asked = [b for a, b in zip(argv, argv[1:], strict=False) if a == "--lang"] + [a[7:] for a in argv if a.startswith("--lang=")]
    return "zh" if asked and asked[-1] == "zh" else "en"


def _run(argv: list[str] | None) -> int:
    app = build_app()
    try:
        result = app(args=argv, standalone_mode=False)
    except AdvisorError as exc:
        # lazy: cold start of the CLI (each command loads only what it runs)
        from advisor.glossary import term
        from advisor.present.errors import say

        lang = _lang_of(sys.argv[1:] if argv is None else argv)
        print(term("error.cli", lang, message=say(exc, lang)), file=sys.stderr)
        return 2
    except typer.Abort:
        print("aborted", file=sys.stderr)
        return 1
    except typer.Exit as exc:
        return int(exc.exit_code or 0)
    except Exception as exc:  # click usage errors (typer bundles its own click) and the like
        message = getattr(exc, "format_message", None)
        code = getattr(exc, "exit_code", None)
        if callable(message) and isinstance(code, int):
            print(f"error: {message()}", file=sys.stderr)
            return code
        if os.environ.get("ADVISOR_DEBUG"):
            raise
        from advisor.redact import redact

        print(f"internal error: {type(exc).__name__}: {redact(exc)} (set ADVISOR_DEBUG=1 for the traceback; "
              "please report it)", file=sys.stderr)
        return 1
    # With standalone_mode=False click returns a typer.Exit's code instead of raising it.
    return result if isinstance(result, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
