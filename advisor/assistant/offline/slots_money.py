"""Money slots: prices per GPU-hour ("每卡每小时8元", "$2/GPU-hour", "8块钱一小时"), budgets
("预算50万", "budget of $20k", "50万够吗"), approval thresholds, monthly fees, currency.

A price per card-day/-month/-year is turned into a per-GPU-hour figure with the hours of
:mod:`advisor.units` (and noted); a price for a whole machine ("整机每小时100元") is divided
by the GPU count once that is known (:func:`finish_prices`).
"""

from __future__ import annotations

import re

from advisor.assistant.offline.lexicon import CURRENCY, lexicon
from advisor.assistant.offline.slots_hw import GPUS_PER_NODE
from advisor.assistant.offline.text import Scan
from advisor.money import normalize_currency
from advisor.numeric import NUMBER_TEXT_NO_WORDS, read_number
from advisor.units import HOURS_PER_DAY, HOURS_PER_MONTH, HOURS_PER_YEAR

CURRENCY_BY_LANGUAGE: dict[str, str] = dict(CURRENCY["by_language"])
"""Currency of an amount written without one ("预算50万", "budget 20k"): the currency the
asker's language prices in (REQUIREMENTS F: Chinese users price in CNY, English in USD)."""

_PRE = CURRENCY["prefix"]
_POST = CURRENCY["suffix"]
_MONEY = rf"{_PRE}?\s*(?P<n>{NUMBER_TEXT_NO_WORDS})\s*{_POST}?"
_CURRENCY_WORDS: dict[str, str] = dict(CURRENCY["words"])

_PERIOD_HOURS = {"hour": 1.0, "day": HOURS_PER_DAY, "month": HOURS_PER_MONTH, "year": HOURS_PER_YEAR}
_UNIT = (
    r"(?:(?P<hour>小时|钟头|卡时|(?<=[/每])时(?![间段候])|(?:hours?|hrs?|h|gpu[\s-]*h(?:ou)?rs?|card[\s-]*h(?:ou)?rs?)(?![a-z]))"
    r"|(?P<day>天|日|days?(?![a-z]))|(?P<month>月|(?:months?|mo)(?![a-z]))|(?P<year>年|(?:years?|yr)(?![a-z])))"
)
_PRICE_AFTER = re.compile(  # 每卡每小时8元 / 每小时8块 / 整机每小时100元
    rf"(?P<scope>整机|每台|一台)?\s*(?:(?:每|单|一)\s*(?P<card>(?:张|块)?\s*(?:卡|gpu)|张|块)\s*)?每\s*(?:个)?\s*{_UNIT}\s*"
    rf"(?:(?:一|每|单)\s*(?P<card3>(?:张|块)?\s*(?:卡|gpu)|张|块))?\s*"  # 每小时一卡 9 元
    rf"(?:的)?\s*(?:价格|单价|费用|租金|价钱|成本)?\s*(?:是|为|要|:|大概|约|差不多|大约|在|收|按)*\s*{_MONEY}"
)
_PRICE_CARD_PERIOD = re.compile(  # 一卡一月 ¥9000 / 每张卡一个月 4800 / 单卡一天 40 块: a card word, then "一" + the period
    rf"(?:每|单|一)\s*(?P<card>(?:张|块)?\s*(?:卡|gpu)|张|块)\s*(?:一|每)\s*(?:个)?\s*{_UNIT}\s*(?:的)?\s*(?:价格|单价|费用|租金|报价)?\s*"
    rf"(?:是|为|要|:|大概|约|收|按)*\s*{_MONEY}"
)
_PRICE_BEFORE = re.compile(  # 8元/小时, 8块钱一小时, $2/GPU-hour, $2 per GPU hour, 2美元每卡每小时
    rf"{_MONEY}\s*(?:/|每|一|per|an?|each)\s*(?:(?:张|块)?(?P<card>卡|gpu|card|node|machine|instance|server|台|\x00+)"
    rf"\s*(?:/|每|per|[-·]|an?)?\s*)?(?:个)?\s*{_UNIT}(?:\s*(?:per|/|each|a)\s*(?P<card2>gpu|card|node|machine)|\s*(?P<each>each|apiece)(?![a-z]))?"
)
_PER_WORD = re.compile(r"(?:一|每|/|per|an?)\s*(?:个)?\s*(?:小时|钟头|hours?|hrs?|h)(?![a-z])")
"""A price written "1.98一小时", "1.3/h": an amount per hour is a price even without a currency."""
_NODE_NEAR = re.compile(r"^[^,，。;；?？]*?(?:\d+\s*(?:x|×|卡)\s*)?[a-z0-9-]*\s*(?:nodes?|machines?|servers?|boxes|整机|整台)(?![a-z])")
_NODE_SCOPE = re.compile(r"整机|每台|一台|整台|per\s+(?:node|machine|server|instance)|for\s+the\s+(?:whole\s+)?(?:node|machine|box)"
                         r"|\d+\s*[-x×]?\s*(?:gpus?|cards?)\s+(?:nodes?|servers?|machines?|boxes)"
                         r"|\d+\s*卡\s*(?:的)?\s*(?:机器?|服务器|主机|节点)|(?:node|server|machine|box)\s*(?:(?:is\s+)?(?:billed|priced|charged|rented)\s*)?(?:at|for|costs?|is|@|:)")
