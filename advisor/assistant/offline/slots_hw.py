"""Hardware slots: GPU names with their counts ("8张A100", "2 nodes of 8 H100"), bare counts
("8卡", "256-GPU cluster"), caps ("at most 32 GPUs") and providers.

Values written to the scan: ``gpu`` (the chosen name), ``gpus`` (candidates when several are
weighed against each other), ``gpu_count``, ``max_gpus``, ``provider``.
"""

from __future__ import annotations

import re
from typing import Any

from advisor.assistant.offline.lexicon import lexicon
from advisor.assistant.offline.slots_misc import PRECISION_RES
from advisor.assistant.offline.text import Scan
from advisor.catalog import get_catalog
from advisor.catalog.catalog import find_names
from advisor.numeric import COUNT_TEXT, GROUPED_DIGITS, read_number

GPUS_PER_NODE = 8
"""GPUs in one machine when a question counts machines without saying how many cards each
has ("2台H100", "2 nodes of H100"). Source: NVIDIA DGX/HGX A100 and H100 systems carry 8
GPUs, the shape rental providers sell as a whole node."""

MAX_GPUS = 100_000  # a count above this is not a GPU count (a sequence length, a year, ...)

_UNGROUPED = r"(?:(?<!\d,)|(?!\d{3}(?![\d.])))"
"""Not the tail of a thousands group ("1,024张"): after "4096，" (a Chinese comma) "8张" is a count."""
_COUNT_AFTER = re.compile(r"\s*(?:张|块|片|台|(?:gpus?|cards?)(?![a-z0-9]))")
_WORDS = lexicon()["gpu_words"]
_QUANTITY_AFTER = re.compile(rf"\s*(?:{_WORDS['quantity_after']})")
_NODE_FORM = re.compile(_WORDS["node_form"], re.I)  # the cards sold as 8-card boards; "一台4090" is one card
_ATTACHED_VARIANT = re.compile(rf"(?<=\d)(?:{_WORDS['variant']})(?![a-z0-9])")  # "4090d", "3090ti"
_SPEC_AFTER = re.compile(rf"(?:[\s-]*(?:{_WORDS['variant']}|{_WORDS['form']})(?![a-z0-9]))+")
_VARIANT = re.compile(rf"(?<![a-z])(?:{_WORDS['variant']})$")
_LEFT_BARE = re.compile(rf"(?<![\d.])(?P<m>{COUNT_TEXT})\s*(?:个|台|x|×|\*)?\s*$")
_MEASURE = r"(?:x|×|\*|张|块|片|卡|个|颗|枚|-?\s*gpus?|-?\s*cards?)"
_STATE = (r"(?:(?:idle|spare|free|available|unused|rented|reserved|committed|dedicated|extra|more|new|our|of\s+our|空闲|闲置|现有|可用|"
          r"nvidia|amd|huawei|英伟达|华为|国产|\d{2,3}\s*gb?(?![a-z]))\s*(?:的)?\s*)?")
