"""Running rule packs for the tools: which packs each report consults."""

from __future__ import annotations

from typing import Any

from advisor.findings import Finding
from advisor.rules import evaluate_packs

ESTIMATE_PACKS: tuple[str, ...] = ("sizing", "billing", "fleet", "risk", "budget")
PLAN_PACKS: tuple[str, ...] = ("budget",)
BILLING_PACKS: tuple[str, ...] = ("billing", "risk")


def evaluate(packs: tuple[str, ...], facts: dict[str, Any], *, lang: str = "en") -> list[Finding]:
    """Evaluate ``facts`` against the named packs that read their domain."""
    return evaluate_packs(list(packs), facts, lang=lang)
