"""The view model every face renders: small, typed, already in the user's language."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Figure:
    """One figure: a stable key, its label, the formatted value and, when there is one, its range."""

    key: str
    label: str
    value: str
    range: str | None = None
    status: str | None = None  # "good" | "bad" | None: a badge next to the value
    note: str | None = None  # the badge or caption text
    raw: float | None = None  # the number behind the value, for charts and tests


@dataclass
class Quote:
    """A clause quoted as evidence, and where it stands ('' when not in a document: a request field)."""

    text: str
    where: str = ""


@dataclass
class FindingLine:
    """One finding, shown once: severity, title, what to do, the saving, where it comes from."""

    rule_id: str
    severity: str
    severity_label: str
    title: str
    detail: str
    recommendation: str
    saving: str | None = None
    source: str | None = None
    category: str = ""
    quotes: list[Quote] = field(default_factory=list)
    """Every clause the finding quotes, each once, the primary one first (the highlighter marks each)."""
    tested: list[tuple[str, str, str]] = field(default_factory=list)
    """Why it fired: (fact, the rule's test, the actual value) of each matched condition."""
    facts: list[tuple[str, str]] = field(default_factory=list)
    """The other evidence: (fact, value)."""


@dataclass
class Table:
    """A detail table: column headers, formatted rows, which columns are numeric, muted rows
    (greyed: unavailable or unsuitable), ``data`` (the rows of its chart, the ui/charts.yaml spec
    of the table's key) and ``values`` (the spec's other parameters)."""

    key: str
    title: str
    columns: list[str]
    rows: list[list[str]]
    numeric: set[int] = field(default_factory=set)
    muted: list[bool] = field(default_factory=list)
    data: list[dict[str, Any]] = field(default_factory=list)
    values: dict[str, Any] = field(default_factory=dict)


TOP_FINDINGS = 2
"""How many findings the short form shows, in every face (terminal, page, chat answer); the others
fold away with the details."""


@dataclass
class View:
    """A report as a person reads it. The short form is ``summary``, ``headline``, ``figures``,
    ``understood``, the top findings and ``alternatives``; ``charts``, ``tables`` and ``assumptions`` fold away.
    :func:`advisor.present.present` fills in the tool, language and title, and the report's own
    findings and assumptions where the presenter gives none."""

    summary: str
    headline: Figure
    figures: list[Figure] = field(default_factory=list)
    understood: list[str] = field(default_factory=list)
    findings: list[FindingLine] = field(default_factory=list)
    alternatives: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    priced: str | None = None  # which sheet, providers and dates priced the report (one line)
    tables: list[Table] = field(default_factory=list)
    charts: list[Table] = field(default_factory=list)  # tables with a chart only (data, no rows): the UI draws them
    assumptions: Table | None = None
    tool: str = ""
    lang: str = ""
    title: str = ""

    def table(self, key: str) -> Table | None:
        return next((t for t in self.tables if t.key == key), None)
