"""Time and share slots: durations ("3天内", "within 30 days", "两周", "a month", "一个半月"),
hours per day, checkpoint intervals, and percentages (utilization, MFU, off-peak share).

A duration's role comes from the words around it: a deadline ("内", "within", "完成"), a
usage period ("过去", "last"), a rental period ("租", "for"), a project length, a retention;
otherwise it is a plain ``duration_hours`` that :mod:`.project` maps per tool.
"""

from __future__ import annotations

import re

from advisor.assistant.offline.lexicon import lexicon
from advisor.assistant.offline.text import Scan
from advisor.numerals import cn_numeral_value
from advisor.numeric import NUMBER_TEXT, NUMBER_TEXT_NO_WORDS, read_number
from advisor.units import HOURS_PER_DAY, HOURS_PER_MONTH, HOURS_PER_YEAR

HOURS = {
    "minute": 1 / 60, "hour": 1.0, "day": HOURS_PER_DAY, "week": 7 * HOURS_PER_DAY,
    "month": HOURS_PER_MONTH, "quarter": HOURS_PER_YEAR / 4, "year": HOURS_PER_YEAR,
}  # fmt: skip
_UNITS = (  # the (?![a-z]) guards keep "h"/"day" from eating "h100"/"days"; Chinese units need none
    r"(?:(?P<minute>分钟|(?:mins?|minutes?)(?![a-z]))|(?P<hour>个?小时|钟头|(?:hours?|hrs?|h)(?![a-z]))"
    r"|(?P<day>天|(?:days?|nights?)(?![a-z]))|(?P<week>周|星期|礼拜|(?:weeks?|wks?)(?![a-z]))"
    r"|(?P<month>个月|个半月|months?(?![a-z]))|(?P<quarter>个?季度|quarters?(?![a-z]))"
    r"|(?P<year>年|(?:years?|yrs?)(?![a-z])))"
)
_DURATION = re.compile(
    rf"(?<![\d.])(?:(?P<n>{NUMBER_TEXT})|(?P<halfonly>半|half\s+an?(?![a-z])))\s*(?:个)?\s*(?P<half>半)?\s*-?\s*(?:个)?\s*{_UNITS}(?P<half2>半)?"
)
_MONTH_HOURS = re.compile(  # "一个月按 720 小时算", "assume 720 hours a month": the month's hours, as stated
    rf"(?:一个月|每个?月|(?<![a-z])(?:a|one|per|each)\s+month)\s*(?:按|算|当|记|计|=|is|as|of|counts?\s+as)?\s*(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:个)?\s*"
    rf"(?:小时|h(?:ou)?rs?(?![a-z]))|(?P<n2>{NUMBER_TEXT_NO_WORDS})\s*(?:个)?\s*(?:小时|h(?:ou)?rs?)\s*(?:a|per|/|一个|每个?)\s*(?:月|month)(?![a-z])"
)
_NAMED_PERIODS = [(re.compile(str(e["pattern"])), HOURS[str(e["unit"])]) for e in lexicon()["calendar"]["named_periods"]]
_ROLES = [(str(r["slot"]), re.compile(rf"(?:{r.get('before', '(?!)')})\s*$"), re.compile(rf"^\s*(?:{r.get('after', '(?!)')})"))
          for r in lexicon()["duration_roles"]]
