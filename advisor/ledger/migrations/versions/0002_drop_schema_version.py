"""Drop ``schema_version``, the version stamp of ledgers made before Alembic (revisions now live
in ``alembic_version``).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "schema_version" in sa.inspect(op.get_bind()).get_table_names():
        op.drop_table("schema_version")


def downgrade() -> None:
    op.create_table("schema_version", sa.Column("version", sa.Integer, primary_key=True))
    op.execute("INSERT INTO schema_version (version) VALUES (1)")
