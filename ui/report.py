"""The session report as Markdown and HTML: every estimate, review and analysis the user kept,
with figures, findings and assumptions. Pure functions of the records (nothing read from the
session), so the export is testable and can never see the settings or the API key."""

from __future__ import annotations

import html
import time
from typing import Any

from ui.components.findings import condition_text, evidence_parts, localized, ordered
from ui.components.fmt import hours, mode_label, money, number, pct, text_of
from ui.i18n import t

CSS = """
body{font-family:-apple-system,"Segoe UI","Noto Sans SC","PingFang SC","Microsoft YaHei",sans-serif;
max-width:960px;margin:2rem auto;padding:0 1rem;color:#1f2328;line-height:1.55}
h1{border-bottom:2px solid #0969da;padding-bottom:.3rem}h2{margin-top:2.2rem;border-bottom:1px solid #d0d7de}
table{border-collapse:collapse;margin:.6rem 0;width:100%;font-size:.92rem}
th,td{border:1px solid #d0d7de;padding:.3rem .55rem;text-align:left;vertical-align:top}th{background:#f6f8fa}
blockquote{margin:.4rem 0;padding:.2rem .8rem;border-left:4px solid #d0d7de;color:#57606a}
code{background:#f6f8fa;padding:0 .25rem;border-radius:4px}
@media (max-width:600px){body{margin:1rem auto}table{font-size:.8rem}}
"""


