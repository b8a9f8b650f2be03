"""Workload slots: the model ("Llama-3-8B", "千问2.5 72B", "DeepSeek-V3", "a 13B model",
"70亿参数"), and the data ("1亿token", "2T tokens", "5万条", "每条800个token", "3个epoch",
"10GB of text", "seq len 4k").

Token counts are kept as plain counts here (``tokens``); :mod:`.project` decides whether
they are the total (``tokens_b``) or one pass over the data (``dataset_tokens_b``).
"""

from __future__ import annotations

import re

from advisor.assistant.offline.lexicon import (
    DEFAULT_VERSION_BY_SIZE,
    MODEL_FAMILIES,
    MODEL_FORMATS,
    SIZED_VERSIONS,
    L,
    R,
    lexicon,
)
from advisor.assistant.offline.text import Scan
from advisor.catalog import get_catalog
from advisor.catalog.catalog import find_names
from advisor.numeric import COUNT_TEXT, GROUPED_DIGITS, NUMBER_TEXT_NO_WORDS, read_number

TEXT_SIZES = ("workload.bytes_per_token_dataset", "workload.tokens_per_character", "workload.tokens_per_word")
"""Data given as stored bytes, Chinese characters or English words: the defaults (knowledge/catalog/defaults.yaml,
with their sources) that turn it into tokens, noted with the answer."""

SAMPLE_LENGTH_LIMIT = 100_000
"""A token count below this, written without a per-sample word, is a sample length (``800
tokens``), not a data set: no fine-tuning data set is that small, and no sample that long."""

