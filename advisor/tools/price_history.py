"""Price history of a card (``advisor prices --history GPU``; REQUIREMENTS D4): dated monthly
medians from the catalog and the user's sheet, the moves between them, and alerts when a move
exceeds ``price.alert_threshold`` (rule ``prices.price_moved``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from advisor.catalog import get_catalog
from advisor.engine import price_history as ph
from advisor.engine.decisions_data import decision_params
from advisor.findings import Assumption, Finding
from advisor.money import normalize_currency
from advisor.rules import evaluate_packs
from advisor.tools.facts import clean_facts


class PriceHistoryReport(BaseModel):
    inputs: dict[str, Any]
    gpu: str
    currency: str
    points: list[ph.Point]
    moves: list[dict[str, Any]]
    alert_threshold: float
    alerts: list[dict[str, Any]] = Field(description="Moves larger than the threshold.")
    assumptions: list[Assumption]
    findings: list[Finding] = Field(default_factory=list)


def price_history(gpu: str, currency: str | None = None, *, prices_file: str | None = None,
                  lang: Literal["en", "zh"] = "en") -> PriceHistoryReport:
    catalog = get_catalog(user_prices=prices_file)
    p = decision_params(catalog)
    card = catalog.gpu(gpu)
    cur = normalize_currency(currency) if currency else None
    if cur is None:  # the currency with the most dated rows of the card
        counts = {c: sum(1 for o in catalog.offers(gpu=card.id) if o.currency == c and o.as_of_date) for c in ("USD", "CNY")}
        cur = max(counts, key=lambda c: counts[c])  # type: ignore[arg-type, index]
    points = ph.history(catalog.offers(gpu=card.id), card.id, cur)  # type: ignore[arg-type]
    moves = ph.moves(points)
    threshold = float(p("price.alert_threshold"))
    alerts = [m for m in moves if abs(m["change"]) > threshold]
    biggest = max(moves, key=lambda m: abs(m["change"])) if moves else None
    facts = {"gpu": card.id, "currency": cur, "price_observations": len(points),
             "price_move": biggest["change"] if biggest else None,
             "price_move_over_threshold": bool(alerts) if moves else None, "alert_threshold": threshold,
             "price_move_from": biggest["from"] if biggest else None, "price_move_to": biggest["to"] if biggest else None}
    report = PriceHistoryReport(
        inputs={"gpu": card.id, "currency": cur, "lang": lang}, gpu=card.id, currency=cur,
        points=points, moves=moves, alert_threshold=threshold, alerts=alerts,
        assumptions=p.assumptions(),
    )
    report.findings = evaluate_packs(("prices",), clean_facts(facts), lang=lang)
    return report