def _cell(value: Any) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def table(headers: list[str], rows: list[list[Any]]) -> list[str]:
    if not rows:
        return []
    out = ["| " + " | ".join(_cell(h) for h in headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return out + [""]


def findings_md(findings: list[dict[str, Any]], lang: str) -> list[str]:
    if not findings:
        return []
    out = [f"**{t('card.findings', lang)}**", ""]
    for f in ordered(findings):
        text = localized(f, lang)
        sev = str(f.get("severity", "info"))
        line = f"- **[{t(f'card.sev.{sev}', lang)}] {text['title']}** — {text['detail']}"
        savings = f.get("savings") or {}
        if savings.get("amount"):
            line += f" ({t('card.savings', lang, amount=money(savings['amount'], savings.get('currency')))})"
        out.append(line)
        if text["recommendation"]:
            out.append(f"  - {t('card.do', lang)}: {text['recommendation']}")
        conditions, quotes, _ = evidence_parts(f.get("evidence") or {})
        for q in quotes:
            where = q.get("where_zh") if lang == "zh" else q.get("where")
            out.append(f"  - > {q['quote']}" + (f" — *{where}*" if where else ""))
        if conditions:
            tests = "; ".join(f"{fact} {test} ({t('card.actual', lang)}: {actual})"
                              for fact, test, actual in map(condition_text, conditions))
            out.append(f"  - {t('card.because', lang)}: {tests}")
        req = ", ".join(map(str, f.get("requirement") or []))
        out.append(f"  - {t('card.rule', lang)}: `{f.get('rule_id', '')}`" + (f" · {t('card.requirement', lang)}: {req}" if req else ""))
    return out + [""]


def assumptions_md(assumptions: list[dict[str, Any]], lang: str) -> list[str]:
    if not assumptions:
        return []
    rows = [[a.get("name", ""), f"{a.get('value')}" + (f" {a['unit']}" if a.get("unit") else ""), a.get("source", "")]
            for a in assumptions]
    return [f"**{t('card.assumptions', lang, n=len(assumptions))}**", "",
            *table([t("card.col_name", lang), t("card.col_value", lang), t("card.col_source", lang)], rows)]


def billing_md(options: list[dict[str, Any]], cur: str, lang: str) -> list[str]:
    rows = []
    for o in options:
        if not o.get("available", True):
            continue
        marks = [t("card.cheapest", lang)] if o.get("cheapest") else []
        marks += [t("card.recommended", lang)] if o.get("recommended") else []
        rows.append([mode_label(str(o.get("mode")), lang), money(o.get("total"), cur), ", ".join(marks),
                     (o.get("note_zh") if lang == "zh" else o.get("note")) or ""])
    if not rows:
        return []
    return [f"**{t('card.billing', lang)}**", "",
            *table([t("card.mode", lang), t("card.col_total", lang), "", t("card.note", lang)], rows)]


def estimate_md(r: dict[str, Any], lang: str) -> list[str]:
    cost = r.get("cost") or {}
    cur = cost.get("currency", "USD")
    gh, wall, mem = r.get("gpu_hours") or {}, r.get("wall_hours") or {}, r.get("memory") or {}
    out = [text_of(r.get("summary"), lang), ""]
    out += table([t("card.total", lang), t("card.gpu_hours", lang), t("card.wall", lang), t("card.memory", lang)], [[
        f"{money(cost.get('total'), cur)} ({t('card.range', lang, low=money(cost.get('low'), cur), high=money(cost.get('high'), cur))})",
        f"{number(gh.get('expected'))} ({number(gh.get('low'))}–{number(gh.get('high'))})",
        hours(wall.get("expected"), lang),
        f"{number(mem.get('per_gpu_gb'), 1)} / {number(mem.get('gpu_memory_gb'))} GB "
        + t("card.fits" if mem.get("fits") else "card.no_fit", lang),
    ]])
    rows = [[(c.get("name_zh") if lang == "zh" and c.get("name_zh") else c.get("name")), number(c.get("quantity"), 2),
             c.get("unit", ""), money(c.get("unit_price"), cur), money(c.get("amount"), cur)]
            for c in cost.get("components") or []]
    if rows:
        out += [f"**{t('card.components', lang)}**", "", *table(
            [t("card.col_item", lang), t("card.col_qty", lang), t("card.col_unit", lang),
             t("card.col_unit_price", lang), t("card.col_amount", lang)], rows)]
    return out + billing_md(r.get("billing") or [], cur, lang)


def recommend_md(r: dict[str, Any], lang: str) -> list[str]:
    rows = [[o.get("gpu"), o.get("gpu_count"), mode_label(str(o.get("billing")), lang), money(o.get("total"), o.get("currency")),
             hours(o.get("wall_hours"), lang)] for o in r.get("options") or []]
    return [text_of(r.get("summary"), lang), "", *table(
        [t("card.col_gpu", lang), t("card.col_count", lang), t("card.col_billing", lang), t("card.col_total", lang),
         t("card.col_wall", lang)], rows)]


def billing_report_md(r: dict[str, Any], lang: str) -> list[str]:
    return [text_of(r.get("summary"), lang), "", *billing_md(r.get("options") or [], r.get("currency", "USD"), lang)]


def plan_md(r: dict[str, Any], lang: str) -> list[str]:
    cur = r.get("currency", "USD")
    rows = [[s.get("stage_zh") if lang == "zh" else s.get("stage"), f"{s.get('gpu_count')}× {s.get('gpu')}",
             mode_label(str(s.get("billing")), lang), money(s.get("cost"), cur), pct(s.get("share"))]
            for s in r.get("stages") or []]
    return [text_of(r.get("summary"), lang), "", *table(
        [t("card.col_stage", lang), t("card.col_gpu", lang), t("card.col_billing", lang), t("card.col_total", lang),
         t("card.col_share", lang)], rows)]


def contract_md(r: dict[str, Any], lang: str) -> list[str]:
    counts = {"critical": 0, "warning": 0, "info": 0}
    for f in r.get("findings") or []:
        counts[str(f.get("severity"))] = counts.get(str(f.get("severity")), 0) + 1
    return [t("con.counts", lang, c=counts["critical"], w=counts["warning"], i=counts["info"]), ""]


def usage_md(r: dict[str, Any], lang: str) -> list[str]:
    s = r.get("summary") or {}
    cur = s.get("currency") or r.get("currency") or "USD"
    out = [text_of(r.get("headline"), lang), ""]
    out += table([t("use.spend", lang), t("use.waste", lang), t("use.util", lang), t("use.saving", lang)], [[
        money(s.get("total_cost"), cur), money(s.get("waste_cost"), cur), pct(s.get("avg_utilization")),
        money(s.get("target_saving"), cur)]])
    return out


BODIES = {"estimate_training_cost": estimate_md, "recommend_hardware": recommend_md, "compare_billing": billing_report_md,
          "plan_project": plan_md, "review_contract": contract_md, "analyze_usage": usage_md}


def record_md(record: dict[str, Any], index: int, lang: str) -> list[str]:
    kind = str(record.get("kind"))
    r = record.get("result") or {}
    out = [f"## {index}. {t(f'rep.kind.{kind}', lang)} — {record.get('title', '')}", "", f"*{record.get('when', '')}*", ""]
    if record.get("question"):
        out += [f"**{t('rep.question', lang)}:** {record['question']}", ""]
    body = BODIES.get(kind)
    if body:
        out += body(r, lang)
    out += findings_md(r.get("findings") or [], lang)
    out += assumptions_md(r.get("assumptions") or [], lang)
    return out


def to_markdown(records: list[dict[str, Any]], lang: str, when: str | None = None) -> str:
    when = when or time.strftime("%Y-%m-%d %H:%M")
    out = [f"# {t('rep.heading', lang)}", "", t("rep.generated", lang, when=when), ""]
    for i, record in enumerate(records, 1):
        out += record_md(record, i, lang)
    return "\n".join(out).rstrip() + "\n"


def to_html(markdown: str, lang: str) -> str:
    """A standalone HTML page (inline CSS, no scripts); raw HTML in the text is escaped."""
    from markdown_it import MarkdownIt

    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown)
    title = html.escape(t("rep.heading", lang))
    return (f'<!doctype html>\n<html lang="{"zh-CN" if lang == "zh" else "en"}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title>'
            f"<style>{CSS}</style></head><body>\n{body}</body></html>\n")
