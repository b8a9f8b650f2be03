"""Everything else a question can set: pasted contract text and file paths, the method,
billing modes, project stages, precision and ZeRO stage, yes/no context for the rules
(urgent, interruptible, validated first, price locked), parallel experiments, top-k.
"""

from __future__ import annotations

import re

from advisor.assistant.offline.lexicon import (
    BILLING_MODES,
    FILE_EXTENSIONS,
    METHODS,
    PRECISIONS,
    STAGES,
    L,
    R,
    lexicon,
)
from advisor.assistant.offline.text import Scan
from advisor.numeric import COUNT_TEXT, read_number

CONTRACT_NOUN = re.compile(
    r"合同|协议|条款|合约|服务条款|contract|agreement|clause|terms\s+of\s+service|(?:the|these|those|its|their|our|rental|payment|[a-z]'s)\s+terms(?![a-z])|" + L + r"(?:sla|msa|tos)" + R
)
_CLAUSE = re.compile(
    r"甲方|乙方|第\s*[\d一二三四五六七八九十]+\s*条|自动续|续约|续费|不予|赔偿|补偿|违约|终止|计费|收费|租期|释放|"
    r"party\s+[ab]|the\s+(?:provider|customer|client|lessee|lessor|supplier|vendor)|shall|hereby|renew|terminat|liabil|"
    r"indemn|" + L + r"sla" + R + r"|notice|penalt|refund|commit|billed|invoice|released?|compensat|reclaim|minimum\s+spend|"
    r"provider|customer|uptime|credits?(?![a-z])|fees?(?![a-z])|remedy|revis|suspend|到期|删除|保留|逾期|不可恢复|数据盘|扣费|解约|违约金"
)
_QUOTE = re.compile(
    r"[“「『](?P<t>[^”」』]{6,})[”」』]|(?:(?<=[\s:,(])|^)[\"'‘](?P<u>(?:[^\"'’]|(?<=[a-z])['’](?=[a-z]))*[^\"'’]{6,}(?:[^\"'’]|(?<=[a-z])['’](?=[a-z]))*)[\"'’](?=[\s.,!?;:。！？)]|$)"
)
_SENTENCE_END = re.compile(r"[。.!?？；;]")
_ASKS_MEANING = re.compile(r"什么意思|啥意思|是什么|什么是|指什么|(?<![a-z])(?:mean|means|meaning|define|definition)(?![a-z])|what\s+is\s+an?\s")
_PASTE = re.compile(r"(?:[:?]|\n)\s*(?P<t>\S.{19,})$", re.S)
_FILE = re.compile(
    r"(?:(?<=[\s\"'“‘:(（])|^)(?P<p>[^\s\"'”’)）,;；]+?\.(?:" + "|".join(FILE_EXTENSIONS) + r"))(?![a-z0-9])"
    r"|(?P<q>[a-z0-9_./\\~-]+\.(?:" + "|".join(FILE_EXTENSIONS) + r"))(?![a-z0-9])"
)

_METHOD_RES = [(re.compile(p), v) for p, v in METHODS]
_BILLING_RES = [(re.compile(p), v) for p, v in BILLING_MODES]
_STAGE_RES = [(re.compile(p), v) for p, v in STAGES]
PRECISION_RES = [(re.compile(p), v) for p, v in PRECISIONS]
_ZERO = re.compile(L + r"zero[\s_-]*(?:stage)?[\s_-]*(?P<n>[0-3])(?![\d.])|deepspeed\s+stage\s*(?P<m>[0-3])")
_MICRO_BATCH = re.compile(r"micro[\s_-]*batch(?:[\s_-]*size)?\s*(?:=|:|of|is)?\s*(?P<n>\d+)|微批(?:次)?(?:大小)?\s*(?:=|:|为|是)?\s*(?P<m>\d+)")

