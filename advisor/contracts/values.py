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

Values = dict[str, float | str | bool]

_NOTICE_AFTER_RE = re.compile(
    r"^\W{0,4}\s*(?:\w+\s+){0,3}?(?:prior|before|in\s+advance|advance|notice|notif\w*|written)"
    r"|^\s*(?:前|内|以前|之前)?[^。；，]{0,6}(?:书面)?(?:通知|告知|提出|申请)"
    r"|^\s*(?:后|以后|之后)\s*(?:方|才)?(?:生效|起?生效|执行)",  # "通知之日起3日后生效": the notice period
    re.IGNORECASE,
)
_NOTICE_BEFORE_RE = re.compile(
    r"(?:提前|前|至少提前|不少于|notice\s+of|within|least|than|upon|on|with|giving|provides?|gives?|by)\s*$",
    re.IGNORECASE,
)
_SAME_TERM_RE = re.compile(r"same\s+(?:term|period|duration)|like\s+(?:term|period)|equal\s+(?:term|period)|同等期限|相同期限|原期限|同样期限|原合同期限", re.IGNORECASE)
_YEARLY_RE = re.compile(r"year\s+to\s+year|year-to-year|annual(?:ly)?\s+(?:renew|basis|term)|renew\w*\s+annually|逐年|每年续|按年续", re.IGNORECASE)
_MONTHLY_RE = re.compile(r"month\s+to\s+month|month-to-month|逐月|按月续", re.IGNORECASE)


def is_notice(text: str, d: Duration) -> bool:
    """Is this duration a notice period rather than a length of term?"""
    before = text[max(0, d.start - 24) : d.start]
    after = text[d.end : d.end + 48]
    if re.search(r"(?:提前|前)\s*$", before) or re.search(r"(?:届满|到期|期满)前[^，。；]{0,3}$", before):
        return True
    return bool(_NOTICE_AFTER_RE.search(after)) or bool(_NOTICE_BEFORE_RE.search(before))


def _notice_days(text: str) -> float | None:
    durations = find_durations(text)
    for d in durations:
        if is_notice(text, d) and d.days >= 1 / 24:
            return round(d.days, 2)
    return None


def renewal(text: str, start: int) -> Values:
    out: Values = {}
    if _SAME_TERM_RE.search(text):
        out["renewal_same_as_term"] = True
    if _MONTHLY_RE.search(text):
        out["renewal_term_months"] = 1.0
    elif _YEARLY_RE.search(text):
        out["renewal_term_months"] = 12.0
    if "renewal_term_months" not in out:
        anchor = re.search(r"renew|extend|extension|continu|续|顺延|延长|延续|展期", text[start:], re.IGNORECASE)
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
    if re.search(r"during\s+the\s+(?:initial\s+)?term|throughout\s+the\s+term|(?:合同|服务|租赁|订单)期(?:限)?内|租期内|整个(?:租期|合同期)", text, re.IGNORECASE):
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
    hours = _HOURS_RE.search(text)
    if sums:
        out["amount"], out["currency"] = sums[0].money.amount, sums[0].money.currency
    elif rates and hours and (count := to_number(hours.group(1))):
        out["amount"], out["currency"] = count * rates[0].money.amount, rates[0].money.currency
    if re.search(r"shortfall|deficien|difference|take[- ]or[- ]pay|差额|补足|补缴|按承诺", text, re.IGNORECASE):
        out["take_or_pay"] = True
    period = _PERIOD_RE.search(text)
    if period:
        out["period_months"] = _PERIOD_MONTHS[next(k for k, v in period.groupdict().items() if v)]
    return out


