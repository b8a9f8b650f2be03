"""Contract review views: the contract text with every clause a
finding quotes highlighted in its severity's colour (presentation only: the quotes and their
locations come from the review)."""

from __future__ import annotations

import html
import re

import streamlit as st

from advisor.errors import DocumentError
from advisor.glossary import term
from advisor.present import View
from advisor.safe_read import decode
from ui.components.view import BADGE

MARK = {"critical": "#ffebe9", "warning": "#fff8c5", "info": "#ddf4ff"}
EDGE = {"critical": "#cf222e", "warning": "#9a6700", "info": "#0969da"}
_SPACE = re.compile(r"\s+")


def upload_text(data: bytes, name: str) -> str | None:
    """A text upload decoded as the review reads it (one decoding, :func:`advisor.safe_read.decode`:
    UTF-8, UTF-16, GB18030 or Big5), so the clauses it quotes are found in the same text; None
    when it is not readable text (the review says why)."""
    try:
        return decode(data, name)[0]
    except DocumentError:
        return None


def quotes(view: View) -> list[tuple[str, str, str]]:
    """(quote, severity, title) for every clause the view's findings quote, most severe first."""
    return [(q.text, f.severity, f.title) for f in view.findings for q in f.quotes]


def _find(text: str, quote: str) -> tuple[int, int] | None:
    """Where ``quote`` stands in ``text``, tolerant of line breaks and a trailing ellipsis."""
    core = quote.strip().rstrip("…").rstrip(".").strip()
    if not core:
        return None
    i = text.find(core)
    if i >= 0:
        return i, i + len(core)
    words = [re.escape(w) for w in _SPACE.split(core) if w]
    if not words:
        return None
    pattern = r"\s*".join(words) if len(words) > 1 else re.escape(core)
    # Chinese has no spaces: allow line breaks between any two characters of a short prefix.
    m = re.search(pattern, text)
    if m is None and len(words) == 1:
        prefix = core[:40]
        m = re.search(r"\s*".join(re.escape(ch) for ch in prefix), text)
    return (m.start(), m.end()) if m else None


def highlighted_html(text: str, marks: list[tuple[str, str, str]]) -> str:
    """The text as HTML, each quoted span wrapped in a coloured <mark> with its finding as title."""
    spans: list[tuple[int, int, str, str]] = []
    for quote, sev, title in marks:
        found = _find(text, quote)
        if found and not any(a < found[1] and found[0] < b for a, b, _, _ in spans):
            spans.append((found[0], found[1], sev, title))
    spans.sort()
    out, pos = [], 0
    for a, b, sev, title in spans:
        out.append(html.escape(text[pos:a]))
        style = f"background:{MARK.get(sev, '#ddf4ff')};border-bottom:2px solid {EDGE.get(sev, '#0969da')};padding:0 2px"
        out.append(f'<mark class="clause clause-{sev}" title="{html.escape(title)}" style="{style}">'
                   f"{html.escape(text[a:b])}</mark>")
        pos = b
    out.append(html.escape(text[pos:]))
    return "".join(out)


def contract_text(text: str | None, view: View, lang: str, height: int = 560) -> None:
    """The text with every quoted clause highlighted or, for a document whose text is not shown
    (PDF, Word), the quoted clauses one by one."""
    st.markdown(f"**{term('con.text', lang)}**")
    if not text:
        for quote, sev, title in quotes(view):
            st.markdown(f"> {quote}\n\n:{BADGE.get(sev, 'gray')}-badge[{title}]")
        return
    with st.container(height=height, border=True, key="contract-text"):
        body = highlighted_html(text, quotes(view))
        st.html(f'<div style="white-space:pre-wrap;font-size:0.9rem;line-height:1.6">{body}</div>')
