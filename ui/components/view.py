"""Every report drawn from its view (advisor.present): the headline figure with its range,
the key figures, what was understood, the top findings, one line per alternative; the
tables, charts, other findings and assumptions fold away under "details" and "assumptions".
A chat answer's tool results are cards of their views (:func:`tool_card`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st
import yaml

from advisor.glossary import term
from advisor.present import PRESENTERS, present
from advisor.present.markdown import understood_line
from advisor.present.view import TOP_FINDINGS, Figure, FindingLine, Table, View

BADGE = {"critical": "red", "warning": "orange", "info": "blue"}


CHARS_PER_COLUMN = 8
"""About how many characters of a figure's value fit a quarter-width metric card; a longer value gets a wider
column, so it is never cut off ("846 GPU-hours")."""


def metrics(figures: list[Figure], per_row: int = 4) -> None:
    for start in range(0, len(figures), per_row):
        row = figures[start:start + per_row]
        widths = [max(1.0, len(f.value) / CHARS_PER_COLUMN) for f in row] + [1.0] * (per_row - len(row))
        for col, f in zip(st.columns(widths), row, strict=False):
            with col:
                st.metric(f.label, f.value, border=True)
                caption = " · ".join(x for x in (f.range, None if f.status else f.note) if x)
                if caption:
                    st.caption(caption)
                if f.status and f.note:
                    st.badge(f.note, color="green" if f.status == "good" else "red")


def finding(f: FindingLine) -> None:
    head = f":{BADGE.get(f.severity, 'gray')}-badge[{f.severity_label}] **{f.title}**"
    if f.saving:
        head += f" :green-badge[{f.saving}]"
    st.markdown(head)
    if f.recommendation:
        st.caption(f.recommendation)


def finding_detail(f: FindingLine, lang: str) -> None:
    """The finding's text and why it fired: quoted clauses and the facts behind it."""
    st.markdown(f.detail)
    for q in f.quotes:
        st.markdown(f"> {q.text}" + (f"\n>\n> — *{q.where}*" if q.where else ""))
    if f.source:
        st.caption(f"{term('col.source', lang)}: {f.source}")
    if f.tested or f.facts:
        st.caption(" · ".join([*(f"`{fact} {test}` (`{actual}`)" for fact, test, actual in f.tested),
                               *(f"`{k}` = {v}" for k, v in f.facts)][:8]))


def table(t: Table) -> None:
    df = pd.DataFrame(t.rows, columns=t.columns)
    if t.muted and any(t.muted):
        muted = list(t.muted)
        style = df.style.apply(lambda row: ["color: #8c959f" if muted[row.name] else "" for _ in row], axis=1)
        st.dataframe(style, hide_index=True, width="stretch")
    else:
        st.dataframe(df, hide_index=True, width="stretch")


# --- charts: Vega-Lite specs kept as data (ui/charts.yaml), drawn over a table's data -------------

CHARTS_FILE = Path(__file__).resolve().parents[1] / "charts.yaml"


@lru_cache(maxsize=1)
def specs() -> dict[str, Any]:
    return dict(yaml.safe_load(CHARTS_FILE.read_text(encoding="utf-8")))


def _fill(node: Any, lang: str, values: dict[str, Any]) -> Any:
    """The spec with "$name" replaced by ``values[name]`` and "=key" by the glossary term."""
    if isinstance(node, dict):
        return {k: _fill(v, lang, values) for k, v in node.items()}
    if isinstance(node, list):
        return [_fill(v, lang, values) for v in node]
    if isinstance(node, str) and node[:1] in ("$", "="):
        return values[node[1:]] if node[0] == "$" else term(node[1:], lang)
    return node


def charted(t: Table, lang: str) -> None:
    """The table's chart: the spec of its key in ui/charts.yaml over its data (nothing without data)."""
    if t.data and t.key in specs():
        st.vega_lite_chart(pd.DataFrame(t.data), _fill(specs()[t.key], lang, t.values), width="stretch")