"""A duration's role by the words just before or after it (lexicon ``duration_roles``, in order)."""
_CHECKPOINT = re.compile(r"checkpoint|ckpt|检查点|存档|保存一次|存一次")
_EVERY = re.compile(r"(?:每隔?|every)\s*$")
_PER_DAY = [
    # "每天跑6小时", "每天22点后跑8小时", "如果每天用满24小时呢", "8 hours a night"
    # "每天晚上跑 10 个小时", "一天开机 8 小时": words but no number or clause end between the day and the hours
    re.compile(rf"(?:每天|每日|一天|每晚|白天|晚上|夜里)\s*(?:\d{{1,2}}\s*点\s*(?:后|以后|之后|开始|起)?\s*)?[^\d,，。;；?？!！]{{0,8}}?"
               rf"(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:个)?\s*(?:小时|钟头|钟|h)(?![a-z])"),
    re.compile(rf"(?P<n>{NUMBER_TEXT})\s*(?:个)?\s*(?:小时|hours?|hrs?|h)\s*(?:a|per|/|每|一|each|every)\s*(?:day|天|night|晚)"),
]
_ALL_DAY = re.compile(r"24\s*/\s*7|24\s*[x×*]\s*7|7\s*[x×*]\s*24|around\s+the\s+clock|round[\s-]+the[\s-]+clock|nonstop|全天候|全天|不停机|不关机")
"""Use all day ("24/7", "全天候"): 24 hours a day."""
_DAYS_A_WEEK = re.compile(
    rf"(?:每周|一周|每星期|每个星期|每礼拜)[^\d,，。;；?？]{{0,6}}?(?P<n>{NUMBER_TEXT_NO_WORDS})\s*天|"
    rf"(?P<n2>{NUMBER_TEXT})\s*days?\s*(?:a|per|/|each)\s*week|(?P<weekdays>(?:工作日|周一到周五)(?!\s*(?:共|一共)?\s*(?:\d+|[一二两三四五六七八九十]+)\s*(?:个)?\s*天)|(?<![a-z])weekdays?(?![a-z])|"
    r"mon(?:day)?\s*(?:to|through|thru|-|–|—|~)\s*fri(?:day)?|周一至周五|business\s+days)|"
    r"(?P<weekend>(?<![a-z])weekends?\s+only|only\s+(?:on\s+)?weekends|(?:every|on)\s+weekends|每个?周末|只有周末|只在周末|周末才)"
)
"""Days of use in a week: a period of weeks or months is used on that share of its days."""
_DAYS_A_MONTH = re.compile(rf"(?:一个月|每个?月|(?<![a-z])(?:a|per|each)\s+month)\s*(?:只|就)?\s*(?:用|跑|开|上|开机|大概|约|有)?\s*(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:个)?\s*(?:天|days?(?![a-z]))|"
                           rf"(?P<n2>{NUMBER_TEXT_NO_WORDS})\s*days?\s*(?:a|per|each|/)\s*month(?![a-z])")
"""Days of use in a month ("一个月 20 天", "20 days a month")."""
_WORKING_DAYS = re.compile(rf"(?<![\d.])(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:个)?\s*(?:工作日|(?:working|business|work)\s+days|workdays|weekdays)")
_HALF_DAY = r"(?P<{g}d>早上|上午|中午|下午|晚上|夜里|凌晨)?\s*"
_CLOCK = re.compile(  # "9点到18点", "晚上10点到早上8点", "9am-6pm", "Mon–Fri, 9 to 6": hours of use a day
    rf"(?<![\d.:]){_HALF_DAY.format(g='a')}(?P<a>\d{{1,2}})\s*(?::00)?\s*(?P<am>am|pm|点)?\s*(?:to|-|–|—|~|到|至)\s*"
    rf"{_HALF_DAY.format(g='b')}(?P<b>\d{{1,2}})\s*(?::00)?\s*(?P<bm>am|pm|点)?(?![\d.%])(?!\s*(?:张|卡|个|gpus?|cards?|天|days?|小时|hours?|h(?![a-z0-9])))"
)
_PRICE_AFTER_CLOCK = re.compile(r"^[^,，。;；]{0,8}?(?:便宜|折|优惠|电价|价|cheaper|discount|off(?![a-z])|rate|price)")


def _clock_hours(m: re.Match[str], weekdays: bool) -> float | None:
    """Hours between two clock times, or None when the span is not clearly a time of day."""
    if not (m.group("am") or m.group("bm") or m.group("ad") or m.group("bd") or weekdays):
        return None  # "4-8 H100" is a range of counts, not a time of day
    def hour(n: str, mark: str | None, half: str | None) -> int:
        h = int(n)
        return h + 12 if h < 12 and (mark == "pm" or half in ("下午", "晚上", "夜里")) else h
    a, b = hour(m.group("a"), m.group("am"), m.group("ad")), hour(m.group("b"), m.group("bm"), m.group("bd"))
    if not (0 <= a <= 24 and 0 <= b <= 24):
        return None
    if b <= a and not (m.group("am") or m.group("bm") or m.group("ad") or m.group("bd")):
        b += 12  # "9 to 6": six in the evening
    span = (b - a) % 24
    return float(span) if 0 < span < 24 else None
