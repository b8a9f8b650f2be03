"""``advisor review FILE``: review a compute-rental contract.

- ``advisor review contract.pdf``                 findings and checklist as tables
- ``advisor review contract.docx --format md``    the Markdown report
- ``advisor review order.txt --json``             one JSON document (the tool's report)
- ``cat terms.txt | advisor review -``            read the contract from stdin
- ``--lang zh|en``, ``--monthly-fee N --currency C`` for the report language and amounts

A file that cannot be read (missing, unsupported type, too large, corrupt, password-protected)
exits with code 2 and one line on stderr. pypdf and python-docx load only for such files.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from advisor.cli.common import emit_json
from advisor.errors import DocumentError, InputError


def register(app: typer.Typer) -> None:
    """Add the ``review`` command to ``app``."""
    app.command(
        "review",
        help="Review a compute-rental contract (.txt .md .pdf .docx, '-' = stdin): traps, missing protections, checklist. 合同审查。",
    )(review)


def review(
    file: Annotated[str, typer.Argument(help="contract file (.txt, .md, .pdf, .docx) or - for stdin")],
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON document")] = False,
    lang: Annotated[str | None, typer.Option("--lang", help="report language: zh or en (default: the contract's)")] = None,
    fmt: Annotated[str, typer.Option("--format", help="table (default), md or json")] = "table",
    details: Annotated[bool, typer.Option("--details", help="every finding, the checklist and the assumptions")] = False,
    monthly_fee: Annotated[
        float | None, typer.Option("--monthly-fee", help="monthly fee, to put amounts on traps (e.g. renewal cost)")
    ] = None,
    currency: Annotated[str | None, typer.Option("--currency", help="currency of --monthly-fee: USD or CNY")] = None,
) -> None:
    """Review FILE and print the findings and the checklist."""
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.cli.progress import tty_progress
    from advisor.tools.contract import review_contract

    fmt = fmt.lower()
    if fmt not in ("table", "md", "markdown", "json"):
        raise InputError("--format", fmt, "table, md or json")
    if lang is not None and lang not in ("zh", "en"):
        raise InputError("--lang", lang, "zh or en")
    if monthly_fee is not None and monthly_fee <= 0:
        raise InputError("--monthly-fee", monthly_fee, "a positive number")
    kwargs: dict[str, Any] = {"lang": lang, "monthly_fee": monthly_fee, "currency": currency}
    kwargs.update({"text": _stdin_text()} if file == "-" else {"path": file})
    with tty_progress("contract review / 合同审查") as sink:
        report = review_contract(progress=None if as_json or fmt == "json" else sink, **kwargs)
    if as_json or fmt == "json":
        emit_json(report)
        return
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.cli.render import show
    from advisor.present import markdown, present

    if fmt in ("md", "markdown"):
        view = present("review_contract", report, report.language)
        sys.stdout.write(f"# {view.title}: {report.source}\n\n" + markdown.full(view))
    else:
        show("review_contract", report, details=details, lang=report.language)


def _stdin_text() -> str:
    """stdin as text: bytes are decoded like a file (UTF-8, else GB18030), within the size limit."""
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.contracts.limits import MAX_DOCUMENT_BYTES
    from advisor.contracts.reader import read_bytes

    data = sys.stdin.buffer.read(MAX_DOCUMENT_BYTES + 1)
    if not data.strip():
        raise DocumentError("-", "stdin is empty", hint="pipe the contract text in, or give a file")
    return "\f".join(p.text for p in read_bytes(data, "-").pages)
