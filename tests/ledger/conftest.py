from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from advisor.ledger import Ledger, open_ledger

SAMPLE = Path(__file__).resolve().parents[1] / "fixtures" / "usage" / "focus_1.0_sample.csv"
HEADER = ["Id", "BilledCost", "EffectiveCost", "BillingCurrency", "ChargePeriodStart", "ChargePeriodEnd",
          "ChargeCategory", "ServiceName", "Tags"]


@pytest.fixture
def ledger(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Ledger:
    """A fresh SQLite ledger under tmp_path; the user's data folder is never touched."""
    url = f"sqlite:///{tmp_path / 'ledger.db'}"
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