_BUDGET = [
    re.compile(
        rf"(?:总?预算|budget|经费|资金|(?:费用|花费|成本|开销|支出|总价|总费用)\s*(?:上限|封顶)|申请金额|申请了?|只批了?|批了|批复|额度|spend(?:ing)?\s+(?:limit|cap)|(?<![a-z])cap)\s*"
        rf"(?:是|为|有|只有|大概|约|大约|of|is|:|=|around|about|~|在|only|just|roughly|总共|一共|别超过|不超过|不能超过|控制在|最多|封顶|上限|顶多|就|只|"
        rf"at\s+most|under|below|within|no\s+more\s+than)*\s*{_MONEY}"
    ),
    re.compile(rf"{_MONEY}\s*(?:左右|以内|之内)?\s*(?:的)?\s*(?:总)?(?:预算|budget)"),
    re.compile(rf"{_MONEY}\s*(?:够吗|够不够|够用吗|够么|够用|够|enough|(?:would|will)\s+(?:be\s+)?enough)"),
    re.compile(rf"(?:会不会|会|能不能|不能|不要|别|不得|不可以?)\s*超(?:过|出|支)?\s*(?:了)?\s*{_MONEY}"),  # "会不会超过 3 万"
    re.compile(rf"{_MONEY}\s*(?:以内|之内|以下)(?!\s*(?:的)?\s*(?:张|卡|条|token))"),  # "卡在 5 万以内"
    re.compile(rf"{_MONEY}\s*(?:max(?:imum)?|tops|at\s+most|ceiling|cap|limit|上限|封顶|(?:is\s+)?(?:all\s+)?we\s+(?:have|can\s+spend))(?![a-z])"),  # "¥800 max"
]
_BUDGET_LOOSE = re.compile(  # needs a currency or 以内: "have 50k samples" is not money
    rf"(?:不超过|不能超过|别超过|控制在|within|under|below|less\s+than|no\s+more\s+than|at\s+most|最多花|"
    rf"只能花|手头(?:上)?(?:就|只|只有|有|还有)?|can\s+spend|afford|have|got|only)\s*(?:(?:about|around|roughly|maybe|like|~|大概|大约|up\s+to|at\s+most)\s*)?{_MONEY}(?P<within>\s*(?:以内|之内|以下|内))?"
)
_APPROVAL = [
    re.compile(
        rf"(?:超过|高于|above|over|more\s+than|exceed(?:s|ing)?)\s*{_MONEY}[^,，。;；?？]{{0,16}}?"
        rf"(?:审批|批准|approval|sign[\s-]*off|approve)"
    ),
    re.compile(rf"(?:审批(?:线|门槛|阈值)|approval\s+(?:threshold|limit))\s*(?:是|为|of|is|at|:)?\s*{_MONEY}"),
]
_MONTHLY_FEE = re.compile(
    rf"(?:月费|月租|每月(?:费用|租金|付)?|monthly\s+(?:fee|rent|payment|charge|bill)|per\s+month)\s*"
    rf"(?:是|为|of|is|:|约|大概)?\s*{_MONEY}"
)
_MONTHLY_FEE_AFTER = re.compile(rf"{_MONEY}\s*(?:a|per|/|each)\s*month(?![a-z])")
_ANY_MONEY = re.compile(_MONEY)
_SUPPORT = [  # "技术支持 3000 元", "$800 for support", "licence fees of $2k" (a total, not per month)
    re.compile(rf"(?:技术支持|支持费用?|软件授权|授权费|许可费|(?<![a-z])(?:support|licen[cs]e)(?:\s+(?:fees?|costs?|contract))?)"
               rf"\s*(?:费用?)?\s*(?:是|为|要|收|另收|of|is|costs?|at|:)?\s*{_MONEY}(?!\s*(?:/|每|per|a)\s*(?:月|month|年|year))"),
    re.compile(rf"{_MONEY}\s*(?:for|of|in)\s+(?:\w+\s+)?(?:support|licen[cs]es?|licen[cs]e\s+fees)(?![a-z])"),
]
_QUOTED = re.compile(  # "一小时 4.5", "包月报价 5.2 万", "一个月 5.5 万", "报价 8 万": an amount after its unit or a quote word
    r"(?:(?P<hour>一小时|每小时|每卡时|一个小时)|(?P<day>一天|每天|包天|日租)|(?P<month>一个月|每个?月|月租|包月|monthly\s+(?:rent(?:al)?|price|rate))"
    r"|(?P<year>年租|包年|一年|每年|(?:yearly|annual)\s+(?:rent(?:al)?|price|rate))|(?P<quote>报价|开价|要价|给价|出价|报了|(?<=[方家商边])报))\s*"
    rf"(?:报价|价格|租金|收费|费用)?\s*(?:是|为|:|of|is|要|收|只要|才|大概|约)?\s*{_MONEY}"
)
_RENT = re.compile(r"[日月年]租|包[天月年]|(?:monthly|yearly|annual)\s+rent")
"""A rent word ("月租 7500", "monthly rent 7500"): the amount after it is money without a currency."""
_MARKETS = [(cur, re.compile(p)) for cur, p in lexicon()["markets"].items()]
_CURRENCY_ONLY = re.compile(
    r"(?:用|以|按)(?P<a>人民币|美元|美金|rmb|usd)|(?P<b>人民币|美元)(?:计|报价|算)|"
    r"(?:in|into|to|give\s+me|show\s+me)\s+(?P<c>usd|rmb|cny|dollars|us\s+dollars|yuan|renminbi)|"
    r"(?:换算成|折合成?|[换改转]回|换成|改成|转成|显示成?|(?<![a-z])give\s+it\s+in|back\s+to)\s*(?P<d>人民币|美元|美金|rmb|usd|cny|dollars|yuan)"
)