_FAMILY = "|".join(f"(?P<f_{key}>{pattern})" for key, pattern in MODEL_FAMILIES)
_VARIANT = r"(?:[\s_-]*(?:instruct|chat|base|coder|math|llm|moe|mini|small|medium|distill(?:[\s_-]*(?:qwen|llama))?))*"
_VARIANT_END = r"(?:[_-](?:instruct|chat|base|hf|it)|\s+(?:instruct|chat|base))*"
_MODEL = re.compile(
    rf"{L}(?:{_FAMILY})"
    rf"(?:[\s_-]*(?P<ver>v\d+(?:\.\d+)?|r1|\d+(?:\.\d+)?)(?![\d.]*\s*[bm](?![a-z0-9]))(?![\d.]*\s*(?:x|×)\s*\d))?"
    rf"(?P<variant>{_VARIANT})"
    rf"(?:[\s_-]*(?P<size>(?:\d+\s*[x×]\s*)?\d+(?:\.\d+)?)\s*(?P<unit>b|m)(?![a-z0-9]))?"
    rf"(?:[\s_-]*a(?P<active>\d+(?:\.\d+)?)b)?{_VARIANT_END}{R}"
)
_PARAMS = [
    re.compile(r"(?<![\d.])(?P<n>\d+(?:\.\d+)?\s*(?:b|bn|billion))(?![a-z0-9])(?:\s*-?\s*(?:param\w*|参数))?"),
    re.compile(r"(?<![\d.])(?P<n>\d+(?:\.\d+)?\s*(?:m|million))\s*-?\s*(?:param\w*|参数|的?模型|model)"),
    re.compile(rf"(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:个)?\s*(?:参数|params?(?![a-z])|parameters)"),
    re.compile(rf"(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:级)?\s*(?:的)?\s*(?:大)?模型"),
    re.compile(rf"参数(?:量|规模)?\s*(?:是|为|有|:|大概|约|=)*\s*(?P<n>{NUMBER_TEXT_NO_WORDS})"),
]
_ACTIVE = [
    re.compile(r"(?:激活(?:参数)?|active(?:\s+params?)?|activated)\s*(?:量|为|是|:|of)?\s*(?P<n>\d+(?:\.\d+)?\s*b)(?![a-z0-9])"),
    re.compile(r"(?P<n>\d+(?:\.\d+)?\s*b)\s*(?:active|激活)"),
]
_TOK = r"(?:个)?\s*(?:tokens?|词元|tok)(?![a-z])"
_LEN = rf"(?:{_TOK}|\s*(?P<chars>个?(?:汉)?字(?!节)|characters?|chars)|\s*(?P<words>个?(?:英文)?单词|words?)(?![a-z]))"
"""A sample's length: tokens, or characters/words turned into tokens by :data:`TEXT_SIZES`."""
_TEXTS = r"articles?|papers?|reports?|tickets?|emails?|transcripts?"
_PER_SAMPLE = [
    re.compile(
        rf"每(?:一)?(?:条|篇|份|个样本|个样例|个对话|段对话|个sample|个example|个?数据)\s*(?:数据|样本|对话)?\s*"
        rf"(?:平均|大概|大约|约|差不多|长度|长|有|是|为|:|~|在)*\s*(?P<n>{NUMBER_TEXT_NO_WORDS})\s*{_LEN}?"
    ),
    re.compile(
        rf"(?P<n>{NUMBER_TEXT_NO_WORDS})\s*{_LEN}\s*(?:/\s*(?:条|篇|sample|example|样本)|每条|一条|(?<![a-z])each|apiece|"
        rf"per\s+(?:sample|example|row|record|conversation|pair|instruction|item|dialogue|doc\w*|prompt|query|sequence|{_TEXTS}))"
    ),
    re.compile(rf"(?:平均|avg\.?|average|mean)\s*(?:每条|长度|length|of|is|:|大概|约|~|about|around)*\s*(?P<n>{NUMBER_TEXT_NO_WORDS})\s*{_TOK}"),
    re.compile(rf"(?:平均|avg\.?|average|mean)\s*(?:样本)?(?:长度|length|len)\s*(?:是|为|:|of|is|约|大概|~|about)?\s*(?P<n>{NUMBER_TEXT_NO_WORDS})(?![\d.])(?!\s*(?:%|天|小时|字|秒))"),
    re.compile(
        rf"(?:samples?|examples?|pairs?|conversations?|rows?|records?|instructions?|dialogues?|documents?|docs|prompts?|{_TEXTS})"
        rf"(?P<t>\s*(?:of|at|with|averaging|,)\s*(?:~|about|around|roughly|approx\.?|avg\.?)?\s*(?P<n>{NUMBER_TEXT_NO_WORDS})\s*{_LEN}(?:\s*each)?)"
    ),
    re.compile(rf"(?P<n>{NUMBER_TEXT_NO_WORDS})\s*-?\s*tokens?\s+(?:samples?|examples?|sequences?|conversations?|pairs?|instructions?)"),
]
_TOKENS_PER_DAY = re.compile(  # "每天5000万token", "日请求量折合8000万token", "daily load of 20M tokens"
    r"(?:每天|每日|日均|一天|(?<![\u4e00-\u9fff])日|per\s+day|a\s+day|daily|/\s*day)\s*(?:的)?\s*"
    r"(?:请求量|调用量|流量|吞吐量?|输出|生成量|用量|token量|量|折合|合计|总共|大概|大约|约|差不多|平均|预计|估计|能有|有|要|生成|处理|调用|最多|最高|峰值|高峰|顶多|至多|也就|就|不到|不超过|"
    r"load|traffic|volume|output|generation|usage|throughput|demand|of|about|around|roughly|maybe|only|just|at\s+most|up\s+to|under|~|≈|\s)*$"
)
_LOAD_PER_DAY = re.compile(  # "流量涨到一天2亿", "每天5000万": a daily amount with no unit is a token load
    rf"(?:每天|每日|日均|一天|per\s+day|a\s+day|daily)\s*(?:涨到|到|达到|有|要|约|大概)?\s*(?P<n>{NUMBER_TEXT_NO_WORDS})"
    r"(?![\d.])(?!\s*(?:%|[条个张卡台次人元块小时天月年]|美元|dollars?|usd|rmb|cny|\$|gpus?|cards?|hours?|h(?![a-z0-9])|requests?|users?|samples?))"
)
_RATE_UNIT = re.compile(r"(?:每|(?<![a-z])per|/|(?<![a-z])a|一)\s*$")  # "每百万token"; not the "a" ending "qlora"
_TOKENS_PER_DAY_AFTER = re.compile(r"^\s*(?:(?:per|a|/|每|each|every)\s*(?:day|天|d)(?![a-z])|daily(?![a-z])|一天|每天)")
_TOKENS = [
    re.compile(rf"(?P<n>{NUMBER_TEXT_NO_WORDS})\s*-?\s*{_TOK}"),  # "150M-token dataset"
    # a daily load named by its side: "5M output tokens/day", "1B generated tok a day", "每天 3000 万输出 token" reads by the first
    re.compile(rf"(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:output|generated|completion|input|prompt|输出|生成|输入)\s*{_TOK}"
               rf"(?=\s*(?:(?:per|a|/|每|each|every)\s*(?:day|天|d)(?![a-z])|daily(?![a-z])|一天|每天))"),
    # "数据缩到一亿呢", "语料 50 亿": a data amount in 亿 with no unit is tokens (no sample set is that many rows)
    re.compile(r"(?:数据|语料|训练数据)(?:量)?\s*(?:改成|缩到|缩减到|减到|降到|加到|涨到|扩到|增加到|变成|到|是|为|有|共|一共|大概|约)*\s*(?P<n>\d+(?:\.\d+)?\s*亿)(?!\s*(?:条|篇|份|个|张|元|块|美元|字|词))"),
    re.compile(rf"(?:tokens?|token数|token量|词元数|训练量)\s*(?:(?:数|量|总数|总量|合计|总计)\s*)*(?:是|为|有|:|=|约|大概|of|about|around|减到|降到|减少到|"
               rf"增加到|加到|涨到|增到|改成|改为|变成|翻到|(?:cut|reduced?|increased?|raised?|down|dropped)\s+to|goes\s+to)*\s*(?P<n>{NUMBER_TEXT_NO_WORDS})(?!\s*(?:%|个?小时|天|b\s*(?:model|参数)))"),
]
_BYTES = re.compile(
    r"(?P<n>\d+(?:\.\d+)?)\s*(?P<u>pb|tb|gb|mb|p|t|g|m)(?:\s*(?:of|的))?\s*(?:(?:raw|clean(?:ed)?|plain|english|chinese|中文|英文)\s+)?"
    r"(?:(?:jsonl?|csv|parquet|txt)\s*(?:的)?\s*)?(?:text|data(?:set)?|corpus|files?|文本|数据|语料|训练数据|的数据|文件)"
)
_BYTES_AFTER = re.compile(
    r"(?:语料|数据|文本|训练数据|text|corpus|dataset|data)\s*(?:量|大小|规模|总量|size)?\s*(?:是|为|有|约|大概|大约|:|of|is|about|~)*\s*"
    r"(?P<n>\d+(?:\.\d+)?)\s*(?P<u>pb|tb|gb|mb|p|t|g|m)(?![a-z])"
)
_EGRESS = re.compile(
    r"(?:egress|出口流量|传出|下载|跨区域?传输|跨地域传输|transfer(?:ring)?\s+out|迁出|outbound)\D{0,12}?"
    r"(?P<n>\d+(?:\.\d+)?)\s*(?P<u>pb|tb|gb|p|t|g)(?![a-z])"
)
_EGRESS_AFTER = re.compile(r"(?P<n>\d+(?:\.\d+)?)\s*(?P<u>pb|tb|gb|p|t|g)(?![a-z])\s*(?:of\s+)?(?:egress|outbound|data\s+transfer\s+out|出口流量|下载流量)")
_GB = {"p": 1e6, "pb": 1e6, "t": 1e3, "tb": 1e3, "g": 1.0, "gb": 1.0, "m": 1e-3, "mb": 1e-3}
_SAMPLES = [
    re.compile(rf"(?<!第)(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:多)?\s*(?:条|篇|份|个样本|个样例|组对话|个对话|段对话|个问答对|组问答)"),
    re.compile(
        rf"(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:多)?\s*(?:个)?\s*(?:[a-z]+(?:[\s-]+tuning)?\s+)?"
        r"(?:samples?|sampels|smaples|examples?|exmaples|instruction\s+pairs?|instructions?|pairs?|conversations?|convos?|dialogues?|dialogs?|chats?|rows?|records?|"
        rf"q&a\s+pairs?|qa\s+pairs?|prompts?|documents?|docs|items?|{_TEXTS})(?![a-z])"
    ),
    re.compile(rf"(?:样本|样例|数据|对话)(?:量|数|条数)\s*(?:是|为|有|:|大概|约|=)*\s*(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:条|个)?"),
    re.compile(rf"(?P<n>{NUMBER_TEXT_NO_WORDS})\s*(?:多)?\s*(?:个)?\s*(?:样本|样例)"),
]
_EPOCHS = [
    re.compile(rf"(?<![\d.])(?<![算看讲说查过])(?P<n>{COUNT_TEXT}|\d+\.\d+)\s*(?:个)?\s*(?:epochs?|epoches|epocs?|epcohs?|eps?(?![a-z])|轮(?!对话|实验)|遍|pass(?:es)?(?![a-z]))"),
    re.compile(rf"(?:epochs?|轮数)\s*(?:=|:|是|为|设为|设置为|of|砍到|减到|降到|改成|改为|变成|加到|增加到|提到|(?:cut|reduced?|down|increased?|raised?|up)?\s*to)?\s*(?P<n>{COUNT_TEXT})(?![\d.])"),
]
_SEQ = [
    re.compile(
        rf"(?:seq(?:uence)?(?:[\s_-]*len(?:gth)?)?|序列长度|最大长度|截断长度|上下文(?:长度|窗口)?|context(?:\s+(?:length|window|len))?|"
        rf"max[\s_-]*(?:seq[\s_-]*)?len(?:gth)?|ctx|cutoff[\s_-]*len)\s*(?:=|:|是|为|of|is|设为|用|开到)?\s*(?P<n>(?:{GROUPED_DIGITS}|\d+(?:\.\d+)?)\s*k?)(?![a-z0-9])"
    ),
    re.compile(rf"(?P<n>(?:{GROUPED_DIGITS}|\d+(?:\.\d+)?)\s*k?)\s*(?:的)?\s*(?:-\s*token\s+)?(?:context|上下文|序列长度|序列|seq(?:uence)?s?(?![a-z]))"),
]


