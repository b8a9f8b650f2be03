"""Slots of billing and purchase decisions: many short jobs ("500个任务，每个20分钟", "2,000 jobs of
90 seconds"), the billing increment ("按小时计费", "rounds up to the minute"), a commitment term
("签12个月", "12-month term", "sign for 24 months") and an ownership horizon ("折旧按3年", "over
4 years").

They run before the duration slots, so that "20分钟" of a job is not read as the rental period.
"""

from __future__ import annotations

import re

from advisor.assistant.offline.lexicon import lexicon
from advisor.assistant.offline.text import Scan, Span
from advisor.numeric import NUMBER_TEXT, NUMBER_TEXT_NO_WORDS, read_number
from advisor.units import HOURS_PER_DAY

_JOB_KIND = r"(?:sweep|training|fine[\s-]*tuning|evals?|evaluation|inference|batch|test|short|small|tiny|quick|gpu|cron)"
_QUALIFIER = r"(?!(?:hours?|hrs?|minutes?|mins?|seconds?|secs?|days?|weeks?|months?|between|per|of|in|for|and|or|a|the|tokens?|samples?|examples?|gpus?|cards?|nodes?|models?|params?|parameters?|q?lora)(?![a-z]))[a-z]+"
"""Any other word before jobs/runs ("250 separate runs", "40 nightly regression runs"), never a unit or a link word."""
_JOB_WORD = (r"(?:个|次)?\s*(?:(?:评测|推理|测试|批处理|训练|微调|小|短|离线)?(?:任务|作业)|实验|训练(?![\u4e00-\u9fff]*(?:token|数据))|评测|"
             rf"(?:(?:{_JOB_KIND}|{_QUALIFIER})\s+){{0,2}}(?:jobs?|runs?|trainings?|trials?))(?![a-z])")
_JOBS = re.compile(rf"(?<![\d.a-z])(?P<n>{NUMBER_TEXT_NO_WORDS})(?<![bB])\s*{_JOB_WORD}")  # "a 7B LoRA run" is a model size
_A_LENGTH = r"\d[\d.]*\s*(?:个)?\s*(?:秒|分钟|小时|钟头|天|(?:s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?)(?![a-z]))"
_RUNS = re.compile(rf"(?:跑|做|训|提交|运行)\s*(?:了|上)?\s*(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:次|回|轮任务)(?!\s*(?:epoch|轮))|"
                   rf"(?:实验|任务|作业)(?:数|数量)?\s*(?:共|一共|有|减到|降到|加到|增加到|改成|变成)?\s*(?P<n2>{NUMBER_TEXT_NO_WORDS})\s*(?:组|个|次|项)|"
                   rf"(?:number\s+of\s+(?:jobs|runs)|job\s+count)\s*(?:to|is|of|:)?\s*(?P<n3>{NUMBER_TEXT_NO_WORDS})(?![\d.])|"
                   # "一天大概 40 次，每次 15 分钟", "30 组，每组 2 小时", "50 times a day, 10 minutes each": a count its length follows
                   rf"(?<![\d.])(?P<n4>{NUMBER_TEXT_NO_WORDS})\s*(?:个|次|组|回|批|times)(?:任务|作业|实验)?(?:\s+(?:a|per)\s+(?:day|week|month))?"
                   rf"\s*(?:左右)?\s*[,，;；]?\s*(?=(?:每次|每组|每个|每批|每回|一次|单次|each|every\s+(?:one|run|job))[^,，。;；\d]{{0,10}}?{_A_LENGTH}|"
                   rf"{_A_LENGTH}\s*(?:each|apiece)(?![a-z]))|"
                   # "a 30-minute job run 200 times a month", "the job, 50 times a day": a count after its job
                   rf"(?<![a-z])(?:jobs?|runs?|tasks?)\s*[,，]?\s*(?:(?:run|launched|executed|repeated|submitted)\s+)?(?P<n5>{NUMBER_TEXT_NO_WORDS})\s*times(?![a-z])|"
                   # "eval jobs take 6 minutes each, about 200 of them", "half an hour each on one 4090, 40 of them"
                   rf"(?<!人)(?<!用户)(?<!人均)(?:一个月|每个?月|一天|每天|一周|每周)\s*(?:跑|做|提交|要跑|大概|约|共)?\s*(?P<n7>{NUMBER_TEXT_NO_WORDS})\s*(?:次|回)(?=\s*[,，。;；?？]|$)|"  # "一个月 300 次"
                   rf"(?:(?<=each)|(?<=apiece))[^.;；。?？]{{0,30}}?[,，]\s*(?:about|around|roughly|maybe|~)?\s*(?P<n6>{NUMBER_TEXT_NO_WORDS})\s+of\s+(?:them|those)(?![a-z])")