def _currency(m: re.Match[str]) -> str | None:
    """The amount's currency as written; an amount counted in 万 or 亿 with none ("3.6万/month") is in yuan,
    whatever the language around it."""
    word = m.group("cpre") or m.group("cpost")
    if not word:
        return "CNY" if re.search(r"[万亿]", m.group("n")) else None
    return _CURRENCY_WORDS.get(word) or normalize_currency(word)


def _money_like(m: re.Match[str]) -> bool:
    """An amount is money when it says its currency or is written as 万/k/m of something."""
    if m.group("cpre") or m.group("cpost"):
        return True
    return bool(re.search(r"[万千亿kmb]|thousand|million", m.group("n")))


def _record_money(scan: Scan, slot: str, m: re.Match[str], value: float | None = None, period: str | None = None,
                  node: bool = False) -> None:
    amount = read_number(m.group("n")) if value is None else value
    scan.take(slot, round(amount, 6), m.start(), m.end())
    scan.values.setdefault("_money_currencies", []).append(_currency(m))
    # every amount as written (a quote check keeps the price in its own unit)
    scan.values.setdefault("_amounts", []).append(
        {"amount": read_number(m.group("n")), "start": m.start(), "end": m.end(), "slot": slot, "period": period, "node": node}
    )


def extract_prices(scan: Scan) -> None:
    """Per-GPU-hour prices (and per card-day/-month/-year, converted to hours)."""
    for pattern in (_PRICE_AFTER, _PRICE_CARD_PERIOD, _PRICE_BEFORE):
        for m in scan.find(pattern):
            groups = m.groupdict()
            card = groups.get("card") or groups.get("card2") or groups.get("card3") or groups.get("each")  # "7500 a month each"
            per_hour_written = groups.get("hour") and _PER_WORD.search(m.group(0)) and read_number(m.group("n")) < 1000
            if not (m.group("cpre") or m.group("cpost") or card or per_hour_written
                    or (groups.get("hour") or "").startswith(("gpu", "card", "卡"))):
                continue
            amount = read_number(m.group("n"))
            period = next(k for k in _PERIOD_HOURS if groups.get(k))
            if "price_per_gpu_hour" in scan.values or amount <= 0 or (period != "hour" and not card):
                continue
            per_hour = amount / _PERIOD_HOURS[period]
            if period != "hour":
                scan.note(f"hours_per_{period}", _PERIOD_HOURS[period], "hours",
                          "advisor.units: 730 h a month (8760/12, the price-sheet convention), 24 h a day")  # fmt: skip
                scan.values.setdefault("billing_hint", {"day": "daily", "month": "monthly", "year": "yearly"}[period])
            per_card = (groups.get("hour") or "").startswith(("gpu", "card", "卡")) or bool(  # "per H100-hour": a card's hour
                card and card not in ("node", "machine", "instance", "server", "台"))
            node = (card in ("node", "machine", "instance", "server", "台")) or bool(
                groups.get("scope") or (not per_card and _NODE_SCOPE.search(scan.norm[max(0, m.start() - 16) : m.end() + 14]))
                or (not per_card and _NODE_NEAR.search(scan.norm[m.end() : m.end() + 28]))
            )
            if node:
                scan.values["_price_per_node_hour"] = per_hour
            _record_money(scan, "price_per_gpu_hour", m, round(per_hour, 6), period=period, node=node)