_SIZE_BEFORE = re.compile(r"(?<![\d.])(?P<size>\d+(?:\.\d+)?)\s*b\s*(?:的|-)?\s*$")  # "a 9B glm", "7B 的千问"


def _model_name(m: re.Match[str], size_before: str = "") -> tuple[str, float | None, float | None, bool]:
    """(catalog-ish id, size in billions, active size in billions, size known); a size written before the
    family ("a 9B glm") counts as its size."""
    family = next(k[2:] for k, v in m.groupdict().items() if k.startswith("f_") and v is not None)
    ver = (m.group("ver") or "").replace(" ", "")
    size_text = (m.group("size") or size_before).replace(" ", "").replace("×", "x")
    unit = m.group("unit") or "b"
    size_b: float | None = None
    size = ""
    if size_text:
        size = f"{size_text}{unit}"
        if "x" not in size_text:
            size_b = float(size_text) / (1000 if unit == "m" else 1)
    if family == "chatglm" and not ver and size_text == "6":
        ver = "3"
    if not ver and size:
        ver = DEFAULT_VERSION_BY_SIZE.get(family, {}).get(size, "")
    variant = re.sub(r"[\s_-]+", "-", (m.group("variant") or "").strip(" _-"))
    with_both, size_only, ver_only = MODEL_FORMATS[family]
    if ver and size:
        name = with_both.format(v=ver, s=size)
    elif size:
        name = size_only.format(v=ver, s=size)
    else:
        name = ver_only.format(v=ver, s=size) if ver else family
    if family == "deepseek" and variant and size and not ver:
        name = f"deepseek-{variant}-{size}"
    if family == "phi" and variant in ("mini", "small", "medium"):
        name = f"phi-{ver}-{variant}"
    listed = [x.id for x in get_catalog().models if x.id.startswith(ver_only.split("{")[0]) and x.id.endswith(f"-{size}")]
    if size and name not in listed and len(listed) == 1 and (not ver or ver in listed[0]):
        name = listed[0]  # "glm 9b", "书生 8b": the one catalog model of that family and size
    active = float(m.group("active")) if m.group("active") else None
    known = bool(size) or (family, ver) in SIZED_VERSIONS or (family == "phi" and bool(variant or ver == "4"))
    return name, size_b, active, known