_FLAG_RES = [(str(f["slot"]), f["value"], re.compile(str(f["pattern"]))) for f in lexicon()["flags"]]
"""Context said in words (lexicon ``flags``): urgent, interruptible, validated first, price locked, checkpointing, idle throughout."""
_EXPERIMENTS = [
    re.compile(rf"(?P<n>{COUNT_TEXT})\s*(?:组|个|套)\s*(?:并行|同时)?\s*(?:的)?\s*(?:实验|超参(?:实验|搜索)?|微调实验|训练任务)"),
    re.compile(rf"(?:同时|并行)\s*(?:跑|做|进行|开)?\s*(?P<n>{COUNT_TEXT})\s*(?:组|个)"),
    re.compile(rf"(?P<n>{COUNT_TEXT})\s*(?:parallel|concurrent|simultaneous)\s*(?:experiments|runs|jobs|trials|fine[\s-]*tunes)"),
    re.compile(rf"(?P<n>{COUNT_TEXT})\s*(?:experiments|trials|sweeps|hyperparameter\s+(?:runs|trials))(?![a-z])"),
]
_TOP_K = re.compile(rf"top[\s-]*(?P<n>{COUNT_TEXT})(?![a-z0-9])|前\s*(?P<m>{COUNT_TEXT})\s*(?:个|名|种|款)")


def extract_documents(scan: Scan) -> None:
    """Pasted or quoted contract text (taken whole, so its numbers are not read as slots),
    and file paths."""
    question_has_noun = bool(CONTRACT_NOUN.search(scan.norm))
    candidates = []
    for pattern, end in ((_PASTE, len(scan.norm)), (_QUOTE, scan.limit)):
        m = pattern.search(scan.norm, 0, end)  # a pasted document runs to the end, however long
        if m:
            group = "t" if m.group("t") is not None else "u"
            candidates.append((m.start(group), m.end(group)))
    if len(candidates) == 2:
        (ps, pe), (qs, qe) = candidates
        # a quoted clause inside a pasted remark ("写：“…”。有问题吗"): the quote is the text
        candidates = [(qs, qe)] if ps <= qs and qe <= pe and (pe - ps) - (qe - qs) < 15 else candidates[:1]
    for start, end in candidates:
        body = scan.norm[start : min(end, start + 5000)]  # enough to tell a contract
        if _CLAUSE.search(body) and (question_has_noun or len(_CLAUSE.findall(body)) >= 2):
            scan.take("text", scan.source(start, end)[2].strip(), start, end)
            scan.values["_document_start"] = start
            if end >= len(scan.norm) - 1:
                scan.end_question_at(start)
            break
    quoted = _QUOTE.search(scan.norm, 0, scan.limit) if "text" not in scan.values and question_has_noun else None
    if quoted and not _ASKS_MEANING.search(scan.norm[: scan.limit]):
        # "The MSA excludes 'software licenses …' from the rate. What should I flag?": a quoted term of a
        # named contract is a clause to review, read with the sentence that carries it
        head = scan.norm[: quoted.start()]
        start = max((head.rfind(c) + 1 for c in "。.!?？；;:：，,"), default=0)
        tail = _SENTENCE_END.search(scan.norm, quoted.end(), scan.limit)
        end = tail.end() if tail else scan.limit
        scan.take("text", scan.source(start, end)[2].strip(), start, end)
        scan.values["_document_start"] = start
    for m in scan.find(_FILE):
        group = "p" if m.group("p") else "q"
        path = scan.source(m.start(group), m.end(group))[2]
        scan.take("file", path, m.start(group), m.end(group), keep=True)
        scan.values.setdefault("files", []).append(path)


def extract_stages(scan: Scan) -> None:
    """Project stages in the order named (read without taking: "预训练" is also a method);
    every mention is kept in ``_stage_mentions`` for the per-stage reader (:mod:`.stages`)."""
    found: list[tuple[int, str]] = []
    mentions: list[tuple[int, str]] = []
    for pattern, stage in _STAGE_RES:
        m = next((x for x in scan.find(pattern) if pattern.match(scan.norm, x.start())), None)  # as said: "微调的 qwen" is a model
        if m:
            found.append((m.start(), stage))
        mentions.extend((x.start(), stage) for x in pattern.finditer(scan.norm, 0, scan.limit))
    trains = any(stage in ("finetune", "pretrain") for _, stage in found)
    load = next((x for x in scan.spans if x.slot == "tokens_per_day"), None)
    if trains and load is not None and all(stage != "serving" for _, stage in found):
        # "先 qlora 2000万token，然后每天100万token跑3个月": a daily load after training is its serving stage
        found.append((load.start, "serving"))
        mentions.append((load.start, "serving"))
    if found:
        scan.values["stage_names"] = [stage for _, stage in sorted(found)]
        scan.values["_stage_mentions"] = sorted(mentions)