def finish_prices(scan: Scan, gpu_count: int | None) -> None:
    """A machine price becomes a per-GPU price once the machine's GPU count is known."""
    per_node = scan.values.pop("_price_per_node_hour", None)
    if per_node is None:
        return

    cards = scan.values.pop("_cards_per_node", None) or gpu_count or GPUS_PER_NODE
    if not gpu_count:  # "整机每小时100元": one machine of GPUS_PER_NODE cards
        scan.values["gpu_count"] = cards
        scan.values["_cards_defaulted"] = True
        scan.note("gpus_per_node", GPUS_PER_NODE, "GPUs per machine", "NVIDIA DGX/HGX A100 and H100 systems carry 8 GPUs")
    scan.values["price_per_gpu_hour"] = round(per_node / cards, 6)


_FOREIGN = {code: rf"(?:{p})" for code, p in CURRENCY["unsupported"].items()}
_FOREIGN_AMOUNT = {code: re.compile(rf"{p}\s*{NUMBER_TEXT_NO_WORDS}|{NUMBER_TEXT_NO_WORDS}\s*{p}") for code, p in _FOREIGN.items()}


def extract_foreign_currency(scan: Scan) -> None:
    """A currency the price data does not hold ("show it in euros", "每卡时 2 欧元"): ``currency_unsupported``; an
    amount written in it is blanked, never read as a USD or CNY price (``amount_unsupported``: the price is asked for)."""
    for code, pattern in _FOREIGN.items():
        if m := scan.first(_FOREIGN_AMOUNT[code]):
            scan.values["amount_unsupported"] = True
        elif not (m := scan.first(re.compile(pattern))):
            continue
        scan.take("currency_unsupported", code, m.start(), m.end())
        return


