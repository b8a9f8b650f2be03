"""Budget versus actual from the ledger (REQUIREMENTS E1; issue #17): the ``budget_status`` tool.

It reads the team's ledger (``ADVISOR_DATABASE_URL``, else the SQLite file in the user's data
folder) and changes nothing: budgets are set, estimates saved and approvals decided through
``advisor budget …`` and the Budgets page, never by an assistant."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from advisor.ledger import BudgetStatusReport, open_ledger, parse_as_of, status
from advisor.numeric import ToolRequest, validated


class BudgetStatusRequest(ToolRequest):
    """Which budgets to report, and when."""

    team: str | None = Field(None, description="Only this team's budgets (as set with `advisor budget set TEAM/PROJECT`).")
    project: str | None = Field(None, description="Only this project's budgets.")
    period: str | None = Field(None, description="Only this month, YYYY-MM (e.g. 2026-12).")
    as_of: str | None = Field(None, description="Date YYYY-MM-DD the status is computed at (default: now).")
    lang: Literal["en", "zh"] = "en"


def budget_status(request: BudgetStatusRequest | None = None, **kwargs: Any) -> BudgetStatusReport:
    """Budget versus actual spend per team and project from the ledger. Use when the user asks how
    a budget stands ('are we over budget?', '预算还剩多少', 'ML 团队这个月花了多少'), for burn rate, the
    forecast to period end or pending approvals. Returns each budget with actual (imported
    billing) and planned spend, remaining, burn rate per day, forecast, the budget rules'
    findings and the approvals with their trail. Reads only; changes nothing."""
    req: BudgetStatusRequest = validated(BudgetStatusRequest, request, kwargs)
    when = parse_as_of(req.as_of) if req.as_of else None
    with open_ledger() as ledger:
        return status(ledger, as_of=when, lang=req.lang, team=req.team, project=req.project, period=req.period)