_HALF_HOUR = re.compile(r"(?:每个|每次|each|一个|一次)\s*(?:任务|作业|job|run)?\s*(?:跑|用|要|需要|耗时|takes?|lasts?|runs?)?\s*(?:大概|约|about|around|~)?\s*"
                        r"(?:半(?:个)?小时|half\s+an\s+hour)|(?:半(?:个)?小时|half\s+an\s+hour)\s*(?:each|apiece|一个|一次)")
_UNIT_HOURS = {"sec": 1 / 3600, "min": 1 / 60, "hour": 1.0, "day": HOURS_PER_DAY}
_LEN_UNIT = (r"(?:(?P<sec>秒钟?|s(?:ec(?:ond)?s?)?(?![a-z]))|(?P<min>分钟|mins?(?:utes?)?(?![a-z]))"
             r"|(?P<hour>个?小时|h(?:ou)?rs?(?![a-z])|h(?![a-z0-9]))|(?P<day>天|days?(?![a-z])))")
_JOB_LENGTH = [
    re.compile(rf"(?:每个|每次|每项|单个|各|每组[^\d,，。;；]*|(?:一个|一次|单次)(?=\s*(?:任务|作业|实验|跑|要|用|需要|耗时))|each|of|lasting|taking|averag(?:ing|e)|avg|at|[×*]|x(?=\s*\d))\s*(?:任务|作业|实验|job|run)?\s*(?:跑|用|要|需要|耗时|花)?\s*(?:大概|约|大约|about|around|~|roughly)?\s*"
               rf"(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:个)?\s*(?P<andhalf>半)?\s*{_LEN_UNIT}(?:\s*each)?"),
    re.compile(rf"(?P<n>{NUMBER_TEXT})\s*{_LEN_UNIT}\s*(?:each|apiece|a\s+piece|一个|一次|per\s+(?:job|run|task)|a\s+(?:job|run|task))"),
    re.compile(rf"(?P<n>{NUMBER_TEXT})[\s-]*{_LEN_UNIT}[\s-]+(?:long\s+)?(?:jobs?|runs?|tasks?|experiments?)(?![a-z])"),  # "a 30-minute job"
    # "一次大概 2.5 小时", "takes an hour and a half", "each run lasts 20 min"
    re.compile(rf"(?:一次|单次|一个任务|一轮|takes?|taking|lasts?|lasting|runs?\s+for)\s*(?:大概|约|大约|about|around|roughly|~)?\s*"
               rf"(?P<n>{NUMBER_TEXT})\s*(?:个)?\s*{_LEN_UNIT}(?P<andhalf>\s+and\s+a\s+half|半)?"),
]
_INCREMENT = re.compile(
    r"按(?:整)?(?P<zh>秒|分钟|小时|天)(?:计费|收费|计|算钱|取整|算)|(?:不足|不满)一(?P<zh2>小时|分钟|天)按一(?:小时|分钟|天)|"
    r"bill(?:s|ed|ing)?\s+(?:is\s+|goes\s+)?(?:per|by\s+the|in\s+(?:whole\s+)?)[\s-]*(?P<en>second|minute|hour|day)s?|"
    r"round(?:s|ed|ing)?\s+(?:\w+\s+){0,3}?up\s+to\s+(?:the\s+|an?\s+)?(?:whole\s+|full\s+)?(?:next\s+)?(?P<en2>second|minute|hour|day)|"
    r"(?P<adj>hourly|daily|per[\s-]second|per[\s-]minute|per[\s-]hour|per[\s-]day)\s+(?:billing|increments?|rounding)|"
    r"any\s+part\s+of\s+an?\s+(?P<en3>hour|day|minute)\s+counts|by[\s-]+the[\s-]+(?P<en4>second|minute|hour|day)(?=[\s-]*(?:billing|increments?|rounding|vs|or|,))"
)
_SWITCH = re.compile(r"(?:换成|改成|改为|换到|切到|换|改|对比|比|vs\.?|versus|instead\s+of|or|than|switch(?:ing|ed)?\s+to|mov(?:e|ing)\s+to|with|if|to)\s*(?:the\s+)?$")
_INC_WORDS = {"秒": "second", "分钟": "minute", "小时": "hour", "天": "day", "hourly": "hour", "daily": "day"}
_TERM = [
    re.compile(rf"(?:签|签约|签了|合约期|合同期|租期|期限|承诺|锁定|包)\s*(?:了|就是|就|要|满|为|是)?\s*(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:个)?\s*(?P<u>个月|月|年)"),
    re.compile(rf"(?P<n>{NUMBER_TEXT})[\s-]*(?P<u>months?|years?|yrs?)\)?[\s-]*(?:term|commit\w*|minimum|contract|plan|lock|reservation|reserved|deal|agreement)"),
    re.compile(rf"(?:minimum\s+)?(?:term|commitment|lock[\s-]*in|contract\s+(?:length|duration|period))\s*(?:of|is|:)?\s*(?P<n>{NUMBER_TEXT})[\s-]*(?P<u>months?|years?|yrs?)(?![a-z])"),
    re.compile(rf"(?:sign(?:ing|ed)?|commit(?:ting|ted)?|lock(?:ing|ed)?|term\s+of|contract\s+of|reserve)\s+(?:it\s+)?(?:to\s+|for\s+|in\s+)?(?:a\s+)?(?P<n>{NUMBER_TEXT})[\s-]*(?P<u>months?|years?)"),
    # "一年期合同", "三个月的合同", "半年合同", "两年租期": a period that names the contract's length
    re.compile(rf"(?:(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:个)?|(?P<half>半))\s*(?P<u>个月|月|年)\s*(?:期|的)?\s*(?:合同|合约|协议|期限|承诺|租期|长约)"),
    re.compile(rf"(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:个)?\s*(?P<u>个月|月|年)期(?!间)"),
    re.compile(rf"(?P<n>{NUMBER_TEXT})[\s-]*(?P<u>months?|years?)\s+(?:of\s+)?(?:commitment|term)"),
    # a minimum period: "半年起租", "3个月起签", "一年起", "最少租6个月"
    re.compile(rf"(?:(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:个)?|(?P<half>半))\s*(?P<u>个月|月|年)\s*(?:起租|起签|起步|起订|起)"),
    re.compile(rf"(?:最少|至少|最低|起码)\s*(?:要)?\s*(?:租|签)?\s*(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:个)?\s*(?P<u>个月|月|年)"),
]
_RESERVED = re.compile(
    rf"(?:reserv(?:e|ed|ing)|commit(?:ted)?|预留|预订|包)\s*(?:it\s+|them\s+)?(?:for\s+)?(?:a\s+)?(?:(?P<n>{NUMBER_TEXT})|(?P<half>半))\s*(?:个)?\s*"
    rf"(?P<u>个月|月|年|months?(?![a-z])|years?(?![a-z])|yrs?(?![a-z]))"
)
"""A period after a reserve/commit word ("H100 reserved 1 year at $1.95/hr", "预留一年 每卡时 10 元"): with a
price in the question it is the quote's term; without one ("reserved for 6 months") it stays a rental period."""
_YEARLY_TERM = re.compile(r"包年|年包|年付|年度(?:合同|套餐|承诺)|(?:annual|yearly)\s+(?:commit\w*|contract|term|plan|reservation|reserved|deal)")
"""A yearly plan named without a number of months: a 12-month commitment (times the years it is held, :data:`_YEARS_SAID`)."""
_YEARS_SAID = re.compile(rf"(?<![\d.])(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:个)?\s*(?:years?|yrs?|年)(?![a-z]|期|框|包|付|度)")
_YEARS = [
    re.compile(rf"(?:折旧|摊销|用|使用|按|over|for|across)\s*(?:期)?\s*(?:按)?\s*(?P<n>{NUMBER_TEXT})\s*(?:个)?\s*(?:年(?P<half>半)?|years?)(?![a-z])"),
    re.compile(rf"(?P<n>{NUMBER_TEXT})[\s-]*(?:years?|年)[\s-]*(?:horizon|depreciation|life(?:time)?|折旧|周期|里|中|间|下来)"),
]


