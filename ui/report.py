"""The session report as Markdown and HTML: every estimate, review and analysis the user kept,
drawn from each report's view (advisor.present.markdown.full): figures, findings, tables, assumptions. Pure functions of the records (nothing read from the
session), so the export is testable and can never see the settings or the API key."""

from __future__ import annotations

import html
import time
from pathlib import Path
from typing import Any

from advisor.glossary import term
from advisor.present import PRESENTERS, markdown, present

CSS = (Path(__file__).with_name("assets") / "report.css").read_text(encoding="utf-8")


def record_md(record: dict[str, Any], index: int, lang: str) -> list[str]:
    kind = str(record.get("kind"))
    r = record.get("result") or {}
    out = [f"## {index}. {term(f'tool.{kind}', lang)} — {record.get('title', '')}", "", f"*{record.get('when', '')}*", ""]
    if record.get("question"):
        out += [f"**{term('rep.question', lang)}:** {record['question']}", ""]
    if kind in PRESENTERS:
        out += [markdown.full(present(kind, r, lang)), ""]
    return out


def to_markdown(records: list[dict[str, Any]], lang: str, when: str | None = None) -> str:
    when = when or time.strftime("%Y-%m-%d %H:%M")
    out = [f"# {term('rep.heading', lang)}", "", term("rep.generated", lang, when=when), ""]
    for i, record in enumerate(records, 1):
        out += record_md(record, i, lang)
    return "\n".join(out).rstrip() + "\n"


def to_html(markdown: str, lang: str) -> str:
    """A standalone HTML page (inline CSS, no scripts); raw HTML in the text is escaped."""
    from markdown_it import MarkdownIt

    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown)
    title = html.escape(term("rep.heading", lang))
    return (f'<!doctype html>\n<html lang="{"zh-CN" if lang == "zh" else "en"}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title>'
            f"<style>{CSS}</style></head><body>\n{body}</body></html>\n")