def extract_model(scan: Scan) -> None:
    """A named model ("Llama-3-8B", "千问2.5 72B") and MoE active parameters.

    Runs before the GPU and data slots, so that "8x7B" or "千问" are not read as counts.
    A name the catalog lists is its id; any other is read by the family grammar (its size,
    when written, sizes the job)."""
    hits = find_names("model", scan.work[: scan.limit])
    m = scan.first(_MODEL)
    hit = hits[0] if hits else None
    if hit and (m is None or hit.start <= m.start() or hit.start < m.end()):
        scan.take("model", hit.id, hit.start, _extend_variant(scan, hit.end))
    elif m:
        before = None if m.group("size") else _SIZE_BEFORE.search(scan.work[max(0, m.start() - 10) : m.start()])
        name, size_b, active, known = _model_name(m, before.group("size") if before else "")
        scan.take("model", name, m.start() - (len(before.group(0)) if before else 0), m.end())
        if size_b is not None:
            scan.values["model_size_b"] = size_b
        if active:
            scan.values["active_params_b"] = active
        if not known:
            scan.values["model_size_unknown"] = True
            if not m.group("ver") and not m.group("size"):
                # a bare family ("Llama-style 7B", "a llama model") names no model
                scan.values["model_family"] = scan.values.pop("model")
    for pattern in _ACTIVE:
        for m in scan.find(pattern):
            scan.take("active_params_b", read_number(m.group("n")) / 1e9, m.start(), m.end())


