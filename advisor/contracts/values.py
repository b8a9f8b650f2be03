"""The numbers a detector hit carries: renewal length, notice days, caps, prices, ...

Each extractor reads the sentence a detector matched and returns normalized values (days,
months, seconds, percent, money), so that the rules compare plain numbers. A duration is a
*notice* when the words around it say so ("30 days' prior written notice", "到期前三十日",
"提前7日通知"); otherwise it is a *term* ("successive one-year terms", "续约12个月").
"""

from __future__ import annotations

import re
from collections.abc import Callable

from advisor.contracts.numbers import Duration, find_durations, find_money, find_percents, to_number
from advisor.contracts.vocabulary import _raw

Values = dict[str, float | str | bool]
W = {k: re.compile(v, re.IGNORECASE) for k, v in _raw()["values"].items()}  # each extractor's words (patterns.yaml `values`)


def is_notice(text: str, d: Duration) -> bool:
    """Is this duration a notice period rather than a length of term?"""
    before = text[max(0, d.start - 24) : d.start]
    after = text[d.end : d.end + 48]
    if W["notice_before_zh"].search(before) or W["before_expiry"].search(before):
        return True
    return bool(W["notice_after"].search(after)) or bool(W["notice_before"].search(before))


def _notice_days(text: str) -> float | None:
    durations = find_durations(text)
    for d in durations:
        if is_notice(text, d) and d.days >= 1 / 24:
            return round(d.days, 2)
    return None


def renewal(text: str, start: int) -> Values:
    out: Values = {}
    if W["same_term"].search(text):
        out["renewal_same_as_term"] = True
    if W["monthly"].search(text):
        out["renewal_term_months"] = 1.0
    elif W["yearly"].search(text):
        out["renewal_term_months"] = 12.0
    if "renewal_term_months" not in out:
        anchor = W["renewal_anchor"].search(text[start:])
        pos = start + (anchor.start() if anchor else 0)
        terms = [d for d in find_durations(text) if not is_notice(text, d) and d.days >= 7]
        after = [d for d in terms if d.start >= pos - 40]
        pick = (after or terms)[:1]
        if pick:
            out["renewal_term_months"] = pick[0].months
    notice = _notice_days(text)
    if notice is not None:
        out["renewal_notice_days"] = notice
    return out


def notice(text: str, start: int) -> Values:
    """A notice period; in a renewal-notice sentence the only duration is the notice."""
    days = _notice_days(text)
    if days is None:
        durations = [d for d in find_durations(text) if d.days >= 1]
        if durations:
            days = round(durations[0].days, 2)
    return {"notice_days": days} if days is not None else {}


def strict_notice(text: str, start: int) -> Values:
    """A notice period only where the words say it is one ("提前7日通知", "upon 30 days' notice")."""
    days = _notice_days(text)
    return {"notice_days": days} if days is not None else {}


def first_months(text: str, start: int) -> Values:
    if W["during_term"].search(text):
        return {"during_term": True}
    terms = [d for d in find_durations(text) if not is_notice(text, d) and d.days >= 28]
    return {"months": terms[0].months} if terms else {}


def commitment(text: str, start: int) -> Values:
    """The committed amount: the first sum that is not a unit rate ("USD 2 per GPU-hour",
    "每卡时2美元"); else a floor in GPU-hours at the sentence's hourly rate, priced."""
    out: Values = {}
    money = find_money(text)
    rates = [a for a in money if _is_rate(text, a.start, a.end)]
    sums = [a for a in money if a not in rates]
    hours = W["gpu_hours"].search(text)
    if sums:
        out["amount"], out["currency"] = sums[0].money.amount, sums[0].money.currency
    elif rates and hours and (count := to_number(hours.group(1))):
        out["amount"], out["currency"] = count * rates[0].money.amount, rates[0].money.currency
    if W["take_or_pay"].search(text):
        out["take_or_pay"] = True
    period = W["period"].search(text)
    if period:
        out["period_months"] = _PERIOD_MONTHS[next(k for k, v in period.groupdict().items() if v)]
    return out


_PERIOD_MONTHS = {"month": 1.0, "quarter": 3.0, "year": 12.0}