def extract_money(scan: Scan) -> None:
    """Approval thresholds, monthly fees and budgets, then any other amount with a currency."""
    for pattern in _APPROVAL:
        for m in scan.find(pattern):
            if _money_like(m):
                _record_money(scan, "approval_threshold", m)
    for m in [x for pattern in _SUPPORT for x in scan.find(pattern)]:
        if _money_like(m) and "support_cost" not in scan.values:
            _record_money(scan, "support_cost", m)
    for m in scan.find(_MONTHLY_FEE) + scan.find(_MONTHLY_FEE_AFTER):
        if _money_like(m):
            _record_money(scan, "monthly_fee", m)
    for i, pattern in enumerate(_BUDGET):
        for m in scan.find(pattern):  # after 预算/budget any amount is money ("预算三百以内")
            if (i == 0 or _money_like(m)) and not _followed_by_unit(scan, m.end()):
                _record_money(scan, "budget", m)
    for m in scan.find(_BUDGET_LOOSE):
        if (m.group("cpre") or m.group("cpost") or m.group("within")) and _money_like(m):
            _record_money(scan, "budget", m)
    for m in scan.find(_QUOTED):
        if _followed_by_unit(scan, m.end()) or any(k in scan.values for k in ("price_per_gpu_hour", "monthly_fee")):
            continue
        amount, rent = read_number(m.group("n")), bool(_RENT.match(m.group(0)))
        money = rent or _money_like(m)
        node = bool(_NODE_SCOPE.search(scan.norm[max(0, m.start() - 16) : m.end() + 16])
                    or (not m.group("hour") and _NODE_WORDS.search(scan.norm)))
        if m.group("hour") and (amount < 1000 or m.group("cpre") or m.group("cpost")):
            _record_money(scan, "price_per_gpu_hour", m, period="hour", node=node)
            if node:
                scan.values["_price_per_node_hour"] = amount
        elif m.group("day") and (m.group("cpre") or m.group("cpost") or rent):  # "一天 40 块", "日租 40": a price per card-day
            _record_money(scan, "price_per_gpu_hour", m, round(amount / HOURS_PER_DAY, 6), period="day", node=node)
            if node:
                scan.values["_price_per_node_hour"] = amount / HOURS_PER_DAY
        elif m.group("year") and money:  # "年租 8 万一张": a price per card-year
            _record_money(scan, "price_per_gpu_hour", m, round(amount / HOURS_PER_YEAR, 6), period="year", node=node)
        elif (m.group("month") or m.group("quote")) and money:
            _record_money(scan, "monthly_fee" if m.group("month") else "quoted_amount", m,
                          period="month" if m.group("month") else None, node=node)
    for m in scan.find(_ANY_MONEY):
        if not (m.group("cpre") or m.group("cpost")) or _followed_by_unit(scan, m.end()):
            continue
        amount = read_number(m.group("n"))
        _record_money(scan, "budget" if amount >= 1000 else "price_per_gpu_hour", m)
    for currency, pattern in _MARKETS:
        m = scan.first(pattern)  # type: ignore[assignment]
        if m:
            scan.take("currency", currency, m.start(), m.end())
            scan.values["currency_said"] = True
            scan.values["market"] = "local"
            return
    said = scan.first(_CURRENCY_ONLY)
    if said:
        m = said
        word = m.group("a") or m.group("b") or m.group("c") or m.group("d")
        scan.take("currency", _CURRENCY_WORDS.get(word) or normalize_currency(word), m.start(), m.end())
        scan.values["currency_said"] = True
        scan.values["market"] = "convert"  # the same offers, converted at the dated rate


_UNIT_AFTER = re.compile(rf"^\s*(?:个)?\s*(?:天|小时|周|月|年|卡|张|条|次|tokens?|gpus?|days?|hours?|weeks?|months?|%|倍|{lexicon()['serving_load']['request']})")
"""A count's unit: the number before it is no amount of money ("每天 1 万次请求", "一个月 2 万条")."""


