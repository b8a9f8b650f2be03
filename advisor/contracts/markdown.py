"""The review as Markdown: findings first (quoted clause, location, why it costs, the ask),
then the full checklist, in the report's language."""

from __future__ import annotations

from typing import Any, Literal

from advisor.contracts.checklist import category_name, primary_evidence, term
from advisor.money import format_money
from advisor.rules.findings import Finding

_L: dict[str, dict[str, Any]] = {
    "en": {
        "title": "Contract review", "source": "Source", "lang": "Language", "pages": "Pages",
        "clauses": "Clauses", "findings": "Findings", "none": "No findings.", "checklist": "Checklist",
        "category": "Category", "status": "Status", "clause": "Clause", "note": "Note",
        "where": "Where", "quote": "Clause", "related": "Related clause", "why": "Why it costs", "ask": "Ask for",
        "stake": "At stake", "injection": "Embedded instructions were found and ignored (treated as contract text).",
    },
    "zh": {
        "title": "合同审查", "source": "来源", "lang": "语言", "pages": "页数",
        "clauses": "条款数", "findings": "发现", "none": "未发现问题。", "checklist": "审查清单",
        "category": "类别", "status": "状态", "clause": "条款", "note": "说明",
        "where": "位置", "quote": "原文", "related": "相关条款", "why": "为何多花钱", "ask": "谈判要求",
        "stake": "涉及金额", "injection": "发现夹带的指令，已作为合同文字处理并忽略。",
    },
}  # fmt: skip


def render(report: dict[str, Any]) -> str:
    """Markdown for a report dict (``ContractReport.model_dump()``)."""
    lang: Literal["zh", "en"] = "zh" if report.get("language") == "zh" else "en"
    t = _L[lang]
    out = [f"# {t['title']}", ""]
    out.append(f"- {t['source']}: `{report.get('source')}`")
    out.append(f"- {t['lang']}: {report.get('language')} · {t['pages']}: {report.get('pages')} · {t['clauses']}: {report.get('clause_count')}")
    if report.get("injection_detected"):
        out.append(f"- ⚠ {t['injection']}")
    out += ["", f"## {t['findings']} ({len(report.get('findings') or [])})", ""]
    findings = [Finding.model_validate(f) if isinstance(f, dict) else f for f in report.get("findings") or []]
    if not findings:
        out.append(t["none"])
    for i, f in enumerate(findings, 1):
        text = f.text.get(lang) if f.text else None
        title = text.title if text else f.title
        out.append(f"### {i}. {title}")
        out.append(f"*{term('severity.' + f.severity, lang)} · {category_name(f.category, lang)} · `{f.rule_id}`*")
        out.append("")
        quote, where = _quote(f, lang)
        context = next((v for v in f.evidence.values() if isinstance(v, dict) and v.get("context")), None)
        if quote:
            out.append(f"> {_one_line(quote)}")
            out.append("")
            out.append(f"- **{t['where']}**: {where}")
        elif context:
            out.append(f"- **{t['related']}**: “{_one_line(str(context['context']), 200)}” ({_where(context.get('location') or {}, lang)})")
        out.append(f"- **{t['why']}**: {text.detail if text else f.detail}")
        if f.savings is not None:
            out.append(f"- **{t['stake']}**: {format_money(f.savings.amount, f.savings.currency)}")
        out.append(f"- **{t['ask']}**: {text.recommendation if text else f.recommendation}")
        out.append("")
    out += [f"## {t['checklist']}", "", f"| {t['category']} | {t['status']} | {t['clause']} | {t['note']} |", "|---|---|---|---|"]
    for item in report.get("checklist") or []:
        clause = _one_line(item.get("clause") or "", 90)
        loc = item.get("location") or {}
        if clause and loc:
            clause = f"{clause} ({_where(loc, lang)})"
        status = term(f"contract.status.{item['status']}", lang)
        out.append(f"| {category_name(item['category'], lang)} | {status} | {_cell(clause)} | {_cell(item.get('note') or '')} |")
    return "\n".join(out) + "\n"


def _quote(finding: Finding, lang: str) -> tuple[str | None, str]:
    value = primary_evidence(finding)
    if value:
        return str(value["quote"]), _where(value.get("location") or {}, lang)
    return None, ""


def _where(loc: dict[str, Any], lang: str) -> str:
    section, page, line = loc.get("section"), loc.get("page"), loc.get("line")
    if lang == "zh":
        return f"{section + '，' if section else ''}第{page}页第{line}行"
    mark = "§" if section and str(section)[:1].isdigit() else ""
    return f"{mark + str(section) + ', ' if section else ''}page {page}, line {line}"


def _one_line(text: str, limit: int = 400) -> str:
    s = " ".join(text.split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")