"""A word between a count and its card ("24 idle A100s", "8 spare H100", "16 张空闲的 A800", "8 张华为 910B")."""
_LEFT_COUNT = re.compile(rf"(?<![\d.])(?!(?<=[a-z])\d){_UNGROUPED}(?P<n>{COUNT_TEXT})\s*{_MEASURE}?\s*(?:的)?\s*{_STATE}(?:-\s*)?$")
_NODE_WORD = r"(?:nodes?|machines?|servers?|boxes|hosts?|instances?|台(?:机器|服务器|主机)?)"
_LEFT_NODES = re.compile(
    rf"(?<![\d.]){_UNGROUPED}(?P<m>{COUNT_TEXT})\s*(?:个)?\s*{_NODE_WORD}\s*(?:of|with|each\s+with|x|×|\*|,)?\s*$"
)
_LEFT_NODES_ONLY = re.compile(rf"(?<![\d.]){_UNGROUPED}(?P<m>{COUNT_TEXT})\s*(?:台|(?:nodes?|machines?|servers?)\s+of)\s*$")
_RIGHT_COUNT = re.compile(  # "A100 x8", "A100 80GB x8", "H20（8卡）", "A800 8卡"
    rf"^\s*(?:\d{{2,3}}\s*g(?:i?b)?(?![a-z])\s*)?(?:gpus?|cards?|显卡)?\s*(?:(?:x|×|\*)\s*(?P<a>{GROUPED_DIGITS}|\d+)(?!\d|\.\d)|[(（]?\s*(?P<b>{COUNT_TEXT})\s*(?:张|块|卡|片)(?!\s*(?:时|小时|每|[一每]\s*(?:个)?\s*(?:月|天|日|年|周|小时))))"
)
_MACHINE_CARDS = rf"(?P<k>单|双|{COUNT_TEXT})\s*(?:卡|gpu)\s*(?:的)?\s*"
_LEFT_MACHINES_OF = re.compile(rf"(?<![\d.])(?P<m>{COUNT_TEXT})\s*(?:个)?\s*台\s*(?:的)?\s*{_MACHINE_CARDS}$")  # "2台双卡 3090"
_RIGHT_MACHINES_OF = re.compile(rf"^\s*(?:的)?\s*{_MACHINE_CARDS}(?:机器?|服务器|主机|节点|实例)")  # "10台 4090 单卡机"
"""Machines counted with their cards ("N 台单卡机" is N cards, "N 台 8 卡机" 8N): the cards of one machine × machines."""
_RIGHT_NODE_WORD = re.compile(r"^\s*(?:的)?\s*(?:服务器|机器|主机|整机|nodes?|servers?|machines?|boxes)")
_CAP = re.compile(
    r"(?:最多(?:给到|能给|能用|可用|有|只能用)?|至多|顶多|最多只有|不超过|不能超过|只有|仅有|at\s+most|up\s+to|no\s+more\s+than|"
    r"max(?:imum)?(?:\s+of)?|limit(?:ed)?\s+to|cap(?:ped)?\s+(?:at|of)|only\s+have|we\s+have)\s*$"
)
_RANGE_LEFT = re.compile(rf"(?:(?<![\d.a-z])(?P<lo>{COUNT_TEXT})\s*(?:张|块|卡)?\s*(?:-|~|–|—|到|至|or|to)|between\s+(?P<lo2>{COUNT_TEXT})\s+and)\s*$")
"""The low end of a range of cards ("4-8 张 H100", "4到8卡", "between 4 and 8 H100s"): the cards are a choice
up to the high end, which is the cap (an estimate prices it, and says so)."""
_TARGET = re.compile(r"(?:换成|改成|改用|换用|换为|改为|换到|切换到|switch(?:ing)?\s+to|mov(?:e|ing)\s+to|go\s+with|use)\s*$")
_ASSUMED = re.compile(r"(?:(?:先|就|那就|暂且|姑且|暂时)?\s*按|(?:先|就|那就|暂且|姑且|暂时)\s*用)\s*$|(?<![a-z])(?:assum(?:e|ing)|"
                      r"let'?s\s+(?:go\s+with|use)|say|price\s+it\s+(?:on|with|as|for)|based\s+on|"
                      r"(?:for\s+now|to\s+start)\s*,?\s*(?:use|take))\s*$")
"""A card the asker settles on for the figures ("不知道用 4090 还是 3090，先按 2 张 3090 算", "let's go with 2 A100s",
"for now assume 8 H200s"): the choice is made."""
_SOURCE_BEFORE = re.compile(r"(?:instead\s+of|rather\s+than|而不是|不是|from|把)\s*$")
_SOURCE_AFTER = re.compile(r"^\s*(?:换成|改成|换为|改为|换到|to\s+)")
_OUT_BEFORE = re.compile(r"(?:不用|不要|不考虑|不选|别用|别选|别推荐|排除|除了|除去|去掉|(?:don'?t|do\s+not|won'?t|not)\s+(?:use|go\s+with|rent|take|want)|"
                         r"(?<![a-z])(?:not|no|exclud\w*|skip|avoid|except|without|other\s+than|besides|drop|minus)(?:\s+(?:the|any|an?))?)\s*$")