def _followed_by_unit(scan: Scan, end: int) -> bool:
    return bool(_UNIT_AFTER.search(scan.norm[end : end + 8]))


def resolve_currency(scan: Scan, language: str) -> None:
    """One currency for the request: said outright, else the first amount's, else by language."""
    found = scan.values.pop("_money_currencies", [])
    if "currency" in scan.values:
        return
    explicit = [c for c in found if c]
    if explicit:
        scan.values["currency"] = explicit[0]
    elif found:
        scan.values["currency"] = CURRENCY_BY_LANGUAGE[language]
        scan.note("currency", CURRENCY_BY_LANGUAGE[language], "currency",
                  "an amount without a currency is read in the asker's language's currency")  # fmt: skip


_NEW_PRICE = re.compile(rf"(?:降到|降至|降为|便宜到|改成|报价|(?<![a-z])(?:down\s+to|drop(?:s|ped)?\s+to|lower(?:ed)?\s+to))\s*(?P<n>{NUMBER_TEXT_NO_WORDS})(?![\d.])(?!\s*(?:张|卡|个|%|天|小时|月|年|gpus?|cards?|days?|hours?|months?))")
_NODE_WORDS = re.compile(r"整机|一台|每台|整台|台机器|(?<![a-z])(?:nodes?|servers?|machines?|box)(?![a-z])|(?<![\d.])8\s*(?:卡|x|×|gpu)")
_MONTH_WORDS = re.compile(r"每月|一个月|月租|月费|包月|个月|/\s*月|per\s+month|a\s+month|/\s*mo(?:nth)?(?![a-z])|monthly|per\s+gpu\s+per\s+month")
_YEAR_WORDS = re.compile(r"每年|一年|年租|包年|年包|/\s*年|per\s+year|a\s+year|/\s*y(?:ea)?r(?![a-z])|yearly|annual")
_HOUR_WORDS = re.compile(r"每小时|一小时|小时|卡时|/\s*h|an\s+hour|per\s+hour|/\s*hr|hourly|gpu[\s-]*hour")


def read_quote(scan: Scan) -> dict[str, object]:
    """A quoted price as written: ``price`` in its own ``unit`` (gpu_hour, gpu_month, node_hour,
    node_month, gpu_year) and ``gpu_count``: the node's cards for a node price, else the cards quoted
    (check_quote's request fields)."""
    amounts = scan.values.get("_amounts") or []
    if not amounts and (m := _NEW_PRICE.search(scan.work, 0, scan.limit)):  # "可以降到8万": a new price, unit as before
        return {"price": read_number(m.group("n"))}
    if not amounts:
        return {}
    first = next((a for a in amounts if a["slot"] == "price_per_gpu_hour"), amounts[0])
    near = scan.norm[max(0, first["start"] - 16) : first["end"] + 16]
    period = first.get("period")
    if period is None:
        period = ("month" if _MONTH_WORDS.search(near) else "year" if _YEAR_WORDS.search(near)
                  else "hour" if _HOUR_WORDS.search(near) else
                  "month" if _MONTH_WORDS.search(scan.question) else "year" if _YEAR_WORDS.search(scan.question) else None)
    if period is None:  # "降到8万": the unit is the conversation's
        return {"price": first["amount"]}
    node = bool(first.get("node")) or (period == "month" and bool(_NODE_WORDS.search(scan.question))
                                       and not re.search(r"单卡|每卡|一卡|per\s+(?:gpu|card)", scan.question))

    out: dict[str, object] = {"price": first["amount"]}
    if period in ("day",):
        out["price"], period = first["amount"] / HOURS_PER_DAY, "hour"
    # a node price is shared by the node's cards; a per-card price stays per card ("64卡，每卡时7.5块");
    # a count not stated is the tool's own default (one node / one card), credited to that default
    out["unit"] = f"node_{period}" if node and period in ("month", "hour") else f"gpu_{period}"
    if scan.values.get("gpu_count") and not scan.values.get("_cards_defaulted"):
        out["quote_gpu_count"] = scan.values["gpu_count"]
    return out