_TRAILING_VARIANT = re.compile(_VARIANT_END + R)


def _extend_variant(scan: Scan, end: int) -> int:
    """A catalog name followed by "-Instruct"/"-chat": the variant is part of the mention."""
    m = _TRAILING_VARIANT.match(scan.work, end)
    return m.end() if m else end


def extract_params(scan: Scan) -> None:
    """A bare model size ("7B", "a 13B model", "70亿参数", "千亿参数"), after the data slots
    have taken "600B tokens"."""
    for i, pattern in enumerate(_PARAMS):
        for m in scan.find(pattern):
            value = read_number(m.group("n"))
            if i in (2, 3, 4) and value < 1e6:  # "7参数"? sizes without a scale are not sizes
                if i == 4 and 0 < value < 5000:
                    value *= 1e9  # "参数量7" read as billions, as the CLI does
                else:
                    continue
            if 1e7 <= value <= 5e12:
                scan.take("params_b", round(value / 1e9, 6), m.start(), m.end())


_N = NUMBER_TEXT_NO_WORDS
_REQUEST = lexicon()["serving_load"]["request"]
_REQUESTS_PER_DAY = [  # "20k chats/day", "50k daily requests", "日均请求 50 万次", "一天处理 3 万个请求", "日调用量 10 万"
    re.compile(rf"(?P<n>{_N})\s*(?:个|次|条|通)?\s*(?:daily\s+)?{_REQUEST}\s*(?:(?:a|per|/|each|every)\s*day(?![a-z])|daily)|"
               rf"(?P<n2>{_N})\s*daily\s+{_REQUEST}"),
    re.compile(rf"(?:每天|每日|日均|一天|(?<![\u4e00-\u9fff])日)\s*(?:的)?\s*{_REQUEST}(?:量|数)?\s*(?:约|大概|大约|有|是|为|:|~)?\s*(?P<n>{_N})(?!\s*(?:[\d.万亿千百kmb]|(?:个)?\s*tok))"),
    re.compile(rf"(?:每天|每日|日均|一天)[^\d,，。;；?？!！]{{0,6}}?(?P<n>{_N})\s*(?:次|个|条|通)?\s*{_REQUEST}"),
]
_AVERAGE = r"(?:(?:平均|均|约|大概|大约|差不多|一般|长度|about|around|roughly|approx\.?|approximately|maybe|typically|usually|~|of|avg|average|on\s+average|is|are|:|=)\s*)*"
_TOKENS_OR_END = r"(?:tokens?|tok(?![a-z])|(?=\s*(?:[,，;；。)）]|\.(?!\d)|$)))"
"""Tokens of a request, or the number alone ending its clause ("输入平均 800 token，输出 300", "prompts ~1,200 tokens, answers ~250")."""
_PER_REQUEST = r"(?:each|per\s+(?:request|reply|response|call|answer|query|turn)|每次|每个请求|每条(?:回复|回答|请求)|每轮|一次)"
_OUTPUT_TOKENS = [
    re.compile(rf"(?P<n>{_N})\s*(?:个)?\s*(?:output|generated|completion|response|输出)\s*tokens?(?:\s*{_PER_REQUEST})?"),
    re.compile(rf"{_PER_REQUEST}\s*(?:输出|生成|回复|回答|output|generat\w*)\s*(?:约|大概|大约|about|~|of)?\s*(?P<n>{_N})\s*(?:个)?\s*(?:tokens?|tok)(?![a-z])"),
    re.compile(rf"(?P<n>{_N})\s*(?:个)?\s*tokens?\s+(?:per\s+|of\s+|for\s+the\s+)?(?:reply|replies|response|answer|output|completion)s?(?![a-z])|"
               rf"(?P<n2>{_N})\s*(?:个)?\s*tokens?\s*(?:出|out)(?![a-z])"),  # "400 tokens answer", "300 tokens of output"
    re.compile(rf"(?:输出|生成|回复|回答|outputs?|answers?|replies|responses?|completions?)\s*{_AVERAGE}(?P<n>{_N})\s*(?:个)?\s*{_TOKENS_OR_END}"),
]
_PER_PERSON = re.compile(r"(?:每人|每个?用户|人均|每位|per\s+(?:user|person|head))\s*$")
_DAILY_BEFORE = re.compile(r"(?:每天|每日|日均|一天|daily|a\s+day)\s*(?:的)?\s*$")
_PER_REQUEST_MAX = 200_000  # tokens of one request: more is a daily load or a data amount
_PROMPT_TOKENS = [
    re.compile(rf"(?P<n>{_N})\s*(?:个)?\s*(?:prompt|input|输入)\s*tokens?|(?P<n2>{_N})\s*(?:个)?\s*tokens?\s*(?:(?:of\s+|for\s+the\s+)?(?:prompt|input)s?|进|in)(?![a-z])"),
    re.compile(rf"(?:输入|提问|prompts?|inputs?)\s*{_AVERAGE}(?P<n>{_N})\s*(?:个)?\s*{_TOKENS_OR_END}"),
]

