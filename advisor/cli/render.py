"""Terminal output of every report, drawn from its view (advisor.present), in the report's
language (``--lang``). The default is the short form a manager reads in one screen: the
headline with its range, the key figures, what was understood, the top findings and one line
per alternative. ``--details`` adds every table, every finding and the assumptions. The JSON
form (``--json``) is the report itself."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from advisor.glossary import term

if TYPE_CHECKING:
    from advisor.present.view import Table, View

_COLOUR = {"critical": "red", "warning": "yellow", "info": "cyan"}


def _table(t: Table) -> RichTable:
    out = RichTable(title=t.title, title_justify="left", show_lines=False)
    for i, col in enumerate(t.columns):
        out.add_column(col, justify="right" if i in t.numeric else "left", overflow="fold")
    for i, row in enumerate(t.rows):
        muted = bool(t.muted and t.muted[i])
        out.add_row(*[escape(c) for c in row], style="dim" if muted else None)
    return out


def view(v: View, details: bool = False, console: Console | None = None) -> None:
    # lazy: cold start of the CLI (`advisor ui`, `--help` and the other commands load no presenter)
    from advisor.present.markdown import aside, colon
    from advisor.present.view import TOP_FINDINGS

    c = console or Console()
    c.print(f"[bold]{escape(v.summary)}[/bold]")
    col = colon(v.lang)
    head = v.headline
    line = f"{escape(head.label)}{col}[bold]{escape(head.value)}[/bold]" + escape(aside(head.range, v.lang))
    c.print(line + (f"  {escape(head.note)}" if head.note else ""))
    for fig in v.figures:
        extra = " · ".join(x for x in (fig.range, fig.note) if x and not (x is fig.note and fig.range and x in fig.range))
        c.print(f"  {escape(fig.label)}{col}{escape(fig.value)}" + escape(aside(extra, v.lang)), highlight=False)
    if v.understood:
        c.print(f"[dim]{escape(term('label.understood', v.lang))}{col}" + escape(term("sep.clause", v.lang).join(v.understood)) + "[/dim]")
    if v.priced:
        c.print(f"[dim]{escape(v.priced)}[/dim]", highlight=False)
    for note in v.notes:
        c.print(f"[yellow]{escape(note)}[/yellow]")
    shown = v.findings if details else v.findings[:TOP_FINDINGS]
    if shown:
        c.print(f"[bold]{escape(term('label.findings', v.lang))}[/bold]")
        for f in shown:
            saving = f" — {escape(f.saving)}" if f.saving else ""
            c.print(f"  [{_COLOUR.get(f.severity, 'white')}]{escape(f.severity_label)}[/] {escape(f.title)}{saving}", highlight=False)
            c.print(f"    {escape(f.recommendation)}", highlight=False)
        if not details and len(v.findings) > len(shown):
            c.print(f"  [dim]{escape(term('label.more_findings', v.lang, n=len(v.findings) - len(shown)))}[/dim]")
    if v.alternatives:
        c.print(f"[bold]{escape(term('label.alternatives', v.lang))}[/bold]")
        for a in v.alternatives:
            c.print(f"  • {escape(a)}", highlight=False)
    if not details:
        c.print(f"[dim]{escape(term('label.details_hint', v.lang))}[/dim]")
        return
    for t in v.tables:
        c.print(_table(t))
    if v.assumptions is not None:
        c.print(_table(v.assumptions))


def show(tool: str, report: Any, details: bool = False, lang: str | None = None) -> None:
    # lazy: cold start of the CLI (see view)
    from advisor.present import present

    view(present(tool, report, lang), details)
