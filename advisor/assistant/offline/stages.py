"""Multi-part questions: each stage of a project with its own hardware, billing, data and time
("验证用8张A100，然后全参微调3亿token，再上线推理每天500万token跑90天", "pretraining monthly on
256 H100, fine-tuning on-demand 32 H100", "先包月租1000张H800，跑到一半扩到2000张走阶梯价").

The question is cut into clauses; each clause belongs to the stage it names, or continues the
one before it (a clause with another card count is that stage again with the new count). The
result is the plan's flat fields (``pretrain_tokens_b``, ``finetune_tokens_b``, ``finetune_method``,
``serving_tokens_per_day``, ``serving_days``) and, when a stage has hardware, billing or a term of
its own, the explicit ``stages`` of ``plan_project`` — nothing stated is dropped.
"""

from __future__ import annotations

import re
from typing import Any

from advisor.assistant.offline.lexicon import STAGES, lexicon
from advisor.assistant.offline.slots_time import days_of
from advisor.assistant.offline.text import Scan, dictated
from advisor.numeric import COUNT_TEXT, NUMBER_TEXT, read_number
from advisor.units import HOURS_PER_MONTH

_STAGE_WORDS = "|".join(f"(?:{p})" for p, _ in STAGES)
_CLAUSE_END = re.compile(r",(?!(?<=\d,)\d{3}(?![\d.]))|[，;；+。、→⇒]|->|=>|\.(?!\d)|(?<![a-z])(?:then|and\s+then|after\s+that|followed\s+by)(?![a-z])|然后|之后|接着|再(?=[上做跑用训])|"
                         r"(?=扩到|扩容到|扩成|(?<![a-z])scal(?:e|ing)\s+(?:up\s+|out\s+)?to(?![a-z]))|"
                         rf"(?<![a-z])and\s+(?=[^,，。;；]{{0,16}}?(?:{_STAGE_WORDS}))|[和及并](?=[^,，。;；]{{0,16}}?(?:{_STAGE_WORDS}))|后(?=\s*(?:{_STAGE_WORDS}))")  # "… and fine-tuning on A100s"
_CARDS = re.compile(rf"(?<![\d.])(?:(?<!\d,)|(?!\d{{3}}(?![\d.])))(?P<n>{COUNT_TEXT})\s*(?:张|块|台)(?!\s*(?:图|表|纸))")
_TIERED = re.compile(r"阶梯|tiered|volume\s+tier")
_FINISHED = re.compile(rf"(?:只用了|用了|跑了|做了|finished\s+(?:after|in)|ended\s+after|done\s+(?:after|in)|after)\s*(?P<n>{NUMBER_TEXT})\s*(?:个)?\s*(?:月|months?)")
_EMERGENCY = re.compile(r"临时|加急|紧急|急租|short\s+notice|last[\s-]minute|grab|rush")
_SPECIFIC = ("gpu", "gpu_count", "billing", "term_months", "finished_after_months", "emergency", "months", "deadline_hours")
_TRAINING = {"validation", "pretrain", "finetune"}
_WHOLE_PLAN = re.compile(r"全程|整个项目|所有阶段|各阶段都|都用|都在|(?<![a-z])(?:throughout|all\s+(?:stages|phases)|every\s+(?:stage|phase)|"
                         r"the\s+whole\s+(?:way|project|plan)|for\s+everything|end\s+to\s+end)(?![a-z])")
"""A clause about the whole plan ("全程用4090", "H800 throughout"): its card is every stage's, not the last one's."""


def _clauses(scan: Scan, mentions: list[tuple[int, str]]) -> list[tuple[int, int]]:
    """The question cut at its clause ends and, when dictated, before a word naming another stage ("全参微调3亿token 上线后…")."""
    named = sorted(mentions)
    turns = [pos for (_, before), (pos, stage) in zip(named, named[1:], strict=False)
             if stage != before and scan.norm[pos - 1 : pos].isspace() and dictated(scan.original)]
    cuts = sorted({0, scan.limit, *turns, *(m.end() for m in _CLAUSE_END.finditer(scan.norm, 0, scan.limit))})
    return [(a, b) for a, b in zip(cuts, cuts[1:], strict=False) if b > a]


def _inside(pos: int, clause: tuple[int, int]) -> bool:
    return clause[0] <= pos < clause[1]


