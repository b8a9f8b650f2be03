"""One presentation layer over the typed reports.

``present(tool, report, lang)`` turns any tool's report (the pydantic model, or its JSON dump)
into a small :class:`~advisor.present.view.View`: a headline figure with its range, the three or
four figures that matter, what was understood, the findings (most severe first), alternatives
one line each, detail tables and the assumptions. Every face (CLI, UI, offline chat, Markdown
/HTML export, LLM tool summaries) renders that view; words come from one glossary
(``knowledge/glossary.yaml``) and figures from one set of formatters (:mod:`advisor.present.fmt`).
"""

from __future__ import annotations

from advisor.present.registry import PRESENTERS, present
from advisor.present.view import Figure, FindingLine, Table, View

__all__ = ["PRESENTERS", "Figure", "FindingLine", "Table", "View", "present"]