def _is_rate(text: str, start: int, end: int, *, per_gb: bool = False) -> bool:
    """Is the amount at ``text[start:end]`` a unit rate (per hour, per GPU-hour; with ``per_gb`` per GB or Mbps too)?"""
    before = text[max(0, start - 8) : start]
    return bool(W["rate_after"].match(text, end) or W["rate_before"].search(before)
                or per_gb and (W["per_gb"].match(text, end) or W["per_gb"].search(before)))


def extra_fee(text: str, start: int) -> Values:
    """An extra fee's amount, per month when it recurs ("USD 300 per month", "每年") else once,
    per server or flat ("per node", "每台"); a share of the usage charges as ``extra_pct``. A rate
    per hour or per GB is left unpriced: how much of it is used is not known."""
    money = [a for a in find_money(text) if not _is_rate(text, a.start, a.end, per_gb=True)]
    if not money:
        pcts = [p.value for p in find_percents(text) if p.value < 100]
        return {"extra_pct": pcts[0]} if pcts else {}
    amount = min(money, key=lambda a: abs(a.start - start)).money.amount
    period = W["period"].search(text)
    key = "extra_monthly" if period else "extra_once"
    if period:
        amount /= _PERIOD_MONTHS[next(k for k, v in period.groupdict().items() if v)]
    return {key + ("_unit" if W["per_server"].search(text) else ""): amount}


def units(text: str, start: int) -> Values:
    m = W["count_word"].match(text[start:])
    n = to_number(m.group(0)) if m else None
    return {"count": n} if n else {}


def billing_after_stop(text: str, start: int) -> Values:
    """How many days billing runs on after a stop ("计费7天") and the share of the price a
    stopped instance pays ("a reservation fee of 30% of the unit price"), when the sentence says."""
    durations = [d for d in find_durations(text) if 1 <= d.days <= 366 and not is_notice(text, d)]
    shares = [p.value for p in find_percents(text) if p.value < 100]
    return {**({"days": round(durations[0].days, 2)} if durations else {}), **({"share_pct": shares[0]} if shares else {})}


def retention(text: str, start: int) -> Values:
    """The days data is kept: hours count as part of a day, a zero window ("zero days", "0天") as 0."""
    zero = W["zero_window"].search(text)
    durations = [d.days for d in find_durations(text) if d.days > 0] or [0.0] * bool(zero)
    return {"days": round(durations[0], 2)} if durations else {}


def egress(text: str, start: int) -> Values:
    """The price per GB of data moved out: an amount per GB or TB ("USD 0.09 per GB", "0.8元/GB", "每GB人民币0.80元")."""
    for a in find_money(text):
        unit = W["per_gb_after"].match(text[a.end : a.end + 16]) or W["per_gb_before"].search(text[max(0, a.start - 12) : a.start])
        if unit:
            return {"price_per_gb": a.money.amount / (1000 if unit.group(1).lower() == "tb" else 1), "currency": a.money.currency}
    return {}


def availability(text: str, start: int) -> Values:
    values = [p.value for p in find_percents(text) if 90 <= p.value < 100 or p.value == 100]
    return {"pct": max(values)} if values else {}


def credit(text: str, start: int) -> Values:
    out: Values = {}
    pcts = [p for p in find_percents(text)]
    lost_time = W["lost_time"].search(text)
    if lost_time and pcts:
        out["compensation_pct_of_lost_time"] = max(p.value for p in pcts)
    elif pcts:
        out["max_credit_pct"] = max(p.value for p in pcts)
    if W["double"].search(text) and lost_time:
        out["compensation_pct_of_lost_time"] = max(float(out.get("compensation_pct_of_lost_time", 0) or 0), 200.0)
    if W["cash"].search(text) and not W["not_cash"].search(text):
        out["form"] = "cash"
    elif W["credit_form"].search(text):
        out["form"] = "credit"
    return out


def cap_pct(text: str, start: int) -> Values:
    pcts = [p.value for p in find_percents(text) if p.value <= 1000]
    return {"pct": max(pcts)} if pcts else {}


def claim_window(text: str, start: int) -> Values:
    durations = [d for d in find_durations(text) if d.days >= 1 / 24]
    return {"days": round(durations[0].days, 2)} if durations else {}


def price_notice(text: str, start: int) -> Values:
    """A price change's notice period; one made without notice ("恕不另行通知") has none."""
    return strict_notice(text, start) or ({"notice_days": 0.0} if W["no_notice"].search(text) else {})