_IN_OUT = re.compile(rf"(?<![\d.])(?P<i>{_N})\s*(?:个)?\s*(?:tokens?\s*)?(?:in|进)(?![a-z])\s*(?:[,，/、]|and|,\s*and)?\s*"
                     rf"(?P<o>{_N})\s*(?:个)?\s*(?:tokens?\s*)?(?:out(?![a-z])(?!\s+of)|出(?!头|来|去|现|租|售|价))")
"""A request's tokens said as a pair ("800 tokens in, 300 out", "每次 800 进 300 出", "800 in / 300 out tokens")."""
_PROMPT_PLUS_OUTPUT = re.compile(
    rf"(?<![\d.])(?P<i>{_N})\s*(?:个)?\s*(?:tokens?\s*)?(?:prompt|input|输入)(?:\s*tokens?)?\s*(?:\+|&|/|,|，|、|and|plus|加)\s*"
    rf"(?P<o>{_N})\s*(?:个)?\s*(?:tokens?\s*)?(?:output|completion|generated|response|输出)(?![a-z])")
"""The pair said with the tokens' names ("600 prompt + 250 output tokens", "输入 1000 + 输出 300" reads by the single forms)."""


_RATE_SECONDS = {"s": 1.0, "m": 60.0}
_RATES = [  # "20 QPS", "QPS 为 50", "50 requests per second", "300 req/min", "每秒 20 个请求", "每分钟 300 次调用"
    re.compile(rf"(?P<n>{_N})\s*(?:qps|rps)(?![a-z])|(?<![a-z])(?:qps|rps)\s*(?:是|为|:|=|of|at|about|around|~|约|大概|大约|达到|到|有)*\s*(?P<n2>{_N})(?![\d.])"),
    re.compile(rf"(?P<n>{_N})\s*(?:个|次|条)?\s*{_REQUEST}\s*(?:/|per|a|each|every)\s*"
               r"(?:(?P<s>s|sec|secs|seconds?)|(?P<m>m|min|mins|minutes?))(?![a-z])"),
    re.compile(rf"每(?:(?P<s>秒)|(?P<m>分钟?))(?:钟)?\s*(?:约|大概|大约|有|要|处理)?\s*(?P<n>{_N})\s*(?:个|次|条)?\s*{_REQUEST}"),
]
_USERS = re.compile(rf"(?:日活(?:用户)?|dau|活跃用户)\s*(?:约|大概|大约|有|是|为|:|of|~)?\s*(?P<n>{_N})(?:\s*(?:人|个?用户))?|"
                    rf"(?P<n2>{_N})\s*(?:个)?\s*(?:日活(?:用户)?|dau|daily\s+(?:active\s+)?users|(?:active\s+)?users|employees|staff|people|seats|members|agents|用户|员工|同事|人)(?![a-z])")