_OUT_AFTER = re.compile(r"^(?:s|\s*(?:[,，、和与/]|and|or)?\s*[a-z]*\d{2,4}[a-z]*)*\s*(?:不要了|不考虑|就算了|排除|除外|以外|之外|没货|缺货|买不到|租不到|太贵|那种|are\s+out|is\s+out|out\s+of\s+stock)")
"""A card left out ("不要 4090", "no H100s", "A100 就算了", "skip the 4090"): with no other card chosen, an exclusion."""
_CARD = r"(?:张|块|片)?\s*(?:-\s*)?(?:显卡|卡|gpus?|cards?|npus?|accelerators?)"
_BARE_COUNT = re.compile(
    rf"(?:(?<![\d.]){_UNGROUPED}(?P<m>{COUNT_TEXT})\s*(?:个)?\s*{_NODE_WORD}\s*(?:of|with|each\s+with|x|×|\*|,)?\s*)?"
    rf"(?<![\d.a-z])(?<![a-z]-){_UNGROUPED}(?P<n>{COUNT_TEXT})\s*{_CARD}(?!\s*[-·]?\s*(?:时|小时|h(?:ou)?rs?(?![a-z])))"
)
_COUNT_FIELD = re.compile(
    rf"(?:卡数|gpu\s*数量?|显卡数量?|(?<![\u4e00-\u9fff])数量|number\s+of\s+(?:gpus|cards)|gpu\s+count|num[\s_-]*gpus|gpus\s*[:=])\s*(?:是|为|用|:|=|of|is)?\s*"
    rf"(?P<cap>不超过|不能超过|最多|至多|上限|封顶|at\s+most|up\s+to|max(?:imum)?(?:\s+of)?|capped\s+at|limited\s+to|<=?)?\s*(?P<n>{COUNT_TEXT})(?![\d.])(?!\s*(?:条|篇|份|万|亿|[kmb](?![a-z])|tokens?))"
)
_MEASURE_BEFORE_CARD = re.compile(r"\s*(?:卡|x|×|\*)\s*|(?P<space>\s+)")
_PLURAL_AFTER_CARD = re.compile(r"s\b|\s*(?:gpus?|cards?)\b", re.IGNORECASE)
_ONLY_HAD = re.compile(rf"(?<![a-z])(?:had|have|get|got|use|using|given|with|only)\s+(?:only\s+|just\s+)?(?P<n>{COUNT_TEXT})\s*[?？.!！]*\s*$")
"""A count alone at the end of a follow-up ("What if we only had 4?", "and with 16?"): the cards of the job."""
_BARE_ZHANG = re.compile(rf"(?<![\d.a-z])(?<![a-z]-)(?P<n>{COUNT_TEXT})\s*(?:张|块)(?=\s*(?:呢|吧|的话|行|够|可以|能|[?？,，。!！]|$))")
_OF_THEM = re.compile(rf"(?<![\d.])(?P<n>{COUNT_TEXT})\s+(?:of\s+(?:them|those|these|the\s+same)|in\s+total)(?![a-z])")
# a card-like name the catalog does not know, written before a card word ("Z9000 卡", "MI999 GPUs"):
# the tool is asked for it by name and refuses it with close matches, never a default card
_UNLISTED_CARD = re.compile(rf"(?<![a-z0-9])(?P<name>[a-z]{{1,5}}-?\d{{2,5}}[a-z]{{0,3}})\s*{_CARD}(?![a-z])")
_SINGLE = re.compile(r"(?:单|一)\s*(?:(?:张|块|个|颗)\s*(?:卡|显卡)?|卡|显卡)\s*$|(?<![a-z])(?:a\s+)?single\s*(?:gpu|card)?\s*$")
_MINE = re.compile(r"(?<![a-z])my\s*(?:own\s+|old\s+|single\s+)?$|我(?:的|这张|那张|这块|那块|自己的)\s*$")
_ON_ONE = re.compile(r"(?<![a-z])(?:on|with|using|use|rent(?:ing)?|one)\s+an?\s*$")
_WORD_COUNTS = re.compile(r"单机\s*(?P<n8>八|8)\s*卡|单卡|双卡|single[\s-]+(?:gpu|card)|one\s+(?:gpu|card)|(?<![a-z])(?:(?P<two>(?:a\s+)?pair\s+of|"
                          r"a\s+couple\s+of|dual)|(?P<four>quad)|(?P<way>\d+)[\s-]*way)\s")
