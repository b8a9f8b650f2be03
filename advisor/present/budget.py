"""Ledger status -> view: the tightest budget, budget versus actual per line, approvals with their trail."""

from __future__ import annotations

from advisor.glossary import term
from advisor.ledger.report import BudgetLine, BudgetStatusReport
from advisor.present import fmt
from advisor.present.view import Figure, Table, View


def _pressure(line: BudgetLine) -> float:
    """How tight a budget is: its forecast at period end over the budget."""
    budget = float(line.budget)
    return float(line.forecast) / budget if budget > 0 else 0.0


def budget_table(r: BudgetStatusReport, lang: str) -> Table:
    cols = ["budget_owner", "budget_period", "budget_amount", "actual_spend", "planned_spend", "remaining_budget",
            "spent_share", "period_elapsed", "burn_rate", "forecast_end", "approval_status"]
    rows, data = [], []
    for b in r.budgets:
        c = b.currency
        rows.append([f"{b.team}/{b.project}", b.period, fmt.money(b.budget, c), fmt.money(b.actual, c),
                     fmt.money(b.planned, c), fmt.money(b.remaining, c), fmt.pct(b.spent_share),
                     fmt.pct(b.elapsed_share), fmt.money(b.burn_rate_per_day, c), fmt.money(b.forecast, c),
                     term("status.forecast_over" if b.forecast_over else "status.on_track", lang)])
        data += [{"line": f"{b.team}/{b.project} {b.period} ({c})", "series": term(f"label.{label}", lang),
                  "amount": float(getattr(b, k))}
                 for k, label in (("budget", "budget_amount"), ("actual", "actual_spend"), ("forecast", "forecast_end"))]
    return Table("budgets", term("label.budget_lines", lang), [term(f"label.{k}", lang) for k in cols], rows,
                 numeric={2, 3, 4, 5, 6, 7, 8, 9}, muted=[False] * len(rows), data=data)


def approvals_table(r: BudgetStatusReport, lang: str) -> Table:
    cols = ["approval_id", "budget_owner", "budget_period", "approval_amount", "approval_status", "approver",
            "approval_note", "approval_trail"]
    rows = []
    for a in r.approvals:
        trail = " → ".join(f"{term('status.' + t.status, lang)} {fmt.date(t.at)}" + (f" ({t.actor})" if t.actor else "")
                           for t in a.trail)
        rows.append([f"#{a.id}", f"{a.team}/{a.project}", a.period, fmt.money(a.amount, a.currency),
                     term(f"status.{a.status}", lang), a.approver or "—", a.note or "—", trail])
    return Table("approvals", term("label.approvals", lang), [term(f"label.{k}", lang) for k in cols], rows,
                 numeric={3}, muted=[a.status != "pending" for a in r.approvals])


def present_budget(r: BudgetStatusReport, lang: str) -> View:
    pending = [a for a in r.approvals if a.status == "pending"]
    over = [b for b in r.budgets if b.forecast_over]
    when = fmt.date(r.as_of)[:10]
    figures = [Figure("imported", term("label.imported_spend", lang),
                      ", ".join(fmt.money(v, c) for c, v in r.totals.actual.items()) or "—",
                      note=term("label.imported_rows", lang, rows=r.totals.actual_rows))]
    figures.append(Figure("pending", term("label.approvals", lang), str(len(pending)),
                          status="bad" if pending else None, note=term("status.pending", lang), raw=float(len(pending))))
    if r.budgets:
        worst = max(r.budgets, key=_pressure)
        c = worst.currency
        head = Figure("forecast", term("label.budget_worst", lang),
                      f"{fmt.money(worst.forecast, c)} / {fmt.money(worst.budget, c)}",
                      range=f"{worst.team}/{worst.project} · {worst.period} · {term('label.forecast_end', lang)}",
                      status="bad" if worst.forecast_over else "good",
                      note=term("status.forecast_over" if worst.forecast_over else "status.on_track", lang),
                      raw=float(worst.forecast))
        figures = [
            Figure("actual", term("label.actual_spend", lang), fmt.money(worst.actual, c),
                   note=f"{term('label.spent_share', lang)} {fmt.pct(worst.spent_share)} · "
                        f"{term('label.period_elapsed', lang)} {fmt.pct(worst.elapsed_share)}", raw=float(worst.actual)),
            Figure("burn_rate", term("label.burn_rate", lang), fmt.money(worst.burn_rate_per_day, c),
                   raw=float(worst.burn_rate_per_day)),
            Figure("remaining", term("label.remaining_budget", lang), fmt.money(worst.remaining, c), raw=float(worst.remaining)),
            *figures,
        ]
        summary = term("summary.budget_status", lang, n=len(r.budgets), as_of=when, over=len(over), pending=len(pending))
    else:
        head = Figure("forecast", term("label.budget_lines", lang), "—")
        summary = term("summary.budget_empty", lang)
    return View(summary=summary, headline=head, figures=figures, tables=[budget_table(r, lang), approvals_table(r, lang)])