DATED_DEADLINE = re.compile(
    r"(?:by|before|until)\s+(?:next\s+|this\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|(?:the\s+)?day\s+after\s+tomorrow|tomorrow|tonight|"
    r"the\s+end\s+of\s+(?:the\s+)?(?:week|month|quarter)|end\s+of\s+(?:the\s+)?(?:week|month|quarter)|eow|eom)(?![a-z])|"
    r"(?:下)?(?:周|星期|礼拜)[一二三四五六日天]\s*(?:之前|前|以前|要|得|必须)|(?:明天|大?后天|今晚|月底|周末|年底|下周)\s*(?:早上|上午|下午|晚上)?\s*(?:之前|前|以前|就?要(?:结果|用|交)|出结果|交付|上线|搞定|完成)|"
    r"(?:最晚|最迟|截止到?|截至|不晚于|不能晚于)\s*(?:在|到)?\s*(?:明天|明日|大?后天)"
)
_TIME_OF_DAY = re.compile(r"早上|上午|中午|下午|晚上|\d\s*点|(?<![a-z])(?:morning|noon|afternoon|evening|night|\d+\s*(?:am|pm))(?![a-z])")
_RELATIVE_DAYS = [(re.compile(str(d["pattern"])), float(d["days"])) for d in lexicon()["calendar"]["relative_days"]]
"""A deadline named by a date ("by Friday", "周五前"): the offline reader has no calendar, so it is
stated as not turned into hours instead of guessed."""
_IDLE_WAIT = re.compile(
    rf"(?:空等|干等|排队等|idle\s+waiting|waiting|(?:sits?|sat|sitting|stay|stays|left|are|be)?\s*idle)\s*(?:了|着|for|about|around|~|大概|约)*\s*"
    rf"(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:个)?\s*(?:小时|hours?|hrs?|h)(?![a-z])(?!\s*(?:a|per|/|每)\s*(?:day|天))"
)

_PCT = (rf"(?:(?P<p>{NUMBER_TEXT_NO_WORDS})(?:(?:\s*%)?\s*(?:[-~–到至]|and|to)\s*(?P<p2>{NUMBER_TEXT_NO_WORDS}))?\s*(?:%|percent|个百分点)|百分之(?P<pc>[零一二两三四五六七八九十百]+)|"
        r"(?P<part>[三四]分之[一二三]|(?<![a-z\d.])(?:an?|one|two|three|[123])[\s-]+(?:thirds?|quarters?)(?=\s+of))|"
        r"(?P<half>一半|half)|(?<![\d.])(?P<cheng>[一二两三四五六七八九]|\d)\s*成(?!本|功|员|熟|立|为|绩))")