_PERIOD_RE = re.compile(
    r"(?P<month>(?:per|each|every)\s+(?:calendar\s+|billing\s+)?month|monthly|每月|每个月|月度|/\s*月)"
    r"|(?P<quarter>(?:per|each|every)\s+(?:calendar\s+|fiscal\s+)?quarter|quarterly|每季度?|季度)"
    r"|(?P<year>(?:per|each|every)\s+(?:contract\s+|calendar\s+|fiscal\s+)?year|per\s+annum|annual(?:ly)?|yearly|每年|年度|/\s*年)",
    re.IGNORECASE,
)
_PERIOD_MONTHS = {"month": 1.0, "quarter": 3.0, "year": 12.0}
_RATE_AFTER_RE = re.compile(r"\s*(?:/|per\s+|an?\s+|每)\s*(?:gpu[- ]?|card[- ]?|node[- ]?)?(?:hours?|hr|h\b|卡时|小时|机时|unit)", re.IGNORECASE)
_RATE_BEFORE_RE = re.compile(r"(?:每(?:张卡)?(?:卡时|小时|机时|GPU小时)|单价)[为是:：]?\s*$", re.IGNORECASE)
_PER_GB_RE = re.compile(r"\s*(?:/|per\s+|每)\s*(?:gb|tb|mbps)|每\s*(?:gb|tb)\s*$", re.IGNORECASE)


def _is_rate(text: str, start: int, end: int, *, per_gb: bool = False) -> bool:
    """Is the amount at ``text[start:end]`` a unit rate (per hour, per GPU-hour; with ``per_gb`` per GB or Mbps too)?"""
    before = text[max(0, start - 8) : start]
    return bool(_RATE_AFTER_RE.match(text, end) or _RATE_BEFORE_RE.search(before)
                or per_gb and (_PER_GB_RE.match(text, end) or _PER_GB_RE.search(before)))


_HOURS_RE = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(?:gpu[- ]?hours?|card[- ]?hours?|卡时|gpu\s*小时|小时)", re.IGNORECASE)


_PER_UNIT_RE = re.compile(r"\b(?:per|each|every|a|/)\s*(?:node|server|machine|host|instance)\b|每(?:一)?(?:台|个节点|个实例|节点|实例)", re.IGNORECASE)


def extra_fee(text: str, start: int) -> Values:
    """An extra fee's amount, per month when it recurs ("USD 300 per month", "每年") else once,
    per server or flat ("per node", "每台"); a share of the usage charges as ``extra_pct``. A rate
    per hour or per GB is left unpriced: how much of it is used is not known."""
    money = [a for a in find_money(text) if not _is_rate(text, a.start, a.end, per_gb=True)]
    if not money:
        pcts = [p.value for p in find_percents(text) if p.value < 100]
        return {"extra_pct": pcts[0]} if pcts else {}
    amount = min(money, key=lambda a: abs(a.start - start)).money.amount
    period = _PERIOD_RE.search(text)
    key = "extra_monthly" if period else "extra_once"
    if period:
        amount /= _PERIOD_MONTHS[next(k for k, v in period.groupdict().items() if v)]
    return {key + ("_unit" if _PER_UNIT_RE.search(text) else ""): amount}


def units(text: str, start: int) -> Values:
    m = re.match(r"[\d,.]+|[一二三四五六七八九十百两]+|[a-z-]+", text[start:], re.IGNORECASE)
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
    zero = re.search(r"\b(?:zero|0|nil)\s*(?:\(0\)\s*)?(?:days?|hours?)\b|(?<![\d.])(?:0|零)\s*(?:天|日|小时)", text, re.IGNORECASE)
    durations = [d.days for d in find_durations(text) if d.days > 0] or [0.0] * bool(zero)
    return {"days": round(durations[0], 2)} if durations else {}


def egress(text: str, start: int) -> Values:
    """The price per GB of data moved out: an amount per GB or TB ("USD 0.09 per GB", "0.8元/GB", "每GB人民币0.80元")."""
    for a in find_money(text):
        unit = re.match(r"\s*(?:/|per\s+|每)\s*(gb|g\b|gib|tb)", text[a.end : a.end + 16], re.I) or re.search(r"每\s*(gb|g|tb)\s*(?:人民币|rmb|美元|usd)?\s*$", text[max(0, a.start - 12) : a.start], re.I)
        if unit:
            return {"price_per_gb": a.money.amount / (1000 if unit.group(1).lower() == "tb" else 1), "currency": a.money.currency}
    return {}


