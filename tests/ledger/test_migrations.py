"""The ledger's schema comes from its Alembic migrations, on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text

from advisor.errors import DataError
from advisor.ledger import open_ledger, set_budget, status
from advisor.ledger.db import alembic_config, current_revision, metadata, migrate


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


TABLES = {"budgets", "planned_spend", "approvals", "approval_events", "actual_spend"}


def test_an_empty_database_upgrades_to_head_with_the_schema_the_queries_use(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        assert inspect(engine).get_table_names() == []
        migrate(engine)
        with engine.connect() as conn:
            assert current_revision(conn) == head_revision()
            assert set(inspect(conn).get_table_names()) == TABLES | {"alembic_version"}
            diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), metadata)
        assert diff == []  # the migrations build exactly the tables advisor.ledger.db describes
        migrate(engine)  # a second upgrade is a no-op
        with engine.connect() as conn:
            assert current_revision(conn) == head_revision()
    finally:
        engine.dispose()


def test_unique_keys_come_from_the_migrations(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        migrate(engine)
        uniques = {tuple(u["column_names"]) for u in inspect(engine).get_unique_constraints("budgets")}
        assert ("team", "project", "period") in uniques
        actual_unique = {tuple(u["column_names"]) for u in inspect(engine).get_unique_constraints("actual_spend")}
        actual_unique |= {tuple(i["column_names"]) for i in inspect(engine).get_indexes("actual_spend") if i["unique"]}
        assert ("row_key",) in actual_unique
    finally:
        engine.dispose()


def test_a_ledger_made_before_migrations_is_adopted_and_keeps_its_data(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        migrate(engine, "0001")  # the tables of the pre-Alembic ledger ...
        with engine.begin() as conn:  # ... with its version stamp and no alembic_version
            conn.execute(text("DROP TABLE alembic_version"))
            conn.execute(text("CREATE TABLE schema_version (version INTEGER PRIMARY KEY)"))
            conn.execute(text("INSERT INTO schema_version (version) VALUES (1)"))
    finally:
        engine.dispose()
    with open_ledger(database_url) as led:
        set_budget(led, "ml/pretrain", "100", "2026-12")
        assert [b.budget for b in status(led).budgets] == ["100.00"]
        names = set(inspect(led.engine).get_table_names())
    assert "schema_version" not in names and names >= TABLES


def test_a_database_from_a_newer_advisor_is_refused(database_url: str) -> None:
    with open_ledger(database_url):
        pass
    engine = create_engine(database_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    finally:
        engine.dispose()
    with pytest.raises(DataError, match="unknown to this advisor"):
        open_ledger(database_url)
