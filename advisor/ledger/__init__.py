"""The budgets-and-approvals ledger: budgets per team/project/period, saved estimates as planned
spend, approvals raised above a threshold, and actual spend imported from FOCUS exports, in one
SQL database (SQLite in the user's data folder, or ``ADVISOR_DATABASE_URL``) through SQLAlchemy."""

from advisor.ledger.db import Ledger, database_url, open_ledger
from advisor.ledger.store import (
    ApprovalView,
    BudgetLine,
    ImportResult,
    approve,
    import_focus,
    save_estimate,
    set_budget,
    status,
)

__all__ = [
    "ApprovalView",
    "BudgetLine",
    "ImportResult",
    "Ledger",
    "approve",
    "database_url",
    "import_focus",
    "open_ledger",
    "save_estimate",
    "set_budget",
    "status",
]
