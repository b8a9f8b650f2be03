"""The budgets-and-approvals ledger: budgets per team/project/period, saved estimates as planned
spend, approvals raised above a threshold, and actual spend imported from FOCUS exports and usage reports, in one
SQL database (SQLite in the user's data folder, or ``ADVISOR_DATABASE_URL``) through SQLAlchemy."""

from advisor.ledger.db import Ledger, database_url, open_ledger
from advisor.ledger.imports import ImportResult, import_focus, import_spend, import_usage_report
from advisor.ledger.report import ApprovalView, BudgetLine, BudgetStatusReport
from advisor.ledger.store import (
    approve,
    parse_as_of,
    save_estimate,
    set_budget,
    status,
)

__all__ = [
    "ApprovalView",
    "BudgetLine",
    "BudgetStatusReport",
    "ImportResult",
    "Ledger",
    "approve",
    "database_url",
    "import_focus",
    "import_spend",
    "import_usage_report",
    "open_ledger",
    "parse_as_of",
    "save_estimate",
    "set_budget",
    "status",
]