_PER_USER = re.compile(
    rf"(?:每人|每个?用户|人均|每位(?:用户)?|each\s+(?:user|person)|per\s+(?:user|person|head))\s*(?:每天|每日|一天|a\s+day|per\s+day|daily)?\s*"
    rf"(?:约|大概|大约|平均|发|问|调用|请求|用|sends?|makes?|asks?|does|of|about|around|~)*\s*(?P<n>{_N})\s*(?:个|次|条)?\s*"
    r"(?:requests?|calls?|queries|questions?|messages?|prompts?|chats?|请求|调用|问答|对话|提问|消息)?|"
    rf"(?P<n2>{_N})\s*(?:个|次|条)?\s*(?:requests?|calls?|queries|questions?|messages?|prompts?)\s*(?:a|per)\s*(?:user|person|head)(?![a-z])|"
    rf"users?\s*,?\s*(?:who\s+)?(?:each\s+|(?=[^,，。;]*?(?:each|apiece)))(?:sends?|sending|makes?|making|asks?|asking|with|does|doing)?\s*"
    rf"(?:about|around|~)?\s*(?P<n3>{_N})\s*(?:requests?|calls?|queries|questions?|messages?|prompts?|chats?)|"
    # "2,000 employees x 30 queries a day", "2万 users daily, each 10 request"
    rf"(?:(?<![a-z])(?:x|times)(?![a-z])|[×*])\s*(?:about|around|~)?\s*(?P<n4>{_N})\s*(?:个|次|条)?\s*{_REQUEST}|"
    rf"(?<![a-z])each\s+(?:(?:about|around|~)\s*)?(?P<n5>{_N})\s*{_REQUEST}"
)


def extract_load(scan: Scan) -> None:
    """A serving load counted in requests ("2M requests a day", "日均请求 50 万次") and the tokens of each
    request ("500 output tokens each", "每次输出 300 token", "2k prompt tokens"), before data amounts."""
    per_user = scan.first(_PER_USER)
    if per_user and (users := scan.first(_USERS)):  # "日活 1 万，每人每天 20 次", "20k users, each sending 15 requests a day"
        n = next(per_user.group(g) for g in ("n", "n2", "n3", "n4", "n5") if per_user.group(g))
        scan.take("_requests_per_user", read_number(n), per_user.start(per_user.lastgroup or 0), per_user.end())
        scan.take("_users", read_number(users.group("n") or users.group("n2")), users.start(), users.end())
    if (pair := scan.first(_IN_OUT) or scan.first(_PROMPT_PLUS_OUTPUT)) and max(read_number(pair.group("i")), read_number(pair.group("o"))) <= _PER_REQUEST_MAX:
        scan.take("output_tokens", read_number(pair.group("o")), pair.start("o"), pair.end())
        scan.take("prompt_tokens", read_number(pair.group("i")), pair.start(), pair.start("o"))
    for slot, patterns, low in (("output_tokens", _OUTPUT_TOKENS, 1), ("prompt_tokens", _PROMPT_TOKENS, 1),
                                ("requests_per_day", _REQUESTS_PER_DAY, 10)):
        for pattern in patterns:
            for m in scan.find(pattern):
                value = read_number(m.group("n") or m.group("n2") if "n2" in pattern.groupindex else m.group("n"))
                before = scan.norm[max(0, m.start() - 6) : m.start()]
                if slot != "requests_per_day" and (value > _PER_REQUEST_MAX or _DAILY_BEFORE.search(before)):
                    continue
                if value >= low and slot not in scan.values and not _PER_PERSON.search(before):
                    scan.take(slot, value, m.start(), m.end())
    for pattern in _RATES:
        for m in scan.find(pattern):
            per = _RATE_SECONDS["m" if m.groupdict().get("m") else "s"]
            if "_requests_per_second" not in scan.values:
                scan.take("_requests_per_second", read_number(m.group("n") or m.group("n2")) / per, m.start(), m.end())