def _tables(v: View) -> None:
    for t in (t for t in [*v.charts, *v.tables] if t.rows or t.data):
        st.markdown(f"**{t.title}**")
        charted(t, v.lang)
        if t.rows:
            table(t)


@contextmanager
def fold(label: str, key: str, icon: str, *, lazy: bool | None = None, expanded: bool = False) -> Iterator[bool]:
    """An expander; yields whether to draw its content. ``lazy`` (a chat answer): the expander
    keeps its state under ``key`` and, when ``lazy`` is true, its content is drawn only while it is
    open, so a long conversation reruns in the time of its newest answer."""
    box = st.expander(label, expanded=expanded, icon=icon, key=None if lazy is None else key,
                      on_change="ignore" if lazy is None else "rerun")
    with box:
        yield not lazy or bool(box.open)


def head(v: View, per_row: int = 4) -> None:
    """The summary, the headline and key figures, what was understood, the price basis and the notes."""
    st.markdown(f"**{v.summary}**")
    figures = [v.headline, *v.figures]
    metrics(figures, per_row=min(per_row, len(figures)) or 1)
    if v.understood:
        st.caption(understood_line(v))
    if v.priced:
        st.caption(v.priced)
    for note in v.notes:
        st.info(note, icon=":material/info:")


def view_card(v: View, key: str, *, in_chat: bool = False, open_details: bool = False, per_row: int = 4,
              lazy: bool | None = None) -> None:
    """The short form, then the folded details and assumptions. ``in_chat``: the answer text
    above is the short form already, so only the folded parts are drawn (nothing twice).
    ``lazy``: see :func:`fold`."""
    if not in_chat:
        head(v, per_row)
        for f in v.findings[:TOP_FINDINGS]:
            finding(f)
            with st.popover(term("label.why", v.lang), icon=":material/help:"):
                finding_detail(f, v.lang)
        if v.alternatives:
            st.markdown(f"**{term('label.alternatives', v.lang)}**\n" + "\n".join(f"- {a}" for a in v.alternatives))
    with fold(term("label.details", v.lang), f"{key}-details", ":material/table_chart:", lazy=lazy,
              expanded=open_details) as draw:
        if draw:
            _details(v, in_chat)
    assumptions_fold(v, key, lazy)


def assumptions_fold(v: View, key: str, lazy: bool | None = None) -> None:
    if v.assumptions is not None and v.assumptions.rows:
        with fold(f"{v.assumptions.title} ({len(v.assumptions.rows)})", f"{key}-assumptions",
                  ":material/fact_check:", lazy=lazy) as draw:
            if draw:
                table(v.assumptions)


def _details(v: View, in_chat: bool) -> None:
    if in_chat:  # the notes, and why the findings the answer names fired, without repeating their titles
        for note in v.notes:
            st.info(note, icon=":material/info:")
        for f in v.findings[:TOP_FINDINGS]:
            finding_detail(f, v.lang)
    for f in v.findings[TOP_FINDINGS:]:
        finding(f)
        finding_detail(f, v.lang)
    _tables(v)


def tool_card(name: str, result: Any, lang: str, key: str, *, in_chat: bool = False, lazy: bool | None = None) -> None:
    """The card of one tool result in the chat (``in_chat``: the answer above says the short form;
    ``lazy``: see :func:`fold`): its view, the guide sections a search found, or the raw result."""
    hits = result.get("hits") or [] if name == "search_knowledge" else []
    if hits:
        with st.expander(f"{term('label.hits', lang)} ({len(hits)})", icon=":material/menu_book:"):
            for h in hits:
                st.markdown(f"**{h.get('title', '')} › {h.get('section', '')}**  \n{h.get('snippet') or h.get('text', '')[:300]}")
    elif name in PRESENTERS:
        with st.container(border=True, key=f"card-{key}"):
            view_card(present(name, result, lang), key, in_chat=in_chat, lazy=lazy)
    elif name != "search_knowledge":
        with st.expander(name):
            st.json(result, expanded=False)