_BASE = re.compile(rf"(?:基础负载|基本负载|常年|平时|base(?:\s+load)?|baseline|steady)\D{{0,12}}?(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:张|块|卡|台|x|×)?")
_PEAK = re.compile(rf"(?:高峰|峰值|旺季|peaks?|bursts?)\D{{0,12}}?(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:张|块|卡|台)?")


_JOBS_EVERY = [(re.compile(str(e["pattern"])), float(e["days"])) for e in lexicon()["calendar"]["jobs_every"]]
_EACH_JOB = re.compile(r"(?:每个|每次|每组|单个)\s*(?:任务|作业|实验)|(?<![a-z])(?:each|every|per)\s+(?:job|run|task|experiment)(?![a-z])")


def _n(m: re.Match[str]) -> str:
    return next(v for k, v in m.groupdict().items() if k in ("n", "n2", "n3", "n4", "n5", "n6", "n7") and v)


def _length(m: re.Match[str]) -> float:
    unit = next(k for k in _UNIT_HOURS if m.group(k))
    half = 0.5 if "andhalf" in m.re.groupindex and m.group("andhalf") else 0.0
    return (read_number(m.group("n")) + half) * _UNIT_HOURS[unit]


def extract_terms(scan: Scan) -> None:
    """Jobs and their length, billing increment, commitment term, ownership years."""
    jobs = [m for m in scan.find(_JOBS) + scan.find(_RUNS) if read_number(_n(m)) >= 2]
    jobs.sort(key=lambda m: m.start())
    if jobs or scan.has(_EACH_JOB):  # "what if each job takes 45 minutes instead?": a job length alone
        start = jobs[0].start() if jobs else 0
        if jobs:
            late = next((g for g in ("n5", "n6") if jobs[0].groupdict().get(g)), None)  # a count after its job: the job and
            at = jobs[0].start(late) if late else jobs[0].start()  # its length ("a 30-minute job run 200 times") stay to be read
            scan.take("jobs", int(read_number(_n(jobs[0]))), at, jobs[0].end())
            near = scan.norm[max(0, jobs[0].start() - 6) : jobs[0].end() + 12]  # "每天 40 个任务", "200 runs a month"
            if every := next((d for p, d in _JOBS_EVERY if p.search(near)), None):
                scan.values["jobs_every_days"] = every
        half_hour = scan.first(_HALF_HOUR)
        if half_hour:  # "每个半小时", "each takes half an hour", "half an hour each"
            scan.take("job_hours", 0.5, half_hour.start(), half_hour.end())
        for pattern in _JOB_LENGTH:
            found = next((x for x in scan.find(pattern) if x.start() >= start - 100), None)
            if found and "job_hours" not in scan.values:
                scan.take("job_hours", round(_length(found), 6), found.start(), found.end())
    named = scan.find(_INCREMENT)  # the increment billed now, not the one switched to ("按小时计费，换成按秒能省多少")
    m = next((x for x in named if not _SWITCH.search(scan.norm[max(0, x.start() - 12) : x.start()])), named[0] if named else None)
    for x in named:  # "不足一小时按一小时算": an increment's hour is no duration
        scan.take("increment_said", x.group(0), x.start(), x.end(), keep=True)
    if m:
        word = next(g for g in (m.group("zh"), m.group("zh2"), m.group("en"), m.group("en2"), m.group("en3"), m.group("en4"), m.group("adj")) if g)
        word = word.replace("-", " ").replace("per ", "")
        scan.values["increment"] = _INC_WORDS.get(word, word)
        scan.spans.append(_span(scan, "increment", scan.values["increment"], m))
    for pattern in _TERM:
        for m in scan.find(pattern):
            half = "half" in pattern.groupindex and m.group("half")
            value = 0.5 if half else read_number(m.group("n"))
            months = value * 12 if m.group("u").startswith(("年", "y")) else value
            if 0 < months <= 120 and "term_months" not in scan.values:
                scan.take("term_months", months, m.start(), m.end())
    reserved = scan.first(_RESERVED) if scan.values.get("_amounts") else None
    if reserved and "term_months" not in scan.values:
        value = 0.5 if reserved.group("half") else read_number(reserved.group("n"))
        months = value * 12 if reserved.group("u").startswith(("年", "y")) else value
        if 0 < months <= 120:
            scan.take("term_months", months, reserved.start(), reserved.end())
    yearly = _YEARLY_TERM.search(scan.norm, 0, scan.limit)  # in the text as said: "包年 15 万" is also the price
    if "term_months" not in scan.values and yearly:
        held = next((read_number(m.group("n")) for m in scan.find(_YEARS_SAID) if 1 <= read_number(m.group("n")) <= 10), 1.0)
        scan.values["term_months"] = 12.0 * held  # not taken: 包年 is also the billing mode; "annual contract, 3 years": held 3 years
        scan.spans.append(_span(scan, "term_months", 12.0 * held, yearly))
    base, peak = scan.first(_BASE), scan.first(_PEAK)
    if base and peak and read_number(peak.group("n")) > read_number(base.group("n")) >= 1:
        scan.take("base_gpus", int(read_number(base.group("n"))), base.start(), base.end())
        scan.take("peak_gpus", int(read_number(peak.group("n"))), peak.start(), peak.end())
    for pattern in _YEARS:
        for m in scan.find(pattern):
            value = read_number(m.group("n")) + (0.5 if m.groupdict().get("half") else 0)  # "用两年半"
            if 0 < value <= 15 and "years" not in scan.values:
                scan.values["years"] = value  # not taken: "用5年" is also a duration for other tools
                scan.spans.append(_span(scan, "years", value, m))


def _span(scan: Scan, slot: str, value: object, m: re.Match[str]) -> Span:
    start, end, text = scan.source(m.start(), m.end())
    return Span(slot=slot, text=text, start=start, end=end, value=value)