_PARTS = {"三分之一": 1 / 3, "三分之二": 2 / 3, "四分之一": 0.25, "四分之三": 0.75, "third": 1 / 3, "thirds": 2 / 3, "quarter": 0.25, "quarters": 0.75}
"""A share said as a fraction ("三分之一", "a third of the time", "two thirds", "three quarters")."""
_FRACTION = r"(?P<f>0?\.\d+)(?![\d%])"
_UTIL_WORD = r"(?:利用率|使用率|占用率?|utili[sz]ation|util(?![a-z])|gpu\s*load|负载|busy)"
_FILLER = r"\s*(?:(?:也就|就|只有|仅|才|占|一直|基本|长期|通常|常年|大多|只|仅仅|大概|约|大约|估计|可能|差不多|不到|在|是|为|都|平均|维持在|of|is|at|around|about|~|:|only|just|roughly|maybe|probably|between|averag\w*|hovers?|sits?|sat|was|were|of\s+only)\s*)*"
_UTIL = [
    re.compile(rf"(?:平均)?(?:gpu\s*)?{_UTIL_WORD}{_FILLER}(?:{_PCT}|{_FRACTION})"),
    re.compile(rf"(?:{_PCT}|{_FRACTION})\s*(?:的)?\s*(?:平均)?\s*(?:gpu\s*)?(?:(?:average|avg\.?|mean)\s*)?(?:gpu\s*)?(?:{_UTIL_WORD}|utili[sz]ed|busy|load)"),
    # the share of the time in use: "不到一半时间在跑", "60% 的时间在用", "busy a third of the time", "running half the time"
    re.compile(rf"{_PCT}\s*(?:的)?\s*(?:时间|of\s+the\s+time)\s*(?:都)?\s*(?:在|是|有)?\s*(?:跑|用|忙|工作|运行|有任务|跑任务)"),
    re.compile(rf"(?:busy|running|in\s+use|used|working|active){_FILLER}{_PCT}\s*(?:of\s+)?the\s+time"),
    # "平均只用到 62%", "averaged 45%", "ran at 81% on average": a usage verb with a share
    re.compile(rf"(?:平均|average)\s*(?:只|才|仅)?\s*(?:用到|用了|跑到|跑了|用|达到|到)\s*{_FILLER}(?:{_PCT})"),
    re.compile(rf"(?:averag(?:ed|es|ing)|ran\s+at|running\s+at|runs\s+at)\s*{_FILLER}(?:{_PCT})"),
]
_IDLE_WORD = r"(?:闲置|空闲|空转|闲着|空着|没在用|没人用|idle|sitting\s+idle|unused|not\s+in\s+use)"
_IDLE = [
    re.compile(rf"{_IDLE_WORD}\s*(?:率|了|着|时间)?{_FILLER}{_PCT}"),
    re.compile(rf"{_PCT}\s*(?:的)?\s*(?:时间|of\s+the\s+time)?\s*(?:都)?\s*(?:在|是|are|is)?\s*{_IDLE_WORD}"),
]
_MFU = [
    re.compile(rf"mfu[^\d%。，,;；?？]{{0,10}}?(?:{_PCT}|{_FRACTION})"),
    re.compile(rf"{_PCT}\s*(?:的)?\s*mfu"),
]
_OFFPEAK_WORD = r"(?:夜间|晚上|夜里|夜晚|晚间|凌晨|闲时|off[\s-]*peak|at\s+night|overnight|(?<![a-z])nights?(?![a-z]))"
_OFFPEAK = [  # "70%的训练可以放到闲时", "60% of our jobs can run overnight", "most of the work (80%) can shift to nights"
    re.compile(rf"{_PCT}\s*[)）]?[^,，。;；?？\d%]{{0,24}}?(?:可以|能|可|can|could|will|may)\s*(?:be\s+)?[^,，。;；?？\d%]{{0,12}}?{_OFFPEAK_WORD}"),
    re.compile(rf"{_PCT}\s*(?:的)?\s*(?:任务|工作|作业|计算|算力|workload|jobs?|work|of\s+(?:the\s+)?(?:work|jobs?|compute))?\s*(?:可以|能|can)?\s*(?:放|挪|移|搬|改)?(?:到|在)?\s*(?:run|be\s+run|go|moved?\s+to)?\s*{_OFFPEAK_WORD}"),
    re.compile(rf"{_OFFPEAK_WORD}\s*(?:占|share|比例|portion)\s*(?:of|is|:)?\s*{_PCT}"),
]  # fmt: skip


def days_of(hours: float) -> float:
    """A stated period as a count of days: whole or half months are calendar months of
    ``calendar.days_per_month`` days (lexicon), anything else is hours / 24."""

    months = hours / HOURS_PER_MONTH
    if hours >= HOURS_PER_MONTH / 2 and abs(months * 2 - round(months * 2)) < 1e-6 and abs(hours % HOURS_PER_YEAR) > 1e-6:
        return round(months * float(lexicon()["calendar"]["days_per_month"]), 6)
    return round(hours / HOURS_PER_DAY, 6)


def _hours(m: re.Match[str], month: float = HOURS_PER_MONTH) -> float | None:
    unit = next(k for k in HOURS if m.group(k))
    if m.group("halfonly"):
        count = 0.5
    else:
        text = m.group("n")
        if unit == "year" and re.fullmatch(r"\d{4}", text.strip()):
            return None  # "2024年" is a date
        count = read_number(text)
    if m.group("half") or m.group("half2") or m.group(unit).startswith("个半"):
        count += 0.5
    return count * (month if unit == "month" else HOURS[unit])


