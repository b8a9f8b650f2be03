"""The ledger's first schema: budgets, planned spend, approvals with their trail, actual spend.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

MONEY = sa.String(64)  # exact decimal text: SQLite has no exact decimal type
WHEN = sa.DateTime(timezone=True)


def _owned() -> list[sa.Column]:
    """An amount owned by a team/project in a month: team, project, period, amount, currency."""
    return [sa.Column("team", sa.String(200), nullable=False), sa.Column("project", sa.String(200), nullable=False),
            sa.Column("period", sa.String(7), nullable=False), sa.Column("amount", MONEY, nullable=False),
            sa.Column("currency", sa.String(3), nullable=False)]


def upgrade() -> None:
    op.create_table(
        "budgets",
        sa.Column("id", sa.Integer, primary_key=True),
        *_owned(),
        sa.Column("updated_at", WHEN, nullable=False),
        sa.UniqueConstraint("team", "project", "period", name="uq_budget_team_project_period"),
    )
    op.create_table(
        "planned_spend",
        sa.Column("id", sa.Integer, primary_key=True),
        *_owned(),
        sa.Column("tool", sa.String(100), nullable=False),
        sa.Column("report_json", sa.Text, nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
    )
    op.create_table(
        "approvals",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("planned_id", sa.Integer, sa.ForeignKey("planned_spend.id"), nullable=False, unique=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("approver", sa.String(200)),
        sa.Column("note", sa.Text),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("created_at", WHEN, nullable=False),
        sa.Column("decided_at", WHEN),
    )
    op.create_table(
        "approval_events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("approval_id", sa.Integer, sa.ForeignKey("approvals.id"), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("actor", sa.String(200)),
        sa.Column("note", sa.Text),
        sa.Column("at", WHEN, nullable=False),
    )
    op.create_table(
        "actual_spend",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("row_key", sa.String(200), nullable=False, unique=True),
        *_owned(),
        sa.Column("source", sa.String(500), nullable=False),
        sa.Column("imported_at", WHEN, nullable=False),
    )


def downgrade() -> None:
    for table in ("actual_spend", "approval_events", "approvals", "planned_spend", "budgets"):
        op.drop_table(table)
