"""A view as Markdown: the short form (chat answers, LLM tool summaries) or the whole report
with every table and the assumptions (the session export)."""

from __future__ import annotations

from advisor.glossary import term
from advisor.present.view import TOP_FINDINGS, FindingLine, Table, View


def _cell(value: str) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def table(t: Table, title: bool = True) -> list[str]:
    if not t.rows:
        return []
    out = [f"**{t.title}**", ""] if title else []
    out += ["| " + " | ".join(_cell(c) for c in t.columns) + " |", "|" + "---|" * len(t.columns)]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in t.rows]
    return out + [""]


def finding(f: FindingLine, full: bool = False) -> list[str]:
    line = f"- **[{f.severity_label}] {f.title}**" + (f" ({f.saving})" if f.saving else "")
    out = [line + (f" — {f.detail}" if full and f.detail else "")]
    if f.recommendation:
        out.append(f"  - {f.recommendation}")
    quote = f.quotes[0] if full and f.quotes and f.quotes[0].where else None
    if quote:
        out.append(f"  - > {quote.text} — {quote.where}")
    return out


def colon(lang: str) -> str:
    return term("sep.colon", lang)


def aside(text: str | None, lang: str) -> str:
    """`` (text)`` / ``（text）``, or '' when there is no text."""
    return term("sep.aside", lang, text=text) if text else ""


def understood_line(v: View) -> str:
    """What was understood, in a line."""
    return f"{term('label.understood', v.lang)}{colon(v.lang)}{term('sep.clause', v.lang).join(v.understood)}"


def short(v: View, top_findings: int = TOP_FINDINGS, *, understood: bool = True) -> str:
    """The answer a manager reads in one screen (``understood``: with the view's own line of
    what was understood; the chat opens with its own)."""
    out = [f"**{v.summary}**", ""]  # then the headline and the key figures, one bullet each
    out += [f"- {f.label}{colon(v.lang)}**{f.value}**{aside(f.range, v.lang)}" for f in (v.headline, *v.figures)]
    if v.understood and understood:
        out += ["", understood_line(v)]
    if v.priced:
        out += ["", v.priced]
    out += [f"> {n}" for n in v.notes]
    if v.findings:
        out += ["", f"**{term('label.findings', v.lang)}**"]
        for f in v.findings[:top_findings]:
            out += finding(f)
    if v.alternatives:
        out += ["", f"**{term('label.alternatives', v.lang)}**", *[f"- {a}" for a in v.alternatives]]
    return "\n".join(out).strip() + "\n"


def full(v: View) -> str:
    """Everything: the short form's figures, every finding, every table, the assumptions."""
    out = [short(v, top_findings=0).rstrip(), ""]
    if v.findings:
        out += [f"**{term('label.findings', v.lang)}**", ""]
        for f in v.findings:
            out += finding(f, full=True)
        out.append("")
    for t in v.tables:
        out += table(t)
    if v.assumptions is not None:
        out += table(v.assumptions)
    return "\n".join(out).strip() + "\n"