def availability(text: str, start: int) -> Values:
    values = [p.value for p in find_percents(text) if 90 <= p.value < 100 or p.value == 100]
    return {"pct": max(values)} if values else {}


def credit(text: str, start: int) -> Values:
    out: Values = {}
    pcts = [p for p in find_percents(text)]
    lost_time = re.search(r"(?:中断|故障|不可用|宕机|停机)(?:时长|时间)|lost\s+time|downtime|outage\s+(?:time|duration|hours)|unavailab\w+\s+(?:time|period|hours)", text, re.IGNORECASE)
    if lost_time and pcts:
        out["compensation_pct_of_lost_time"] = max(p.value for p in pcts)
    elif pcts:
        out["max_credit_pct"] = max(p.value for p in pcts)
    if re.search(r"twice|double|two\s+times", text, re.IGNORECASE) and lost_time:
        out["compensation_pct_of_lost_time"] = max(float(out.get("compensation_pct_of_lost_time", 0) or 0), 200.0)
    if re.search(r"cash|bank\s+transfer|refund\w*\s+to|现金|退款|银行转账|原路退回", text, re.IGNORECASE) and not re.search(
        r"not\s+(?:be\s+)?(?:refund|exchang|redeem|convert)\w*\b.{0,20}cash|不可(?:兑换|折现|提现)", text, re.IGNORECASE
    ):
        out["form"] = "cash"
    elif re.search(r"credit|voucher|代金券|抵扣|优惠券|赠送|抵用|时长", text, re.IGNORECASE):
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
    return strict_notice(text, start) or ({"notice_days": 0.0} if _NO_NOTICE_RE.search(text) else {})


_NO_NOTICE_RE = re.compile(r"\bwith(?:out|\s+no)\s+(?:\w+\s+){0,2}?(?:notice|warning|notification)|无需(?:提前|事先)?(?:通知|告知)|不(?:作|予|进行|做)?(?:另行|提前|事先|经)(?:通知|告知)|毫无预警", re.IGNORECASE)


def spot_notice(text: str, start: int) -> Values:
    if _NO_NOTICE_RE.search(text) or re.search("随时|任何时[候间]", text):
        return {"seconds": 0.0}
    durations = [d for d in find_durations(text) if d.days <= 1]
    return {"seconds": min(d.seconds for d in durations)} if durations else {}


def early_termination(text: str, start: int) -> Values:
    out: Values = {}
    pcts = find_percents(text)
    if pcts:
        out["fee_pct"] = pcts[0].value
    if re.search(r"remaining|remainder|balance|rest\s+of|剩余|全部租金|全部费用", text, re.IGNORECASE):
        out["pay_remaining"] = True
    return out


_LIABILITY_MONTHS_RE = re.compile(
    r"(?:preceding|prior|previous|last|past|immediately\s+preceding)\s+(?P<n>\w+(?:\s*\(\d+\))?)[- ]?\s*(?:\(\d+\)\s*)?(?:-\s*)?(?:calendar\s+)?months?"
    r"|\b(?P<n2>\w+)\s*(?:\(\d+\)\s*)?(?:-\s*)?(?:calendar\s+)?months?\s+(?:immediately\s+)?(?:preceding|prior|before)"
    r"|(?P<cn>\d+|[一二三四五六七八九十]+)\s*个?月[^。；]{0,8}(?:内)?[^。；]{0,8}(?:已?支付|实际支付|所付|服务费|费用|租金)"
    r"|(?P<one>one\s+month.s|(?:a|one)\s+month\s+of|当月|月度服务费|单月|一个月的?)",
    re.IGNORECASE,
)