def extract_times(scan: Scan) -> None:
    """Hours per day, checkpoint interval, idle waits, then every other duration by its role."""
    for pattern in _PER_DAY:
        for m in scan.find(pattern):
            scan.take("hours_per_day", read_number(m.group("n")), m.start(), m.end())
    for m in scan.find(_DAYS_A_MONTH) + scan.find(_WORKING_DAYS):  # "一个月 20 天", "20 working days": the days of use
        scan.take("days", read_number(m.group("n") or m.groupdict()["n2"]), m.start(), m.end())
    if "hours_per_day" not in scan.values and (all_day := scan.first(_ALL_DAY)):
        scan.take("hours_per_day", HOURS_PER_DAY, all_day.start(), all_day.end())
    weeks = scan.find(_DAYS_A_WEEK)  # a stated count ("6 days a week") over "weekday-ish"
    week = next((w for w in weeks if not (w.group("weekdays") or w.group("weekend"))), weeks[0] if weeks else None)
    clock = scan.first(_CLOCK) if "hours_per_day" not in scan.values else None
    if clock and not _PRICE_AFTER_CLOCK.search(scan.norm[clock.end() : clock.end() + 12]):
        hours = _clock_hours(clock, bool(week))
        if hours:
            scan.take("hours_per_day", hours, clock.start(), clock.end())
    if week:
        n = 5.0 if week.group("weekdays") else 2.0 if week.group("weekend") else read_number(week.group("n") or week.group("n2"))
        if 0 < n < 7:
            scan.take("days_per_week", n, week.start(), week.end())
            scan.note("days_per_week", n, "days a week", "as stated: a period of weeks or months is used on that share of its days")
    for m in scan.find(_IDLE_WAIT):
        scan.take("idle_wait_hours", read_number(m.group("n")), m.start(), m.end())
    for pattern, hours in _NAMED_PERIODS:
        for m in scan.find(pattern):
            scan.take("period_hours", hours, m.start(), m.end())
    stated = scan.first(_MONTH_HOURS)
    month = read_number(stated.group("n") or stated.group("n2")) if stated else HOURS_PER_MONTH
    if stated and 0 < month <= 31 * HOURS_PER_DAY:
        scan.take("duration_hours", month, stated.start(), stated.end())  # a month's use, unless a period is stated
        scan.note("hours_per_month", month, "hours", "as stated: a month of use is that many hours")
    for m in scan.find(_DURATION):
        length = _hours(m, month)
        if length is None or length <= 0:
            continue
        hours = length
        before, after = scan.window(m.start(), m.end(), before=16, after=10)
        slot, value = _role(scan, before, after), hours
        if slot == "project_months":
            value = hours / HOURS_PER_MONTH
        elif slot == "storage_retention_days":
            value = hours / HOURS_PER_DAY
        scan.take(slot, round(value, 6), m.start(), m.end())
    dated = scan.first(DATED_DEADLINE)
    hour_said = dated and _TIME_OF_DAY.search(scan.norm[dated.start() : dated.end() + 10])  # "明天早上之前": not whole days
    days = next((d for p, d in _RELATIVE_DAYS if dated and not hour_said and p.search(dated.group(0))), None)
    asked = any(k in scan.values for k in ("deadline_hours", "duration_hours", "wall_hours"))  # "明天要，给 10 小时够吗": the hours asked
    if dated and days and not asked:  # "最晚后天", "by tomorrow": whole days from now
        scan.take("deadline_hours", days * HOURS_PER_DAY, dated.start(), dated.end())
        scan.note("deadline.relative", days * HOURS_PER_DAY, "h", "a deadline named as a day from today is that many whole days from now")
    elif dated and not asked:
        scan.note("deadline", scan.source(dated.start(), dated.end())[2].strip(), "",
                  "a deadline named by a date is not turned into hours; give the hours or days to check it")