def _clause_values(scan: Scan, clause: tuple[int, int]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for start, _end, name, count in scan.values.get("_gpu_mentions", []):
        if _inside(start, clause):
            out.setdefault("gpu", name)
            if count:
                out.setdefault("gpu_count", count)
    for start, _end, n in scan.values.get("_bare_counts", []):
        if _inside(start, clause):
            out.setdefault("gpu_count", n)
    for span in scan.spans:
        if not _inside(span.start, clause):
            continue
        if span.slot == "tokens":
            out.setdefault("tokens", span.value)
        elif span.slot == "tokens_per_day":
            out.setdefault("tokens_per_day", span.value)
        elif span.slot == "billing_mode":
            out.setdefault("billing", span.value)
        elif span.slot == "method":
            out.setdefault("method", span.value)
        elif span.slot == "term_months":
            out.setdefault("term_months", span.value)
        elif span.slot in ("duration_hours", "wall_hours", "deadline_hours"):
            out.setdefault("hours", span.value)
    text = scan.norm[clause[0] : clause[1]]
    if "gpu_count" not in out and (m := _CARDS.search(text)):  # "扩到2000张"
        out["gpu_count"] = int(read_number(m.group("n")))
    if _TIERED.search(text):
        out["billing"] = "tiered"
    m = _FINISHED.search(text)
    if m:
        out["finished_after_months"] = read_number(m.group("n"))
        out.pop("hours", None)
    if _EMERGENCY.search(text):
        out["emergency"] = True
    return out


_NOT_PRICED = re.compile("|".join(lexicon()["stages_not_priced"]))


def read_stages(scan: Scan) -> dict[str, Any]:
    """The plan's fields read stage by stage (empty when the question names no stage); work no tool
    prices ("数据标注", "human eval") is named as not priced."""
    mentions = scan.values.get("_stage_mentions") or []
    unpriced = [scan.source(m.start(), m.end())[2] for m in _NOT_PRICED.finditer(scan.norm, 0, scan.limit)]
    if mentions and unpriced:
        scan.note("plan.not_priced", ", ".join(dict.fromkeys(unpriced)), "", "no tool prices this part of the plan; its cost is not in the total")
    if not mentions and "term_months" in scan.values and (_FINISHED.search(scan.question) or _EMERGENCY.search(scan.question)):
        # a committed term that ended early, with no stage named: the run is one training stage
        mentions = [(0, "pretrain")]
        scan.note("plan.stage", "pretrain", "", "a committed run with no stage named is priced as one pre-training stage")
    if not mentions:
        return {}
    stages: list[dict[str, Any]] = []
    loose: dict[str, Any] = {}
    for clause in _clauses(scan, mentions):
        named = [stage for pos, stage in mentions if _inside(pos, clause)]
        values = _clause_values(scan, clause)
        current = stages[-1] if stages else None
        for extra in named[:-1]:  # "从验证到预训练…": every stage named; the values go to the last
            if not any(s["stage"] == extra for s in stages):
                stages.append({"stage": extra})
        named = named[-1:]
        if not named and _WHOLE_PLAN.search(scan.norm, clause[0], clause[1]):
            loose.update({k: v for k, v in values.items() if k not in loose})
            continue
        if named:
            same = next((s for s in reversed(stages) if s["stage"] == named[0] and not _conflict(s, values)), None)
            if same is not None:  # "分验证、预训练…四个阶段，…预训练5000亿token": the stage named again
                same.update({k: v for k, v in values.items() if k not in same})
            else:
                stages.append({"stage": named[0], **values})
        elif current is None:
            loose.update({k: v for k, v in values.items() if k not in loose})
        elif _conflict(current, values) and current["stage"] == "validation":  # "试跑 8 张…然后 64 张跑 30 天": the main run
            main = _main_stage(scan)
            if said := next((s for s in stages if s["stage"] == main and not _conflict(s, values)), None):
                stages.remove(said)  # "全参微调：先验证…然后…": the run named first, its values given after
            stages.append({**(said or {}), "stage": main, **{k: v for k, v in current.items() if k == "gpu"}, **values})
        elif _conflict(current, values):  # "跑到一半扩到2000张": the same stage again with more cards
            stages.append({"stage": current["stage"], **{k: v for k, v in current.items() if k == "gpu"}, **values})
        else:
            current.update({k: v for k, v in values.items() if k not in current or k == "billing"})
    if len(stages) == 1:
        stages[0].update({k: v for k, v in loose.items() if k not in stages[0]})
    return _fields(stages, loose)


def _main_stage(scan: Scan) -> str:
    """The training run an unnamed phase after a validation is: a fine-tune of a named model or method, else pre-training."""
    method = scan.values.get("method")
    stage = "pretrain" if method == "pretrain" or not (method or scan.values.get("model")) else "finetune"
    scan.note("plan.stage", stage, "", "a phase after the validation with more cards and no stage named is the main training run")
    return stage


def _conflict(stage: dict[str, Any], values: dict[str, Any]) -> bool:
    return "gpu_count" in values and "gpu_count" in stage and values["gpu_count"] != stage["gpu_count"]


def _fields(stages: list[dict[str, Any]], loose: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    explicit: list[dict[str, Any]] = []
    for s in stages:
        name = s["stage"]
        spec: dict[str, Any] = {"stage": name}
        for key in _SPECIFIC:
            if key in s:
                spec[key] = s[key]
        if name in ("pretrain", "finetune") and "tokens" in s:
            out.setdefault(f"{name}_tokens_b", round(s["tokens"] / 1e9, 9))
        if name in _TRAINING and "tokens" in s:
            spec["tokens_b"] = round(s["tokens"] / 1e9, 9)
        if name in _TRAINING and "hours" in s:  # "验证跑3天", "pretrain 300B tokens in 30 days"
            if "tokens" in s:
                spec["deadline_hours"] = s["hours"]
            elif "gpu_count" in s and "finished_after_months" not in s:
                spec["months"] = round(s["hours"] / HOURS_PER_MONTH, 6)  # cards held for a time
        if name == "finetune" and s.get("method") in ("full", "lora", "qlora"):
            out.setdefault("finetune_method", s["method"])
            spec["method"] = s["method"]
        if name == "serving":
            if "tokens_per_day" in s:
                out.setdefault("serving_tokens_per_day", s["tokens_per_day"])
                spec["tokens_per_day"] = s["tokens_per_day"]
            if "hours" in s:
                out.setdefault("serving_days", days_of(s["hours"]))
                spec["days"] = days_of(s["hours"])
        explicit.append(spec)
    names = [s["stage"] for s in explicit]
    own = any(set(s) & set(_SPECIFIC) for s in explicit) or len(names) != len(set(names))
    if own:
        out["plan_stages"] = explicit
    if "gpu" in loose:
        out["plan_gpu"] = loose["gpu"]
    return out