def liability(text: str, start: int) -> Values:
    out: Values = {}
    m = _LIABILITY_MONTHS_RE.search(text)
    if m:
        if m.group("one"):
            out["cap_months_of_fees"] = 1.0
        else:
            raw = m.group("n") or m.group("n2") or m.group("cn") or ""
            d = find_durations(f"{raw} months" if (m.group("n") or m.group("n2")) else f"{raw}个月")
            if d:
                out["cap_months_of_fees"] = d[0].months
    if re.search(r"(?:fees?|amounts?|charges?)\s+(?:actually\s+)?(?:paid|payable|received)|已(?:实际)?支付的?(?:全部)?(?:费用|服务费|租金)|实际支付", text, re.IGNORECASE):
        out["cap_basis"] = "fees_paid"
    money = find_money(text)
    if money:
        out["cap_amount"] = money[0].money.amount
        out["currency"] = money[0].money.currency
    if re.search(r"indirect|consequential|incidental|lost\s+profits?|间接|可得利益|预期利益|利润", text, re.IGNORECASE):
        out["excludes_consequential"] = True
    if re.search(r"loss\s+of\s+data|lost\s+data|data\s+loss|数据(?:丢失|损失)", text, re.IGNORECASE):
        out["excludes_data_loss"] = True
    return out


def discount(text: str, start: int) -> Values:
    pcts = [p.value for p in find_percents(text) if p.value < 100]
    zh_zhe = re.search(r"([一二三四五六七八九]|\d(?:\.\d)?)\s*折", text)
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
    m = re.search(r"(?:per[- ]|by\s+the\s+|in\s+|on\s+an?\s+)?(second|minute|hour|day)(?:ly)?\b|按\s*(?:自然)?(秒|分钟|小时|天|日)", text[start:], re.IGNORECASE)
    if m:
        unit = (m.group(1) or m.group(2)).lower()
        out["unit_hours"] = _UNIT_HOURS[unit]
    rounding = re.search(r"rounded\s+up\s+to\s+the\s+(?:next|nearest)\s+(?:full\s+|whole\s+)?(hour|day|month)|(?:billed|charged|counts?|counted|treated)\s+as\s+(?:an?\s+|one\s+)?(?:full\s+|whole\s+)?(hour|day|month)"
                         r"|(?:any|each|every|a|per)\s+(?:started|commenced|begun)\s+(hour|day|month)|(?:any|each|every|a)\s+(?:calendar\s+)?(hour|day|month)\s+(?:in|during)\s+which\b.{0,60}?\b(?:charged|billed)\s+(?:in\s+full|as\s+a\s+(?:full|whole))|(hour|day|month)\s+or\s+(?:any\s+)?(?:part|fraction|portion)\s+(?:of|thereof)"
                         r"|按\s*(?:1|一|整)\s*(?:整)?个?(小时|天|日|月)(?:计|收|算)|每开始(?:一|1)\s*个?(小时|天|日)"
                         r"|(?:向上取整|进位)[^。；]{0,4}(?:至|到|为)?\s*(?:整|一|1)\s*个?(小时|天|日|月)", text, re.IGNORECASE)
    if rounding:
        unit = next(g for g in rounding.groups() if g).lower()
        out["rounding_hours"] = _UNIT_HOURS[unit]
    for a in find_money(text):
        if re.match(r"\s*(?:/|per\s+|每|an?\s+)\s*(?:gpu[- ]?)?(?:hour|hr|h\b|小时|卡时)", text[a.end : a.end + 14], re.IGNORECASE):
            out["hourly_price"] = a.money.amount
            break
    minimum = re.search(r"minimum|最低|起步|最少", text, re.IGNORECASE)
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
    if re.match(r"\s*(?:/|per\s+|每)\s*(?:gb|tb|g\b|hour|小时|卡时|gpu)", text[best.end : best.end + 12], re.IGNORECASE):
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