def _role(scan: Scan, before: str, after: str) -> str:
    if _EVERY.search(before) and scan.has(_CHECKPOINT):
        return "checkpoint_interval_hours"
    return next((slot for slot, b, a in _ROLES if b.search(before) or a.search(after)), "duration_hours")


def _share(m: re.Match[str]) -> float | None:
    groups = m.groupdict()
    if groups.get("half"):
        return 0.5
    if groups.get("cheng"):
        return read_number(groups["cheng"]) / 10  # "六成" = 60 %
    if groups.get("part"):
        return _PARTS[groups["part"] if "分之" in groups["part"] else groups["part"].split()[-1].split("-")[-1]]
    if groups.get("f"):
        value = float(groups["f"])
    elif groups.get("pc"):
        value = cn_numeral_value(groups["pc"]) / 100
    else:
        value = read_number(groups["p"]) / 100
        if groups.get("p2"):  # "60-65%": the middle of the range
            value = (value + read_number(groups["p2"]) / 100) / 2
    return value if 0 <= value <= 1 else None


_ANY_PCT = re.compile(_PCT)
_OFFPEAK_DISCOUNT = [
    re.compile(rf"{_OFFPEAK_WORD}[^,，。;；?？\d]{{0,8}}?(?P<z>[一二两三四五六七八九]|[1-9]\d(?=\s*折)|\d(?:\.\d)?)\s*折"),
    re.compile(rf"{_OFFPEAK_WORD}[^,，。;；?？\d]{{0,12}}?(?:打|便宜|优惠|discount(?:ed)?\s*(?:of|by)?|折扣)?\s*(?P<p>\d+(?:\.\d+)?)\s*%\s*(?:off|折扣|discount|便宜|优惠|cheaper)"),
    re.compile(rf"{_OFFPEAK_WORD}[^,，。;；?？\d]{{0,16}}?(?:便宜|优惠|折扣|降价|cheaper\s+by|discount(?:ed)?\s*(?:of|by|is|:)?|off)\s*(?P<p>\d+(?:\.\d+)?)\s*%"),
    re.compile(rf"{_OFFPEAK_WORD}[^,，。;；?？]{{0,20}}?(?P<half>半价|便宜一半|打对折|对折|half[\s-]+(?:price|off)|50\s*%\s*off)"),
    re.compile(rf"(?P<p>\d+(?:\.\d+)?)\s*%\s*(?:off|discount|cheaper)\s*(?:at\s+night|off[\s-]*peak|overnight|{_OFFPEAK_WORD})"),
]


def extract_shares(scan: Scan) -> None:
    """MFU, off-peak share and discount, utilization (idle shares become 1 - idle), and the first
    other percentage (``share_said``: "天天跑满（90%）" is a utilization for an ownership question)."""
    for pattern in _OFFPEAK_DISCOUNT:
        for m in scan.find(pattern):
            if m.groupdict().get("z"):
                paid = read_number(m.group("z"))
                value = 1 - paid / (100 if paid >= 10 else 10)  # "五折" = half price = 50 % off; "75折" = 25 % off
            elif m.groupdict().get("half"):
                value = 0.5
            else:
                value = read_number(m.group("p")) / 100
            if 0 < value < 1 and "offpeak_discount" not in scan.values:  # the off-peak word stays for the share
                group = next(g for g in ("z", "half", "p") if m.groupdict().get(g))
                start = m.start(group) if m.re.pattern.startswith(_OFFPEAK_WORD) else m.start()
                scan.take("offpeak_discount", round(value, 6), start, m.end())
    for slot, patterns, flip in (("mfu", _MFU, False), ("offpeak_share", _OFFPEAK, False),
                                 ("avg_utilization", _UTIL, False), ("avg_utilization", _IDLE, True)):  # fmt: skip
        for pattern in patterns:
            for m in scan.find(pattern):
                value = _share(m)  # type: ignore[assignment]
                if value is not None:
                    scan.take(slot, round(1 - value if flip else value, 6), m.start(), m.end())
    for m in scan.find(_ANY_PCT):
        value = _share(m)  # type: ignore[assignment]
        if value is not None and "share_said" not in scan.values:
            scan.values["share_said"] = round(value, 6)
