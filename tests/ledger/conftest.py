from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from advisor.ledger import Ledger, open_ledger
from tests.ledger import postgres

SAMPLE = Path(__file__).resolve().parents[1] / "fixtures" / "usage" / "focus_1.0_sample.csv"
HEADER = ["Id", "BilledCost", "EffectiveCost", "BillingCurrency", "ChargePeriodStart", "ChargePeriodEnd",
          "ChargeCategory", "ServiceName", "Tags"]


BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(scope="session")
def pg_server() -> Iterator[postgres.Server]:
    """One throwaway PostgreSQL server for the session (each test gets its own database)."""
    reason = postgres.unavailable_reason()
    if reason:
        if os.environ.get("ADVISOR_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"ADVISOR_REQUIRE_POSTGRES=1 but {reason}")
        pytest.skip(reason)
    server = postgres.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database on each backend: a SQLite file under tmp_path, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ledger.db'}"
    server: postgres.Server = request.getfixturevalue("pg_server")
    return server.new_database()


@pytest.fixture
def ledger(database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Ledger]:
    """A fresh ledger on each backend (``ADVISOR_DATABASE_URL`` points at it); the user's data
    folder is never touched."""
    url = database_url
    monkeypatch.setenv("ADVISOR_DATABASE_URL", url)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    led = open_ledger()
    yield led
    led.engine.dispose()


def write_focus(path: Path, rows: list[dict[str, object]]) -> Path:
    """A minimal FOCUS 1.0 CSV: ``rows`` give Id, cost, currency, start (ISO) and tags (dict or None)."""
    with path.open("w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(HEADER)
        for r in rows:
            tags = json.dumps(r["tags"]) if r.get("tags") else ""
            start = str(r["start"])
            out.writerow([r.get("id", ""), r["cost"], r["cost"], r.get("currency", "USD"), start,
                          start.replace("T00", "T01"), "Usage", "Compute", tags])
    return path