_NEGATED = re.compile(r"(?:(?<![a-z])(?:not|no|without|never|avoid)|不用|不要|不是|不能用|别用|非|没有)\s*(?:the\s+|a\s+|用)?$")


def extract_choices(scan: Scan) -> None:
    """Method, billing modes (all, in order), precision, ZeRO stage, micro-batch."""
    for pattern, method in _METHOD_RES:
        m = scan.first(pattern)
        if m:
            scan.take("method", method, m.start(), m.end())
            break
    modes: list[tuple[int, str]] = []
    for pattern, mode in _BILLING_RES:
        for m in scan.find(pattern):
            if _NEGATED.search(scan.norm[max(0, m.start() - 8) : m.start()]):
                scan.take("billing_not", mode, m.start(), m.end(), keep=True)  # "not spot", "不用竞价"
                continue
            modes.append((m.start(), mode))
            scan.take("billing_mode", mode, m.start(), m.end(), keep=True)
    for sp in (x for x in scan.spans if x.slot == "gpu_mention"):  # "8 committed H800s": the word is inside the counted card
        modes.extend((sp.start, mode) for pattern, mode in _BILLING_RES if pattern.search(sp.text.lower()))
    if modes:
        scan.values["billing_modes"] = list(dict.fromkeys(mode for _, mode in sorted(modes)))
    for pattern, precision in PRECISION_RES:
        m = scan.first(pattern)
        if m:
            scan.take("precision", precision, m.start(), m.end())
            break
    m = scan.first(_ZERO)
    if m:
        scan.take("zero_stage", int(m.group("n") or m.group("m")), m.start(), m.end())
    m = scan.first(_MICRO_BATCH)
    if m:
        scan.take("micro_batch_size", int(m.group("n") or m.group("m")), m.start(), m.end())


def extract_ranking(scan: Scan) -> None:
    """"top 3" / "前三个" (before GPU counts: "top 3 GPU options" is not 3 GPUs)."""
    m = scan.first(_TOP_K)
    if m:
        n = read_number(m.group("n") or m.group("m"))
        if 0 < n <= 50:
            scan.take("top_k", int(n), m.start(), m.end())


_LORA_RANK = re.compile(r"(?:rank|秩)\s*(?:=|:|of|is|为|是|设为|设成)?\s*(?P<n>\d{1,4})(?![\d.])|(?<![a-z])r\s*=\s*(?P<m>\d{1,4})(?![\d.])")
_LORA_TARGETS = [
    ("attention", re.compile(r"(?:只|仅)\s*(?:训|在|加|挂|改|调)?\s*(?:attention|注意力)|attention[\s-]*(?:layers?|projections?)?\s*only|"
                             r"only\s+(?:on\s+)?(?:the\s+)?attention|(?<![a-z])q\s*,?\s*k\s*,?\s*v(?:\s*,?\s*o)?(?:[\s_-]*proj)?(?![a-z])")),
    ("all_linear", re.compile(r"(?:所有|全部)(?:的)?线性层|all[\s-]+linear(?:\s+layers)?")),
]


def extract_adapter(scan: Scan) -> None:
    """A LoRA adapter's rank ("rank 64", "r=16", "秩为8") and where it sits ("只训 attention", "q,k,v,o",
    "all linear layers")."""
    m = scan.first(_LORA_RANK)
    if m and 1 <= int(m.group("n") or m.group("m")) <= 4096:
        scan.take("lora_rank", int(m.group("n") or m.group("m")), m.start(), m.end())
    for value, pattern in _LORA_TARGETS:
        if (t := scan.first(pattern)) and "lora_targets" not in scan.values:
            scan.take("lora_targets", value, t.start(), t.end())


def extract_flags(scan: Scan) -> None:
    """Yes/no context and parallel experiments."""
    for slot, value, pattern in _FLAG_RES:
        if slot in scan.values:
            continue
        m = scan.first(pattern)
        if m:
            scan.take(slot, value, m.start(), m.end())
    for pattern in _EXPERIMENTS:
        m = scan.first(pattern)
        if m and "parallel_experiments" not in scan.values:
            n = read_number(m.group("n"))
            if 1 < n <= 10_000:
                scan.take("parallel_experiments", int(n), m.start(), m.end())
