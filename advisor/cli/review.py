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
    monthly_fee: Annotated[
        float | None, typer.Option("--monthly-fee", help="monthly fee, to put amounts on traps (e.g. renewal cost)")
    ] = None,
    currency: Annotated[str | None, typer.Option("--currency", help="currency of --monthly-fee: USD or CNY")] = None,
) -> None:
    """Review FILE and print the findings and the checklist."""
    from advisor.tools.contract import review_contract

    fmt = fmt.lower()
    if fmt not in ("table", "md", "markdown", "json"):
        raise InputError("--format", fmt, "table, md or json")
    if lang is not None and lang not in ("zh", "en"):
        raise InputError("--lang", lang, "zh or en")
    if monthly_fee is not None and monthly_fee <= 0:
        raise InputError("--monthly-fee", monthly_fee, "a positive number")
    kwargs: dict[str, Any] = {"lang": lang, "monthly_fee": monthly_fee, "currency": currency}
    if file == "-":
        report = review_contract(text=_stdin_text(), **kwargs)
    else:
        report = review_contract(path=file, **kwargs)
    if as_json or fmt == "json":
        from advisor.cli.common import emit_json

        emit_json(report)
    elif fmt in ("md", "markdown"):
        sys.stdout.write(report.to_markdown())
    else:
        _tables(report)


def _stdin_text() -> str:
    """stdin as text: bytes are decoded like a file (UTF-8, else GB18030), within the size limit."""
    from advisor.contracts.limits import MAX_DOCUMENT_BYTES
    from advisor.contracts.reader import read_bytes

    data = sys.stdin.buffer.read(MAX_DOCUMENT_BYTES + 1)
    if not data.strip():
        raise DocumentError("-", "stdin is empty", hint="pipe the contract text in, or give a file")
    return "\f".join(p.text for p in read_bytes(data, "-").pages)


def _tables(report: Any) -> None:
    from rich.console import Console
    from rich.table import Table

    from advisor.contracts.checklist import category_name, term

    zh = report.language == "zh"
    console = Console()
    console.print(f"[bold]{'合同审查' if zh else 'Contract review'}[/bold]: {report.source} "
                  f"({report.pages} {'页' if zh else 'page(s)'}, {report.clause_count} {'条' if zh else 'clauses'})")
    if report.injection_detected:
        console.print("[red]" + ("发现夹带的 AI 指令：已忽略并报告。" if zh else "Embedded AI instructions found: ignored and reported.") + "[/red]")
    table = Table(title="发现" if zh else "Findings", show_lines=True)
    for col in (("严重度", "类别", "问题", "原文 / 位置", "谈判要求") if zh else ("Severity", "Category", "Issue", "Clause / where", "Ask for")):
        table.add_column(col, overflow="fold")
    for f in report.findings:
        quote, where = _quote(f, report.language)
        clause = f"“{quote[:160]}” ({where})" if quote else "—"
        amount = f" [{f.savings}]" if f.savings else ""
        table.add_row(term(f"severity.{f.severity}", report.language), category_name(f.category, report.language),
                      f.title + amount, clause, f.recommendation)
    console.print(table)
    check = Table(title="审查清单" if zh else "Checklist")
    for col in (("类别", "状态", "说明") if zh else ("Category", "Status", "Note")):
        check.add_column(col, overflow="fold")
    for item in report.checklist:
        check.add_row(item.label or item.category, item.status_label or item.status, item.note)
    console.print(check)


def _quote(finding: Any, lang: str) -> tuple[str | None, str]:
    from advisor.contracts.checklist import primary_evidence

    value = primary_evidence(finding)
    if value:
        return str(value["quote"]), str(value.get("where_zh" if lang == "zh" else "where") or "")
    return None, ""