"""Counts in words before a card ("a pair of A100s", "dual 4090", "quad A100", "8-way H100") and the one-card words."""


_MEMORY_SIZE = re.compile(
    r"(?<![\d.a-z])(?P<n>\d{2,3})\s*(?:g|gb|gib)(?![a-z])\s*(?:的)?\s*(?=显存|vram|memory|card|gpu|卡|显卡|够|enough|能|行|放|装|fit|跑)"
)


def extract_memory_card(scan: Scan) -> None:
    """A card named by its memory only ("24G够吗？", "a 48GB card"): the catalog card with that
    memory that most providers rent, noted as an assumption (any card of that size fits the same)."""
    if "gpu" in scan.values:
        return
    for m in scan.find(_MEMORY_SIZE):
        card = _card_with_memory(float(m.group("n")))
        if card is None:
            continue
        scan.take("gpu", card, m.start(), m.end())
        scan.values["gpu_memory_said"] = float(m.group("n"))
        scan.note("gpu.by_memory", card, "", f"catalog: the {m.group('n')} GB card most providers rent; "
                  "any card of that memory fits the same")
        return


def _card_with_memory(gb: float) -> str | None:
    from collections import Counter


    catalog = get_catalog()
    offers = Counter(o.gpu for o in catalog.offers())
    cards = [g.id for g in catalog.gpus if abs(g.memory_gb - gb) < 0.5]
    return max(cards, key=lambda c: (offers[c], c)) if cards else None


def _counts_next(work: str, end: int, following: list[Any]) -> bool:
    """A bare number with a measure word right before another card's name ("4090卡A100", "16x H100"),
    or a space before a plural card ("4090 A100s"), counts that card: it is not a card itself."""
    measure = _MEASURE_BEFORE_CARD.match(work, end)
    if not (measure and following and following[0].start == measure.end() and not following[0].text.isdigit()):
        return False
    # with only a space between them, "4090 A100s" is a count but "4090 A100 哪个好" names two cards
    return not measure.group("space") or bool(_PLURAL_AFTER_CARD.match(work, following[0].end))


_MEMORY_BEFORE = re.compile(r"(?<![\d.])(?P<gb>\d{2,3})\s*g(?:i?b)?\s*(?:的)?\s*$")


def _sized(hit: Any, before: str) -> str:
    """A memory size written before the card ("16GB V100", "40G 的 A100") names that memory's variant."""
    m = _MEMORY_BEFORE.search(before)
    found = find_names("gpu", f"{hit.text} {m.group('gb')}gb") if m else []
    return str(found[0].id) if len(found) == 1 and found[0].end > len(hit.text) else str(hit.id)


def _machine_cards(word: str) -> int | None:
    return {"单": 1, "双": 2}.get(word.strip()) or _count(word)


def _count(text: str) -> int | None:
    value = read_number(text)
    return int(value) if value == int(value) and 0 < value <= MAX_GPUS else None