def spot_notice(text: str, start: int) -> Values:
    if W["no_notice"].search(text) or W["any_time"].search(text):
        return {"seconds": 0.0}
    durations = [d for d in find_durations(text) if d.days <= 1]
    return {"seconds": min(d.seconds for d in durations)} if durations else {}


def early_termination(text: str, start: int) -> Values:
    out: Values = {}
    pcts = find_percents(text)
    if pcts:
        out["fee_pct"] = pcts[0].value
    if W["pay_remaining"].search(text):
        out["pay_remaining"] = True
    return out


def liability(text: str, start: int) -> Values:
    out: Values = {}
    m = W["liability_months"].search(text)
    if m:
        if m.group("one"):
            out["cap_months_of_fees"] = 1.0
        else:
            raw = m.group("n") or m.group("n2") or m.group("cn") or ""
            d = find_durations(f"{raw} months" if (m.group("n") or m.group("n2")) else f"{raw}个月")
            if d:
                out["cap_months_of_fees"] = d[0].months
    if W["cap_fees_paid"].search(text):
        out["cap_basis"] = "fees_paid"
    money = find_money(text)
    if money:
        out["cap_amount"] = money[0].money.amount
        out["currency"] = money[0].money.currency
    if W["excludes_consequential"].search(text):
        out["excludes_consequential"] = True
    if W["excludes_data_loss"].search(text):
        out["excludes_data_loss"] = True
    return out


def discount(text: str, start: int) -> Values:
    pcts = [p.value for p in find_percents(text) if p.value < 100]
    zh_zhe = W["zhe_discount"].search(text)
    if zh_zhe:
        raw = zh_zhe.group(1)
        num = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}.get(raw)
        value = float(num if num is not None else raw)
        pcts.append(round(100 - value * 10, 1))
    return {"pct": max(pcts)} if pcts else {}


_UNIT_HOURS = {"second": 1 / 3600, "minute": 1 / 60, "hour": 1.0, "day": 24.0, "month": 730.0,
               "秒": 1 / 3600, "分钟": 1 / 60, "小时": 1.0, "天": 24.0, "日": 24.0, "月": 730.0}  # fmt: skip


def granularity(text: str, start: int) -> Values:
    out: Values = {}
    m = W["billing_unit"].search(text[start:])
    if m:
        unit = (m.group(1) or m.group(2)).lower()
        out["unit_hours"] = _UNIT_HOURS[unit]
    rounding = W["rounding_unit"].search(text)
    if rounding:
        unit = next(g for g in rounding.groups() if g).lower()
        out["rounding_hours"] = _UNIT_HOURS[unit]
    for a in find_money(text):
        if W["hourly_after"].match(text[a.end : a.end + 14]):
            out["hourly_price"] = a.money.amount
            break
    minimum = W["minimum_word"].search(text)
    if minimum:
        durations = [d for d in find_durations(text[minimum.start() :]) if d.days > 0]
        if durations:
            out["minimum_hours"] = round(durations[0].days * 24, 3)
    return out


def term_months(text: str, start: int) -> Values:
    durations = [d for d in find_durations(text[start:]) if d.days >= 28 and not is_notice(text[start:], d)]
    return {"months": durations[0].months} if durations else {}


def monthly_fee(text: str, start: int) -> Values:
    money = find_money(text)
    if not money:
        return {}
    # the amount closest to the "monthly" cue
    best = min(money, key=lambda a: abs(a.start - start))
    if W["not_monthly_rate"].match(text[best.end : best.end + 12]):
        return {}
    return {"amount": best.money.amount, "currency": best.money.currency}


EXTRACTORS: dict[str, Callable[[str, int], Values]] = {
    "renewal": renewal,
    "renewal_notice": notice,
    "price_change": price_notice,
    "price_lock": first_months,
    "minimum_commitment": commitment,
    "storage_retention": retention,
    "billing_after_release": billing_after_stop,
    "data_egress": egress,
    "sla_level": availability,
    "sla_credit": credit,
    "sla_credit_cap": cap_pct,
    "sla_claim_window": claim_window,
    "spot_reclaim": spot_notice,
    "early_termination": early_termination,
    "termination_for_convenience": strict_notice,
    "liability_cap": liability,
    "tiered_discount": discount,
    "billing_granularity": granularity,
    "term": term_months,
    "monthly_fee": monthly_fee,
    "hidden_fees": extra_fee,
    "servers": units,
}
