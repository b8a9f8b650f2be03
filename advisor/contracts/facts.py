"""Detector hits -> the flat fact dict the `contract` rule pack reads, with evidence per fact.

Facts are plain str/float/int/bool values (declared in rules/facts/contract.yaml); a fact
that the contract does not state is left out, so rules can test `exists`/`not_exists`.
``_evidence`` maps each fact to the quoted sentence and its location, which the rules host
copies into the findings that use the fact. Where several sentences state the same fact, the
first trap wins over a later protection: a protection elsewhere does not cancel a trap.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from advisor.contracts.detectors import Hit
from advisor.contracts.money import defaults, money_at_risk

Facts = dict[str, Any]

_DELETION_RE = re.compile(r"delet|eras|destroy|purg|lost|cannot\s+be\s+recovered|删除|清除|销毁|丢失|无法恢复|不予保留|释放", re.IGNORECASE)


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
    _renewal(b, by)
    _prices(b, by)
    _commitment(b, by)
    _release_and_storage(b, by)
    _fees(b, by)
    _sla(b, by)
    _failures_and_spot(b, by)
    _termination(b, by)
    _liability_discount_granularity(b, by)
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
    months, hit = _value(by.get("term", []), "months")
    b.set("term_months", months, hit)


def _renewal(b: _Builder, by: dict[str, list[Hit]]) -> None:
    hits = by.get("renewal", [])
    traps, protects = _kind(by, "renewal", "trap"), _kind(by, "renewal", "protect")
    if hits:
        b.set("renewal_clause", True, hits[0])
    if traps:
        b.set("auto_renewal", True, traps[0])
    if protects:
        b.set("auto_renewal_opt_in", True, protects[0])
    ordered = traps + [h for h in hits if h not in traps]
    months, hit = _value(ordered, "renewal_term_months")
    b.set("renewal_term_months", months, hit)
    same, hit = _value(ordered, "renewal_same_as_term")
    if same:
        b.set("renewal_same_as_term", True, hit)
    notices = _kind(by, "renewal_notice", "trap")
    if notices:
        b.set("renewal_notice_clause", True, notices[0])
    days, hit = _value(notices, "notice_days")
    if days is None:
        days, hit = _value(traps, "renewal_notice_days")
    b.set("renewal_notice_days", days, hit)
    reminders = _kind(by, "renewal_reminder", "protect")
    if reminders:
        b.set("renewal_reminder", True, reminders[0])


def _prices(b: _Builder, by: dict[str, list[Hit]]) -> None:
    traps = [h for h in _kind(by, "price_change", "trap") if h.party != "customer"]
    if traps:
        b.set("provider_may_change_prices", True, traps[0])
        days, hit = _value(traps, "notice_days")
        b.set("price_change_notice_days", days, hit)
    protects = _kind(by, "price_change", "protect")
    if protects:
        b.set("price_change_needs_consent", True, protects[0])
    locks = _kind(by, "price_lock", "protect")
    if locks:
        b.set("price_lock", True, locks[0])
        months, hit = _value(locks, "months")
        b.set("price_lock_months", months, hit)
        during, hit = _value(locks, "during_term")
        if during:
            b.set("price_lock_for_term", True, hit)
    not_locked = _kind(by, "price_lock", "trap")
    if not_locked:
        b.set("price_not_guaranteed", True, not_locked[0])


def _commitment(b: _Builder, by: dict[str, list[Hit]]) -> None:
    traps = _kind(by, "minimum_commitment", "trap")
    if traps:
        b.set("minimum_commitment", True, traps[0])
        amount, hit = _value(traps, "amount")
        b.set("minimum_commitment_amount", amount, hit)
        period, hit = _value(traps, "period_months")
        b.set("minimum_commitment_period_months", period, hit)
        top, hit = _value(traps, "take_or_pay")
        if top:
            b.set("take_or_pay", True, hit)
    floors = _kind(by, "minimum_commitment", "present")
    if floors:
        b.set("quantity_floor", True, floors[0])


def _release_and_storage(b: _Builder, by: dict[str, list[Hit]]) -> None:
    traps = _kind(by, "billing_after_release", "trap")
    if traps:
        b.set("billing_after_stop", True, traps[0])
        days, hit = _value(traps, "days")
        b.set("billing_after_stop_days", days, hit)
    protects = _kind(by, "billing_after_release", "protect")
    if protects:
        b.set("stop_billing_on_release", True, protects[0])
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
            continue  # "kept 3 days, then deleted": too short to be a protection
        b.set("data_retention_protected", True, h)
        if days is not None:
            b.set("data_retention_days", days, h)


def _fees(b: _Builder, by: dict[str, list[Hit]]) -> None:
    egress = _kind(by, "data_egress", "trap")
    if egress:
        b.set("egress_charged", True, egress[0])
        price, hit = _value(egress, "price_per_gb")
        b.set("egress_price_per_gb", price, hit)
    free = _kind(by, "data_egress", "protect")
    if free:
        b.set("egress_free", True, free[0])
    extras = _kind(by, "hidden_fees", "trap")
    if extras:
        b.set("extras_not_included", True, extras[0])
        b.set("extras_count", len(extras), extras[0])
    included = _kind(by, "hidden_fees", "protect")
    if included:
        b.set("extras_included", True, included[0])


def _sla(b: _Builder, by: dict[str, list[Hit]]) -> None:
    pct, hit = _value(by.get("sla_level", []), "pct")
    b.set("sla_availability_pct", pct, hit)
    credits = by.get("sla_credit", [])
    if credits:
        b.set("sla_credit", True, credits[0])
    value, hit = _value(credits, "compensation_pct_of_lost_time")
    b.set("outage_compensation_pct", value, hit)
    value, hit = _value(credits, "max_credit_pct")
    b.set("sla_credit_max_pct", value, hit)
    traps = _kind(by, "sla_credit", "trap")
    if traps:
        b.set("sla_credit_only", True, traps[0])
        b.set("sla_credit_form", "credit", traps[0])
    form, hit = _value(_kind(by, "sla_credit", "protect", "present"), "form")
    b.set("sla_credit_form", form, hit)
    cap, hit = _value(by.get("sla_credit_cap", []), "pct")
    b.set("sla_credit_cap_pct", cap, hit)
    days, hit = _value(by.get("sla_claim_window", []), "days")
    b.set("sla_claim_window_days", days, hit)
    disclaim = _kind(by, "sla_disclaimer", "trap")
    if disclaim:
        b.set("sla_disclaimer", True, disclaim[0])


def _failures_and_spot(b: _Builder, by: dict[str, list[Hit]]) -> None:
    traps = _kind(by, "failure_recompute", "trap")
    if traps:
        b.set("recompute_customer_pays", True, traps[0])
    protects = _kind(by, "failure_recompute", "protect")
    if protects:
        b.set("recompute_provider_pays", True, protects[0])
    spot = by.get("spot_reclaim", [])
    if spot:
        b.set("spot_terms", True, spot[0])
    no_notice = [h for h in _kind(by, "spot_reclaim", "trap") if h.values.get("seconds") == 0.0]
    if no_notice:
        b.set("spot_no_notice", True, no_notice[0])
        b.set("spot_reclaim_notice_seconds", 0.0, no_notice[0])
    seconds, hit = _value(_kind(by, "spot_reclaim", "trap", "protect"), "seconds")
    b.set("spot_reclaim_notice_seconds", seconds, hit)


def _termination(b: _Builder, by: dict[str, list[Hit]]) -> None:
    early = [h for h in _kind(by, "early_termination", "trap") if h.party != "provider"]  # the provider's penalty protects
    if early:
        b.set("early_termination_penalty", True, early[0])
        remaining, hit = _value(early, "pay_remaining")
        if remaining:
            b.set("early_termination_pay_remaining", True, hit)
        fee, hit = _value(early, "fee_pct")
        b.set("early_termination_fee_pct", fee, hit)
    refund = _kind(by, "early_termination", "protect")
    if refund:
        b.set("unused_term_refund", True, refund[0])
    tfc = _kind(by, "termination_for_convenience", "trap")
    if tfc:
        b.set("termination_for_convenience", True, tfc[0])
    provider = [h for h in tfc if h.party in ("provider", "both")]
    customer = [h for h in tfc if h.party in ("customer", "both")]
    if provider:
        b.set("provider_may_terminate_for_convenience", True, provider[0])
        days = [h.values["notice_days"] for h in provider if "notice_days" in h.values]
        if days:
            b.set("provider_termination_notice_days", min(days), provider[0])
    if customer:
        b.set("customer_may_terminate_for_convenience", True, customer[0])


def _liability_discount_granularity(b: _Builder, by: dict[str, list[Hit]]) -> None:
    caps = by.get("liability_cap", [])
    if caps:
        b.set("liability_cap", True, caps[0])
    for key, fact in (
        ("cap_months_of_fees", "liability_cap_months"),
        ("cap_amount", "liability_cap_amount"),
        ("excludes_consequential", "liability_excludes_consequential"),
        ("excludes_data_loss", "liability_excludes_data_loss"),
    ):
        value, hit = _value(caps, key)
        b.set(fact, value, hit)
    tiers = _kind(by, "tiered_discount", "protect")
    if tiers:
        b.set("tiered_discount", True, tiers[0])
        pct, hit = _value(tiers, "pct")
        b.set("discount_pct", pct, hit)
    clawback = _kind(by, "tiered_discount", "trap")
    if clawback:
        b.set("discount_clawback", True, clawback[0])
    gran = by.get("billing_granularity", [])
    for key, fact in (
        ("unit_hours", "billing_unit_hours"),
        ("rounding_hours", "billing_rounding_hours"),
        ("minimum_hours", "minimum_charge_hours"),
        ("hourly_price", "hourly_price"),
    ):
        value, hit = _value(gran, key)
        b.set(fact, value, hit)
    alerts = _kind(by, "usage_alerts", "protect")
    if alerts:
        b.set("usage_alerts", True, alerts[0])
    no_duty = _kind(by, "usage_alerts", "trap")
    if no_duty:
        b.set("no_usage_alerts_duty", True, no_duty[0])


def _derived(b: _Builder) -> None:
    """A renewal "for the same term" is as long as the initial term (money.py prices it).
    Data the contract says is not kept after the end ("不保留甲方数据") is deleted then."""
    f = b.facts
    if f.get("data_retention_denied") and not f.get("data_retention_protected") and "data_deleted_after_expiry" not in f:
        f["data_deleted_after_expiry"] = True
        b.evidence["data_deleted_after_expiry"] = b.evidence.get("data_retention_denied", {})
    if f.get("renewal_term_months") is None and f.get("renewal_same_as_term") and f.get("term_months"):
        b.set("renewal_term_months", f["term_months"], None)