def extract_gpus(scan: Scan) -> None:
    """GPU names, each with the count written next to it; then the choice among them."""
    mentions: list[dict[str, Any]] = []
    text = _ATTACHED_VARIANT.sub(lambda m: " " * len(m.group(0)), scan.work[: scan.limit])
    hits = list(find_names("gpu", text))
    cards: list[Any] = []  # the hits read as cards so far: a number that is one of them counts nothing
    for i, hit in enumerate(hits):
        start, end = hit.start, hit.end
        if hit.text.isdigit() and (_COUNT_AFTER.match(scan.work, end) or _QUANTITY_AFTER.match(scan.work, end)
                                   or _counts_next(scan.work, end, hits[i + 1 : i + 2])):
            continue  # "用3090张A100", "4090条样本", "4090卡A100", "4090 A100s": a count or a quantity, not an RTX card
        cards.append(hit)
        spec = _SPEC_AFTER.match(scan.work, end)
        if spec:  # "4090D", "3090 Ti", "H100 80GB SXM5": the card's variant or form factor
            end = spec.end()
            if any(_VARIANT.search(w) for w in re.split(r"[\s-]+", spec.group(0)) if w):
                scan.note("gpu.variant", f"{scan.source(hit.start, end)[2].strip()} → {hit.id}", "",
                          "the catalog does not list this variant; priced as the listed card")
        mention: dict[str, Any] = {"name": _sized(hit, scan.work[max(0, start - 10) : start]), "start": start, "end": end,
                                   "count": None, "role": "plain"}
        win = max(0, start - 24)
        right = scan.work[end : end + 16]
        lc = _LEFT_COUNT.search(scan.work[win:start])
        if lc and lc.group("n").strip() in ("a", "an") and not _ON_ONE.search(scan.work[win:start]):
            lc = None  # "an A100" names the card, it does not count them ("on an A100" does: one card)
        if lc and any(c.start <= win + lc.start("n") < c.end for c in cards[:-1]):
            lc = None  # "3090 4090 A100 选哪个": the number before is a card of the list
        machines, of = _LEFT_MACHINES_OF.search(scan.work[win:start]), _RIGHT_MACHINES_OF.search(right)
        spec, machine_word = machines or of, machines or (of and _LEFT_NODES_ONLY.search(scan.work[win:start]))
        if spec and machine_word and (per := _machine_cards(spec.group("k"))) and (n_nodes := _count(machine_word.group("m"))):
            mention["count"], mention["per_node"] = n_nodes * per, per
            start, end = win + machine_word.start(), end + (of.end() if of and not machines else 0)
        elif _SINGLE.search(scan.work[win:start]) and not (lc and _count(lc.group("n"))):
            mention["count"] = 1  # "单张A10", "单卡 4090", "a single H100"
        elif lc and _count(lc.group("n")):
            count = _count(lc.group("n")) or 0
            start = win + lc.start()
            win = max(0, start - 24)
            ln = _LEFT_NODES.search(scan.work[win:start])
            if ln and _count(ln.group("m")):
                mention["per_node"], count = count, count * (_count(ln.group("m")) or 1)
                start = win + ln.start()
            mention["count"] = count
        elif (ln := _LEFT_NODES_ONLY.search(scan.work[win:start])) and _count(ln.group("m")):
            board = _NODE_FORM.match(get_catalog().gpu(hit.id).form_factor or "") or not ln.group(0).rstrip().endswith("台")
            mention["count"] = (_count(ln.group("m")) or 1) * (GPUS_PER_NODE if board else 1)
            start = win + ln.start()
            scan.note("gpus_per_node", GPUS_PER_NODE if board else 1, "GPUs per machine", "NVIDIA DGX/HGX A100 and H100 "
                      "systems carry 8 GPUs" if board else "a machine of a PCIe card rents as a one-card instance")
        elif _MINE.search(scan.work[win:start]) and not _PLURAL_AFTER_CARD.match(scan.work, end):
            mention["count"] = 1  # "my 4090", "我的 3090": one's own card
        rc = _RIGHT_COUNT.search(right)
        if rc and mention["count"] is None:
            n = _count(rc.group("a") or rc.group("b"))
            if n:
                mention["count"] = n
                end += rc.end()
        if mention["count"] is not None:
            rn = _RIGHT_NODE_WORD.search(scan.work[end : end + 8])
            if rn:
                end += rn.end()
                lm = _LEFT_BARE.search(scan.work[max(0, start - 12) : start])
                mention.setdefault("per_node", mention["count"])  # "an 8x H100 node": the cards of one machine
                if lm and (nodes := _count(lm.group("m"))):  # "two 8-GPU A100 nodes", "3 个 8卡 A100 服务器"
                    mention["count"] *= nodes
                    start -= len(lm.group(0))
        before, after = scan.norm[max(0, start - 14) : start], scan.norm[end : end + 16]
        target, source = _TARGET.search(before), _SOURCE_BEFORE.search(before) or _OUT_BEFORE.search(before)
        mention["out"] = bool(_OUT_BEFORE.search(before) or _OUT_AFTER.search(after))
        if _ASSUMED.search(before):
            mention["role"], mention["assumed"] = "target", True
        elif target and not (source and source.start() < target.start()):  # "don't use H100s": not a target
            mention["role"] = "target"
        elif source or mention["out"] or _SOURCE_AFTER.search(after):
            mention["role"] = "source"
        if mention["count"] and _CAP.search(before):
            mention["cap"] = True
        elif mention["count"] and (low := _range_start(scan, start, mention["count"])) < start:
            mention["cap"], start = True, low
        mention["start"], mention["end"] = start, end
        mentions.append(mention)
    if not mentions:
        _unlisted_card(scan)
        return
    for mention in mentions:
        scan.take("gpu_mention", mention["name"], mention["start"], mention["end"], keep=True)
    if all(x["role"] == "source" for x in mentions) and any(x["out"] for x in mentions):  # "不要 4090", "no H100s", "除了 A100"
        scan.values["exclude_gpus"] = list(dict.fromkeys(x["name"] for x in mentions))
        return
    chosen = next((x for x in mentions if x["role"] == "target"), None)
    chosen = chosen or next((x for x in mentions if x["role"] != "source"), mentions[0])
    scan.values["gpu"] = chosen["name"]
    scan.values["_gpu_mentions"] = [(x["start"], x["end"], x["name"], x["count"]) for x in mentions]
    settled = any(x.get("assumed") for x in mentions)
    candidates = list(dict.fromkeys(x["name"] for x in mentions if x.get("assumed") or not (settled or x["role"] == "source")))
    if len(candidates) > 1:
        scan.values["gpus"] = candidates
    counted = chosen if chosen["count"] else next((x for x in mentions if x["count"]), None)
    if counted:
        scan.values["max_gpus" if counted.get("cap") else "gpu_count"] = counted["count"]
        if counted.get("per_node"):  # a machine's price is shared by that machine's cards
            scan.values["_cards_per_node"] = counted["per_node"]
    if any(x["role"] == "source" for x in mentions) and chosen["role"] != "source":
        scan.values["gpu_changed_from"] = next(x["name"] for x in mentions if x["role"] == "source")


