"""Detector hits -> the flat fact dict the `contract` rule pack reads, with evidence per fact.

Facts are plain str/float/int/bool values (declared in rules/facts/contract.yaml); a fact
that the contract does not state is left out, so rules can test `exists`/`not_exists`.
``_evidence`` maps each fact to the quoted sentence and its location, which the rules host
copies into the findings that use the fact. Where several sentences state the same fact, the
first trap wins over a later protection: a protection elsewhere does not cancel a trap.
Which hits make which fact is a table, facts.yaml; this module reads the rows that need more
than a table (the fee given by the caller, kept data, denied protections, derived facts).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from advisor.contracts.detectors import Hit
from advisor.contracts.money import defaults, money_at_risk
from advisor.datafile import list_section, read_yaml

Facts = dict[str, Any]
FACTS_PATH = Path(__file__).with_name("facts.yaml")

_DELETION_RE = re.compile(r"delet|eras|destroy|purg|wip|remov|lost|irrecoverab|unrecoverab|cannot\s+be\s+(?:recovered|restored)|删除|清除|清空|销毁|丢失|无法恢复|不可恢复|找回|不予保留|释放", re.IGNORECASE)


class _Builder:
    def __init__(self) -> None:
        self.facts: Facts = {}
        self.evidence: dict[str, dict[str, Any]] = {}

    def set(self, name: str, value: Any, hit: Hit | None, *, overwrite: bool = False) -> None:
        if value is None or (name in self.facts and not overwrite):
            return
        self.facts[name] = float(value) if isinstance(value, int | float) and not isinstance(value, bool) else value
        if hit is not None:
            self.evidence[name] = hit.evidence()


def build_facts(hits: Iterable[Hit], *, monthly_fee: float | None = None, currency: str | None = None) -> Facts:
    """The fact dict for the rules, ``_evidence`` included."""
    by: dict[str, list[Hit]] = {}
    denied: dict[str, list[Hit]] = {}
    for h in hits:
        (denied if h.kind == "denied" else by).setdefault(h.detector, []).append(h)
    b = _Builder()
    _denied(b, by, denied)
    _contract_terms(b, by, monthly_fee, currency)
    _from_table(b, by)
    _storage(b, by)
    _derived(b)
    amounts, assumptions = money_at_risk(b.facts)
    for name, amount in amounts.items():
        b.set(name, amount, None, overwrite=True)
    facts = dict(sorted(b.facts.items()))
    facts["_evidence"] = b.evidence
    facts["_assumptions"] = assumptions
    return facts


# A protection the contract names only to deny it ("没有锁价", "no price lock", "不予退还"):
# the fact the missing-protection rule reads when the topic alone would not make it matter.
DENIED_FACTS = {
    "price_lock": "price_lock_denied",
    "early_termination": "unused_refund_denied",
    "sla_credit": "outage_compensation_denied",
    "billing_after_release": "stop_billing_denied",
    "spot_reclaim": "spot_notice_denied",
    "failure_recompute": "recompute_terms_denied",
    "usage_alerts": "usage_alerts_denied",
    "renewal_reminder": "renewal_reminder_denied",
    "storage_retention": "data_retention_denied",
    "hidden_fees": "inclusive_fees_denied",
    "tiered_discount": "tiered_discount_denied",
}


def _denied(b: _Builder, by: dict[str, list[Hit]], denied: dict[str, list[Hit]]) -> None:
    for detector, hits in denied.items():
        fact = DENIED_FACTS.get(detector)
        if fact and not _kind(by, detector, "protect"):
            b.set(fact, True, hits[0])


def _kind(by: dict[str, list[Hit]], detector: str, *kinds: str) -> list[Hit]:
    return [h for h in by.get(detector, []) if h.kind in kinds]


def _value(hits: list[Hit], key: str) -> tuple[Any, Hit | None]:
    for h in hits:
        if key in h.values:
            return h.values[key], h
    return None, None


def _contract_terms(b: _Builder, by: dict[str, list[Hit]], monthly_fee: float | None, currency: str | None) -> None:
    if monthly_fee is not None:
        b.set("monthly_fee", float(monthly_fee), None)
    else:
        value, hit = _value(by.get("monthly_fee", []), "amount")
        if value is not None and hit is not None:
            b.set("monthly_fee", value, hit)
            if currency is None:
                currency = str(hit.values.get("currency"))
    if currency:
        b.set("currency", currency, None)


@lru_cache(maxsize=1)
def _rows() -> list[dict[str, Any]]:
    return list_section(FACTS_PATH, read_yaml(FACTS_PATH), "facts")


def _counting(by: dict[str, list[Hit]], row: dict[str, Any]) -> list[Hit]:
    """The hits one row of facts.yaml reads, in the order it reads them."""
    hits = by.get(row["detector"], [])
    if "kinds" in row:
        hits = [h for h in hits if h.kind in row["kinds"]]
    if "prefer" in row:
        hits = [h for h in hits if h.kind == row["prefer"]] + [h for h in hits if h.kind != row["prefer"]]
    if "party_not" in row:
        hits = [h for h in hits if h.party not in row["party_not"]]
    if "party_in" in row:
        hits = [h for h in hits if h.party in row["party_in"]]
    for key, wanted in (row.get("where") or {}).items():
        hits = [h for h in hits if h.values.get(key) == wanted]
    return hits


def _from_table(b: _Builder, by: dict[str, list[Hit]]) -> None:
    """The facts one row of facts.yaml each describes (see its header)."""
    for row in _rows():
        fact, hits = row["fact"], _counting(by, row)
        if "value" in row:
            value, hit = _value(hits, row["value"])
            if row.get("if_true"):
                value = True if value else None
            b.set(fact, value, hit)
        elif not hits:
            continue
        elif row.get("count"):
            b.set(fact, len(hits), hits[0])
        elif "min" in row or "sum" in row:
            key = row.get("min") or row["sum"]
            values = [h.values[key] for h in hits if key in h.values]
            b.set(fact, (min if "min" in row else sum)(values) if values else None, hits[0])
        else:
            b.set(fact, row.get("set", True), hits[0])


def _storage(b: _Builder, by: dict[str, list[Hit]]) -> None:
    """Kept data: deletion wording makes a trap a deletion, a too-short retention no protection."""
    for h in _kind(by, "storage_retention", "trap"):
        if _DELETION_RE.search(h.match):
            b.set("data_deleted_after_expiry", True, h)
            if "days" in h.values:
                b.set("data_retention_days", h.values["days"], h)
        else:
            b.set("storage_billed_after_stop", True, h)
    shortest = float(defaults().value("contract.data_retention_min_days"))
    for h in _kind(by, "storage_retention", "protect"):
        days = h.values.get("days")
        if isinstance(days, float) and days < shortest:
            b.set("data_retention_days", days, h)
            b.set("data_deleted_after_expiry", True, h)
            continue  # "kept 3 days, then deleted", "保留期为0天": too short to be a protection, the data is gone after it
        b.set("data_retention_protected", True, h)
        if days is not None:
            b.set("data_retention_days", days, h)


def _derived(b: _Builder) -> None:
    """A renewal "for the same term" is as long as the initial term (money.py prices it).
    Data the contract says is not kept after the end ("不保留甲方数据") is deleted then."""
    f = b.facts
    if f.get("data_retention_denied") and not f.get("data_retention_protected") and "data_deleted_after_expiry" not in f:
        f["data_deleted_after_expiry"] = True
        b.evidence["data_deleted_after_expiry"] = b.evidence.get("data_retention_denied", {})
    if f.get("renewal_term_months") is None and f.get("renewal_same_as_term") and f.get("term_months"):
        b.set("renewal_term_months", f["term_months"], None)
