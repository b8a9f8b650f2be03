"""Alembic environment of the ledger. It runs only on the connection that
:func:`advisor.ledger.db.migrate` hands over (inside that connection's transaction), never from a URL."""

from __future__ import annotations

from alembic import context

from advisor.ledger.db import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the ledger always passes its connection
    raise RuntimeError("run ledger migrations through advisor.ledger.db.migrate(engine)")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True,
                  compare_type=True)
with context.begin_transaction():
    context.run_migrations()