def _range_start(scan: Scan, start: int, high: int) -> int:
    """Where a range of cards ending in ``high`` starts (``start`` when the count is no range's end)."""
    m = _RANGE_LEFT.search(scan.work[max(0, start - 16) : start])
    low = _count(m.group("lo") or m.group("lo2")) if m else None
    if not (m and low and low < high):
        return start
    scan.note("gpu_range", f"{low}–{high}", "", "a range of cards is a choice up to its high end: an estimate prices the high end")
    return start - len(m.group(0))


def _unlisted_card(scan: Scan) -> None:
    for m in scan.find(_UNLISTED_CARD):
        name = m.group("name")
        if any(p.search(name) for p, _ in PRECISION_RES) or find_names("model", name):
            continue  # "bf16 卡" is a precision, "qwen3-8b" a model
        scan.values["gpu"] = name.upper()
        return


_CORRECTION = [
    re.compile(rf"不是\s*(?P<a>{COUNT_TEXT})\s*(?:张|块|台|个)?\s*(?:卡)?\s*[,，。;；]?\s*(?:而)?是\s*(?P<b>{COUNT_TEXT})\s*(?:张|块|台|个|卡)"),
    re.compile(rf"(?P<b>{COUNT_TEXT})\s*(?:[a-z0-9-]+s?\s+)?(?:gpus?|cards?)?\s*,?\s*not\s+(?P<a>{COUNT_TEXT})(?![\d.])"),
]


