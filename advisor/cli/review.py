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
from argparse import Namespace
from typing import Any

import typer

from advisor.cli import args as A
from advisor.cli.common import emit_json
from advisor.errors import DocumentError


def register(app: typer.Typer) -> None:
    """Add the ``review`` command to ``app`` (flags and help in options.yaml)."""
    A.command(app, "review", review)


def review(ns: Namespace) -> None:
    """Review FILE and print the findings and the checklist."""
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.cli.progress import tty_progress
    from advisor.tools.contract import review_contract

    as_json = ns.json or ns.fmt == "json"
    kwargs: dict[str, Any] = {"lang": ns.lang, "monthly_fee": ns.monthly_fee, "currency": ns.currency}
    kwargs.update({"text": _stdin_text()} if ns.file == "-" else {"path": ns.file})
    with tty_progress("contract review / 合同审查") as sink:
        report = review_contract(progress=None if as_json else sink, **kwargs)
    if as_json:
        emit_json(report)
        return
    from advisor.cli.render import show
    from advisor.present import markdown, present

    if ns.fmt in ("md", "markdown"):
        view = present("review_contract", report, report.language)
        sys.stdout.write(f"# {view.title}: {report.source}\n\n" + markdown.full(view))
    else:
        show("review_contract", report, details=ns.details, lang=report.language)


def _stdin_text() -> str:
    """stdin as text: bytes are decoded like a file (UTF-8, else GB18030), within the size limit."""
    # lazy: cold start of the CLI (each command loads only what it runs)
    from advisor.contracts.limits import MAX_DOCUMENT_BYTES
    from advisor.contracts.reader import read_bytes

    data = sys.stdin.buffer.read(MAX_DOCUMENT_BYTES + 1)
    if not data.strip():
        raise DocumentError("-", "stdin is empty", hint="pipe the contract text in, or give a file")
    return "\f".join(p.text for p in read_bytes(data, "-").pages)
