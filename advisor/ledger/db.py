"""Schema and connection of the ledger. The schema is created with ``metadata.create_all`` and
stamped in ``schema_version``; a database stamped with another version is refused."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
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
    select,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import ArgumentError, DBAPIError, OperationalError

from advisor.config import catalog_dir
from advisor.errors import DataError, InputError

SCHEMA_VERSION = 1
SETTINGS_FILE = "ledger.yaml"
MONEY = String(64)  # exact decimal text: SQLite has no exact decimal type

metadata = MetaData()
schema_version = Table("schema_version", metadata, Column("version", Integer, primary_key=True))
budgets = Table(
    "budgets", metadata,
    Column("id", Integer, primary_key=True),
    Column("team", String(200), nullable=False),
    Column("project", String(200), nullable=False),
    Column("period", String(7), nullable=False),
    Column("amount", MONEY, nullable=False),
    Column("currency", String(3), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("team", "project", "period", name="uq_budget_team_project_period"),
)
planned = Table(
    "planned_spend", metadata,
    Column("id", Integer, primary_key=True),
    Column("team", String(200), nullable=False),
    Column("project", String(200), nullable=False),
    Column("period", String(7), nullable=False),
    Column("amount", MONEY, nullable=False),
    Column("currency", String(3), nullable=False),
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
    Column("team", String(200), nullable=False),
    Column("project", String(200), nullable=False),
    Column("period", String(7), nullable=False),
    Column("amount", MONEY, nullable=False),
    Column("currency", String(3), nullable=False),
    Column("source", String(500), nullable=False),
    Column("imported_at", DateTime(timezone=True), nullable=False),
)


@lru_cache(maxsize=1)
def settings() -> dict[str, Any]:
    """The ledger's defaults (``knowledge/catalog/ledger.yaml``)."""
    path = catalog_dir() / SETTINGS_FILE
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise DataError(str(path), f"cannot be read: {exc}") from exc
    if not isinstance(data, dict):
        raise DataError(str(path), "expected a mapping")
    return data


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
    """Connect, create the schema when missing, and check its version."""
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
        try:
            metadata.create_all(engine)
        except DBAPIError:  # another process created the tables between the check and the CREATE
            metadata.create_all(engine)
        with engine.begin() as conn:
            found = conn.execute(select(schema_version.c.version)).scalars().all()
            if not found:
                conn.execute(insert_for(engine, schema_version).values(version=SCHEMA_VERSION)
                             .on_conflict_do_nothing(index_elements=["version"]))
            elif max(found) != SCHEMA_VERSION:
                raise DataError(_safe(url), f"ledger schema version {max(found)}; this advisor knows {SCHEMA_VERSION}")
    except OperationalError as exc:
        raise InputError("ADVISOR_DATABASE_URL", _safe(url), f"a reachable database ({exc.orig})") from None
    return Ledger(engine=engine, url=url)


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