_A_CARD = r"(?:(?:的)?\s*(?:卡|显卡)|\s*(?:gpus?|cards?)(?![a-z]))"
_OF_A_CARD = r"\s+(?:of\s+)?(?:an?|one)\s+(?:gpu|card|(?=[a-z]*-?\d))"  # "of a GPU", "of an A100", "half an H100"
_FRACTION = re.compile(  # the share's words only: a card name after them is read by extract_gpus
    rf"(?<![\d.])(?P<a>\d+)\s*/\s*(?P<b>\d+)\s*(?:(?:张|块)(?:{_A_CARD})?|个?{_A_CARD}|(?:of\s+)?(?:an?|one)\s+(?:gpu|card|(?=[a-z]*-?\d)))|"
    rf"(?P<zh>[二两三四五六七八九十]|\d{{1,2}})分之(?P<zn>[一二三]|\d)\s*(?:(?:张|块)(?:{_A_CARD})?|{_A_CARD})|"
    rf"(?P<half>半张|半块|half{_OF_A_CARD})|(?P<tenth>(?:a|one|1)\s+(?:tenth|quarter|third|fifth|seventh){_OF_A_CARD})"
)
_FRACTION_WORDS = {"tenth": 0.1, "quarter": 0.25, "third": 1 / 3, "fifth": 0.2, "seventh": 1 / 7}


def extract_fraction(scan: Scan) -> None:
    """A fraction of one card ("1/10 张卡", "半张卡", "a quarter of a GPU") is a share of a card,
    not a count: "1/10 张卡" is 0.1 card, never 10 GPUs."""
    m = scan.first(_FRACTION)
    if not m:
        return
    if m.group("a"):
        share = int(m.group("a")) / max(1, int(m.group("b")))
    elif m.group("zh"):
        share = read_number(m.group("zn")) / read_number(m.group("zh"))
    elif m.group("half"):
        share = 0.5
    else:
        share = next(v for k, v in _FRACTION_WORDS.items() if k in m.group("tenth"))
    if 0 < share < 1:
        scan.take("gpu_share", round(share, 6), m.start(), m.end())
        scan.note("gpu_share", round(share, 6), "card", "a fraction of one card, as stated; priced as one whole card where the tool rents whole cards")


def extract_counts(scan: Scan) -> None:
    """GPU counts written without a GPU name: "8卡", "16 GPUs", "两台8卡机器", "单卡"; a
    correction ("不是一张，是四张", "48 H100s, not 64") sets the count it names second."""
    for pattern in _CORRECTION:
        for m in scan.find(pattern):
            if _count(m.group("b")):
                scan.values.pop("gpu_count", None)
                scan.take("gpu_count", _count(m.group("b")), m.start(), m.end())
    for m in scan.find(_WORD_COUNTS):
        if (m.group("two") or m.group("four") or m.group("way")) and (
                not re.match(r"[a-z]*-?\d", scan.norm[m.end() :]) or "gpu_count" in scan.values):
            continue  # a word count names a card right after it ("a pair of A100s")
        text = m.group(0)
        n = 8 if m.group("n8") else int(m.group("way")) if m.group("way") else 4 if m.group("four") else (
            2 if text.startswith("双") or m.group("two") else 1)
        nodes = _LEFT_NODES_ONLY.search(scan.norm[max(0, m.start() - 8) : m.start()])
        if nodes and _RIGHT_MACHINES_OF.search(scan.norm[m.start() : m.end() + 8]) and (n_nodes := _count(nodes.group("m"))):
            n *= n_nodes  # "4台单卡机": four one-card machines
        scan.take("gpu_count", n, m.start(), m.end())
    for m in scan.find(_COUNT_FIELD):
        if _count(m.group("n")):
            scan.take("max_gpus" if m.group("cap") else "gpu_count", _count(m.group("n")), m.start(), m.end())
    for m in scan.find(_BARE_COUNT):
        found = _count(m.group("n"))
        if not found:
            continue
        n = found
        if m.group("m") and _count(m.group("m")):
            n *= _count(m.group("m")) or 1
        start = _range_start(scan, m.start(), n)
        slot = "max_gpus" if start < m.start() or _CAP.search(scan.norm[max(0, m.start() - 14) : m.start()]) else "gpu_count"
        scan.take(slot, n, start, m.end())
        scan.values.setdefault("_bare_counts", []).append((m.start(), m.end(), n))
    for m in scan.find(_BARE_ZHANG):  # "4张呢？": a count of cards on its own
        if _count(m.group("n")):
            scan.take("gpu_count", _count(m.group("n")), m.start(), m.end())
    for m in scan.find(_OF_THEM):  # "H100, 16 of them", "what if we only had 4 of them?"
        if _count(m.group("n")):
            scan.take("gpu_count", _count(m.group("n")), m.start(), m.end())
    lone = scan.first(_ONLY_HAD)
    cards = _count(lone.group("n")) if lone else None
    if lone and cards and cards > 1 and not any(k in scan.values for k in ("gpu_count", "max_gpus")):
        scan.take("gpu_count", cards, lone.start("n"), lone.end())


