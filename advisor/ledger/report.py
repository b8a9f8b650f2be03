"""The ledger's status report: budget versus actual and planned spend per budget, with the
budget rules' findings, the approvals with their trail, and the totals of imported spend.

``advisor budget status --json``, the Budgets page and the ``budget_status`` tool all return this
one model (its ``model_dump()`` is the JSON)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from advisor.findings import Assumption, Finding


class BudgetLine(BaseModel):
    """One budget (team, project, month) against the spend charged to it, in the budget's currency."""

    team: str
    project: str
    period: str
    currency: str
    budget: str = Field(description="budget amount, exact decimal text")
    actual: str = Field(description="imported spend of the period, converted at the dated FX rate")
    planned: str = Field(description="saved estimates (planned spend) of the period")
    remaining: str = Field(description="budget - actual")
    spent_share: float = Field(description="actual / budget")
    elapsed_share: float = Field(description="share of the period gone at as_of")
    days_left: float
    burn_rate_per_day: str = Field(description="actual / days elapsed (straight-line)")
    forecast: str = Field(description="actual + burn rate x days left: the spend at period end")
    forecast_over: bool
    findings: list[Finding] = Field(default_factory=list, description="budget rules that fired for this line")


class TrailEntry(BaseModel):
    status: str
    actor: str | None = None
    note: str | None = None
    at: str


class ApprovalView(BaseModel):
    """An approval request raised by a saved estimate over the threshold, with its trail."""

    id: int
    planned_id: int
    team: str
    project: str
    period: str
    amount: str
    currency: str
    status: str = Field(description="pending | approved | rejected")
    approver: str | None = None
    note: str | None = None
    reason: str
    created_at: str
    decided_at: str | None = None
    trail: list[TrailEntry] = Field(default_factory=list)


class OwnerSpend(BaseModel):
    team: str
    project: str
    period: str
    currency: str
    actual: str


class LedgerTotals(BaseModel):
    actual: dict[str, str] = Field(description="all imported spend per currency, in each export's own currency")
    actual_rows: int


class BudgetStatusReport(BaseModel):
    inputs: dict[str, Any]
    as_of: str
    backend: str = Field(description="the ledger's database kind (sqlite | postgresql); the URL is never reported")
    budgets: list[BudgetLine]
    actual_by_owner: list[OwnerSpend]
    approvals: list[ApprovalView]
    totals: LedgerTotals
    findings: list[Finding] = Field(default_factory=list, description="every budget line's findings, most severe first")
    assumptions: list[Assumption]