def finish_load(scan: Scan) -> None:
    """Requests a day from a rate (per second or minute, held for the hours of load a day: stated, else
    lexicon ``serving_load.hours_per_day``) or from daily users × each user's requests a day."""
    v = scan.values
    if "requests_per_day" in v:
        return
    if "_requests_per_second" in v:
        hours = v.get("hours_per_day")
        if hours is None:
            hours = float(lexicon()["serving_load"]["hours_per_day"])
            scan.note("serving.load_hours", hours, "h", "a request rate with no hours of load is held all day")
        v["requests_per_day"] = round(v["_requests_per_second"] * 3600 * hours, 6)
    elif "_users" in v:
        v["requests_per_day"] = v["_users"] * v["_requests_per_user"]
        scan.note("serving.requests_per_user", v["_requests_per_user"], "",
                  "as stated: requests a day = daily users × each user's requests")


def _text_size(scan: Scan, key: str) -> float:
    entry = get_catalog().defaults.get(key)
    scan.note(key, entry.value, entry.unit or "", entry.source or "")
    return float(entry.value)


def _per_token(scan: Scan, m: re.Match[str]) -> float:
    """Tokens per unit of a length written in characters or words (1 for tokens)."""
    unit = next((k for k in ("chars", "words") if m.groupdict().get(k)), None)
    return _text_size(scan, TEXT_SIZES[1 if unit == "chars" else 2]) if unit else 1.0


def extract_data(scan: Scan) -> None:
    """Sequence length, per-sample length, token totals, data sizes, samples, epochs."""
    for pattern in _SEQ:
        for m in scan.find(pattern):
            text = m.group("n").replace(" ", "").replace(",", "")
            value = float(text[:-1]) * 1024 if text.endswith("k") else float(text)
            if 64 <= value <= 2_000_000:
                scan.take("seq_len", int(value), m.start(), m.end())
    for pattern in _PER_SAMPLE:
        for m in scan.find(pattern):
            value = read_number(m.group("n")) * _per_token(scan, m)
            start = m.start("t") if "t" in pattern.groupindex else m.start()
            if 1 <= value < SAMPLE_LENGTH_LIMIT:
                scan.take("tokens_per_sample", int(value), start, m.end())
    for pattern in _TOKENS:
        for m in scan.find(pattern):
            value = read_number(m.group("n"))
            before, after = scan.window(m.start(), m.end(), before=20, after=10)  # "daily load of 20M tokens"
            if _RATE_UNIT.search(before):
                scan.take("rate_unit", value, m.start(), m.end(), keep=True)  # "每百万token成本": a unit, not data
                continue
            per_day_after = _TOKENS_PER_DAY_AFTER.search(after)
            if (daily := _TOKENS_PER_DAY.search(before)) or per_day_after:  # "1M tokens a day", "daily output of 5M tokens"
                end = m.end() + (per_day_after.end() if per_day_after else 0)  # the day is the rate's, not a billing mode
                scan.take("tokens_per_day", value, m.start() - len(before) + daily.start() if daily else m.start(), end)
            elif 0 < value < SAMPLE_LENGTH_LIMIT:
                scan.take("tokens_per_sample", int(value), m.start(), m.end())
            elif value > 0:
                scan.take("tokens", value, m.start(), m.end())
    if not any(k in scan.values for k in ("tokens_per_day", "tokens")):
        for m in scan.find(_LOAD_PER_DAY):
            value = read_number(m.group("n"))
            if value >= 1e5:
                scan.take("tokens_per_day", value, m.start(), m.end())
                break
    for m in scan.find(_EGRESS) + scan.find(_EGRESS_AFTER):  # "下载 500GB", "2 TB egress"
        scan.take("egress_gb", float(m.group("n")) * _GB[m.group("u")], m.start(), m.end())
    for m in scan.find(_BYTES) + scan.find(_BYTES_AFTER):
        if "tokens" in scan.values:
            break
        gigabytes = float(m.group("n")) * _GB[m.group("u")]
        scan.take("tokens", gigabytes * 1e9 / _text_size(scan, TEXT_SIZES[0]), m.start(), m.end())
    for pattern in _SAMPLES:
        for m in scan.find(pattern):
            value = read_number(m.group("n"))
            if value >= 10 and value == int(value):
                scan.take("samples", int(value), m.start(), m.end())
    for pattern in _EPOCHS:
        for m in scan.find(pattern):
            value = read_number(m.group("n"))
            if 0 < value <= 1000:
                scan.take("epochs", value if value != int(value) else int(value), m.start(), m.end())