_PER_NODE = re.compile(r"每\s*(?:个)?\s*(?:台|节点|机器|服务器|主机)|(?<![a-z])(?:per|each|every)\s+(?:node|machine|server|box|host)"
                       r"|(?:gpus?|cards?)\s+(?:each|apiece)|单(?:台|机|节点)")
_NODE_TOTAL = re.compile(rf"(?<![\d.])(?P<m>{COUNT_TEXT})\s*(?:个)?\s*(?:台(?:机器|服务器|主机)?|节点|nodes?|machines?|servers?|boxes|hosts?)(?![a-z])")
_CARD_TOTAL = re.compile(rf"(?:共|一共|总共|合计|in\s+total|total(?:\s+of)?)\s*(?:{COUNT_TEXT})\s*(?:张|块|卡|gpus?|cards?)")


def extract_nodes(scan: Scan) -> None:
    """Cards counted per machine and machines counted apart ("每台8张H800，共4台", "8 GPUs per node,
    4 nodes"): the GPU count is cards per machine × machines, unless a total of cards is stated.
    Machines alone ("2台", "3 nodes") hold :data:`GPUS_PER_NODE` cards each."""
    if "gpu_count" not in scan.values and "max_gpus" not in scan.values:
        for m in scan.find(_NODE_TOTAL):  # "2台服务器呢", "what if we use 2 nodes?": machines of GPUS_PER_NODE cards
            if (nodes := _count(m.group("m"))) and not m.group(0).endswith("台"):  # "租一台" may be a one-card instance
                scan.take("gpu_count", nodes * GPUS_PER_NODE, m.start(), m.end())
                scan.note("gpus_per_node", GPUS_PER_NODE, "GPUs per machine", "NVIDIA DGX/HGX A100 and H100 systems carry 8 GPUs")
                return
    per = scan.values.get("_cards_per_node")
    if "gpu_count" not in scan.values or not (per or scan.has(_PER_NODE)) or scan.has(_CARD_TOTAL):
        return
    for m in scan.find(_NODE_TOTAL):  # "one 8x H100 node …, on 2 nodes": the machine's cards × machines
        nodes = _count(m.group("m"))
        if nodes and nodes > 1:
            scan.take("node_count", nodes, m.start(), m.end())
            scan.values["_cards_per_node"] = per = per or scan.values["gpu_count"]
            scan.values["gpu_count"] = per * nodes
            return


def extract_provider(scan: Scan) -> None:
    """The first provider the catalog knows by any of its names ("阿里云", "AWS", "AutoDL")."""
    for hit in find_names("provider", scan.work[: scan.limit]):
        scan.take("provider", hit.id, hit.start, hit.end)
        return
