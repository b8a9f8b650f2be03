"""Schema and connection of the ledger. The tables below are what the queries use; the database
itself is built and upgraded by the Alembic migrations in ``advisor/ledger/migrations`` (run by
:func:`open_ledger`, under a lock so concurrent openers migrate once). A database whose revision
this advisor does not know (made by a newer version) is refused."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.util import CommandError
from sqlalchemy import (
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    inspect,
    text,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.exc import ArgumentError, OperationalError

from advisor.config import catalog_dir
from advisor.datafile import read_mapping
from advisor.errors import DataError, InputError

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
LEGACY_REVISION = "0001"  # what a database stamped schema_version=1 (before Alembic) holds
PG_LOCK_KEY = 0x4C454447  # pg_advisory_xact_lock key of the ledger's migrations
SETTINGS_FILE = "ledger.yaml"
MONEY = String(64)  # exact decimal text: SQLite has no exact decimal type

metadata = MetaData()


def _owned() -> list[Column[Any]]:
    """The columns of an amount owned by a team/project in a month: team, project, period,
    amount, currency."""
    return [Column("team", String(200), nullable=False), Column("project", String(200), nullable=False),
            Column("period", String(7), nullable=False), Column("amount", MONEY, nullable=False),
            Column("currency", String(3), nullable=False)]


budgets = Table(
    "budgets", metadata,
    Column("id", Integer, primary_key=True),
    *_owned(),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("team", "project", "period", name="uq_budget_team_project_period"),
)
planned = Table(
    "planned_spend", metadata,
    Column("id", Integer, primary_key=True),
    *_owned(),
    Column("tool", String(100), nullable=False),
    Column("report_json", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
approvals = Table(
    "approvals", metadata,
    Column("id", Integer, primary_key=True),
    Column("planned_id", Integer, ForeignKey("planned_spend.id"), nullable=False, unique=True),
    Column("status", String(20), nullable=False),
    Column("approver", String(200)),
    Column("note", Text),
    Column("reason", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("decided_at", DateTime(timezone=True)),
)
approval_events = Table(
    "approval_events", metadata,
    Column("id", Integer, primary_key=True),
    Column("approval_id", Integer, ForeignKey("approvals.id"), nullable=False),
    Column("status", String(20), nullable=False),
    Column("actor", String(200)),
    Column("note", Text),
    Column("at", DateTime(timezone=True), nullable=False),
)
actual = Table(
    "actual_spend", metadata,
    Column("id", Integer, primary_key=True),
    Column("row_key", String(200), nullable=False, unique=True),
    *_owned(),
    Column("source", String(500), nullable=False),
    Column("imported_at", DateTime(timezone=True), nullable=False),
)


@lru_cache(maxsize=1)
def settings() -> dict[str, Any]:
    """The ledger's defaults (``knowledge/catalog/ledger.yaml``)."""
    return read_mapping(catalog_dir() / SETTINGS_FILE)


def database_url() -> str:
    """``ADVISOR_DATABASE_URL``, else SQLite at ``$XDG_DATA_HOME/<folder>/<file>``."""
    db = settings()["database"]
    url = os.environ.get(str(db["env"]), "").strip()
    if url:
        return url
    base = os.environ.get("XDG_DATA_HOME", "").strip() or str(Path.home() / ".local" / "share")
    folder = Path(base) / str(db["folder"])
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / str(db['file'])}"


@dataclass
class Ledger:
    engine: Engine
    url: str

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def close(self) -> None:
        """Close the pooled connections."""
        self.engine.dispose()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def _sqlite_immediate(engine: Engine, timeout_s: float) -> None:
    """SQLite writers take the write lock at BEGIN, so concurrent writers queue instead of failing."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None
        dbapi_conn.execute(f"PRAGMA busy_timeout = {int(timeout_s * 1000)}")

    @event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def open_ledger(url: str | None = None) -> Ledger:
    """Connect and bring the schema to the newest migration."""
    url = url or database_url()
    timeout = float(settings()["database"]["sqlite_busy_timeout_s"])
    try:
        if url.startswith("sqlite"):
            engine = create_engine(url, connect_args={"timeout": timeout, "check_same_thread": False})
            _sqlite_immediate(engine, timeout)
        else:
            engine = create_engine(url, pool_pre_ping=True)
    except (ArgumentError, ImportError) as exc:
        raise InputError("ADVISOR_DATABASE_URL", _safe(url), f"a SQLAlchemy database URL with an installed driver ({exc})") from None
    try:
        _migrate_or_explain(engine, url)
    except BaseException:
        engine.dispose()
        raise
    return Ledger(engine=engine, url=url)


def _migrate_or_explain(engine: Engine, url: str) -> None:
    try:
        migrate(engine)
    except OperationalError as exc:
        raise InputError("ADVISOR_DATABASE_URL", _safe(url), f"a reachable database ({exc.orig})") from None
    except CommandError as exc:
        raise DataError(_safe(url), f"ledger schema unknown to this advisor ({exc}); upgrade the advisor") from None


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for the ledger's migrations, bound to ``connection``."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


def current_revision(conn: Connection) -> str | None:
    return MigrationContext.configure(conn).get_current_revision()


def migrate(engine: Engine, revision: str = "heads") -> None:
    """Upgrade the database to ``revision`` in one transaction. SQLite's BEGIN IMMEDIATE and
    PostgreSQL's advisory lock make concurrent openers wait, so the migrations run once."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_LOCK_KEY})
        cfg = alembic_config(conn)
        names = set(inspect(conn).get_table_names())
        if current_revision(conn) is None and "schema_version" in names and "budgets" in names:
            command.stamp(cfg, LEGACY_REVISION)  # a ledger made before migrations: its tables are 0001's
        command.upgrade(cfg, revision)


def insert_for(engine: Engine, table: Table) -> Any:
    """An INSERT that can say ON CONFLICT (SQLite and PostgreSQL)."""
    return (postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert)(table)


def _safe(url: str) -> str:
    """The URL without its password."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<unparsable URL>"
