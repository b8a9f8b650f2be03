"""Which job a question asks for: one of the tools, onboarding, greeting/help, ``out_of_scope`` or
``clarify`` — scored from the question's STRUCTURE, never from whole sentences.

Two things are read: what is asked (cost? which card? does it fit? a good deal? X or Y? how long?
— cue vocabularies ``asks`` and ``intent_cues`` of ``knowledge/lexicon.yaml``, both languages) and
which quantities and names are present (a quoted price and a term, a daily load, several cards, a
memory size, contract text, a usage file … — lexicon ``present``, from the slots already read).
Each intent's evidence (lexicon ``intent_evidence``) adds up; the highest total wins. When two tools
tie, the question is which job is meant, and the clarification keeps the job read so far.

A decision also says whether the intent was *stated* ("which GPU", "包月还是按量", "review this
contract") or only *implied* by quantities (a model and a token count imply an estimate): a
follow-up switches tools only on a stated intent ("spot还是按量划算?" after an estimate), not on an
implied one ("what about spot?" keeps the estimate and changes its billing).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, NamedTuple

from advisor.assistant.offline.lexicon import lexicon
from advisor.assistant.offline.slots_misc import CONTRACT_NOUN
from advisor.assistant.offline.text import Scan
from advisor.assistant.offline.verdict import asks_verdict
from advisor.tools import TOOL_NAMES

DECISION_TOOLS = ("estimate_serving_cost", "check_quote", "compare_own_vs_rent")
"""The decision tools' names (issue #12's interface), known here before they are installed."""
TOOLS = tuple(dict.fromkeys((*TOOL_NAMES, *DECISION_TOOLS)))
JOBS = tuple(t for t in TOOLS if t != "search_knowledge")
"""The tools that work out a job: when two of them tie, the question is which job is meant."""


class Decision(NamedTuple):
    intent: str
    stated: bool
    reason: str
    alternatives: tuple[str, ...] = ()
    """For ``clarify``: the tools that tied (the clarification asks which one is meant), or the one job
    only hinted at by cue words with nothing to work it out from."""
    found: frozenset[str] = frozenset()
    """The features the decision was scored on (a follow-up weighs them against the previous job)."""


class Evidence(NamedTuple):
    intent: str
    weight: float
    all: frozenset[str]
    any: tuple[frozenset[str], ...]
    none: frozenset[str]
    implied: bool

    def holds(self, features: set[str]) -> bool:
        return self.all <= features and all(group & features for group in self.any) and not self.none & features


_CUES = lexicon()["intent_cues"]
DOMAIN = re.compile(_CUES["domain"])
GENERIC = re.compile(_CUES["generic"])
_WORDS = re.compile(r"[a-z][a-z0-9'-]*|[\u4e00-\u9fff]")
_DOCUMENT_FILES = (".pdf", ".docx", ".md", ".txt")
_BEFORE_DOCUMENT = ("review", "demonstrative")
_DERIVED_QUANTITIES = ("workload", "gpus2", "gpu_changed", "modes", "modes2", "stages2", "doc_file", "usage_file")  # read in the question only, not in a pasted contract


@lru_cache(maxsize=1)
def _vocabulary() -> tuple[dict[str, re.Pattern[str]], dict[str, tuple[str, ...]], list[Evidence], dict[str, Any],
                           frozenset[str]]:
    lex = lexicon()
    asks = {name: re.compile(p) for name, p in lex["asks"].items()}
    asks |= {name: re.compile(_CUES[key]) for name, key in (("serving",) * 2, ("training",) * 2, ("quote",) * 2, ("own",) * 2, ("fit", "memory_fit"))}
    present = {name: tuple(keys) for name, keys in lex["present"].items()}
    evidence = [_evidence(e) for e in lex["intent_evidence"]]
    quantities = frozenset(present) | frozenset(_DERIVED_QUANTITIES)
    return asks, present, evidence, dict(lex["intent_selection"]), quantities


def _evidence(e: dict[str, Any]) -> Evidence:
    return Evidence(str(e.get("intent", "previous")), float(e["w"]), frozenset(e.get("all", ())),
                    tuple(frozenset(g) for g in (e.get("any"), e.get("also")) if g), frozenset(e.get("none", ())),
                    bool(e.get("implied")))


@lru_cache(maxsize=1)
def followup_evidence() -> list[Evidence]:
    """Lexicon ``followup_evidence``: how strongly a follow-up keeps the previous job."""
    return [_evidence(e) for e in lexicon()["followup_evidence"]]


def has_topic(t: str) -> bool:
    """Whether the question names something (other than generic words) to talk about."""
    rest = GENERIC.sub(" ", t)
    words = _WORDS.findall(rest)
    latin = [w for w in words if w.isascii()]
    cjk = len(words) - len(latin)
    return len(latin) >= 2 or cjk >= 4 or (len(latin) == 1 and cjk >= 2)  # "什么是MFU？"


def features(scan: Scan) -> set[str]:
    """What the question asks (``asks`` kinds) and what it holds (``present`` names)."""
    asks = _vocabulary()[0]
    t, v = scan.question, scan.values
    question = scan.norm[: v["_document_start"]] if "_document_start" in v else t
    found = {name for name, rx in asks.items() if rx.search(question if name in _BEFORE_DOCUMENT else t)}
    if CONTRACT_NOUN.search(question):
        found.add("contract")
    if DOMAIN.search(t):
        found.add("domain")
    elif "billing_modes" in v and not [k for k in v if k[0] != "_" and k != "billing_modes"]:  # "rotates logs every night":
        # with no word of compute and nothing else read, a mode word is an ordinary word
        v = {k: x for k, x in v.items() if k != "billing_modes"}
    if asks_verdict(t):
        found.add("verdict")
    if has_topic(t) or ("define" in found and DOMAIN.search(GENERIC.sub(" ", t))):  # "what is MFU?": a term to define
        found.add("topic")
    found |= held(v)
    files = [str(f).lower() for f in v.get("files", [])]
    modes = v.get("billing_modes", [])
    derived = {
        "gpu_changed": bool(v.get("gpu_changed_from")),
        "modes": bool(modes),
        "modes2": len(modes) >= 2,
        "stages2": len(v.get("stage_names", [])) >= 2,
        "doc_file": any(f.endswith(_DOCUMENT_FILES) for f in files),
        "usage_file": any(not f.endswith(_DOCUMENT_FILES) for f in files),
    }
    found |= {name for name, on in derived.items() if on}
    return found | ({"quantity"} if found & _vocabulary()[4] else set())


def held(values: dict[str, Any]) -> set[str]:
    """The ``present`` names, ``workload`` and ``gpus2`` (two cards or more, not a swap) of a question's values or a
    conversation's context (its data as ``tokens_b``)."""
    keys = set(values) | ({"tokens"} if {"tokens_b", "dataset_tokens_b"} & set(values) else set())
    found = {name for name, names in _vocabulary()[1].items() if keys & set(names)}
    found |= {"workload"} if {"model", "data"} & found else set()
    return found | ({"gpus2"} if len(values.get("gpus", [])) >= 2 and not values.get("gpu_changed_from") else set())


def scores(found: set[str], evidence: list[Evidence] | None = None) -> dict[str, tuple[float, bool, list[Evidence]]]:
    """Per intent: its total, whether any of its positive evidence is a stated ask, and that evidence."""
    out: dict[str, tuple[float, bool, list[Evidence]]] = {}
    for e in _vocabulary()[2] if evidence is None else evidence:
        if e.holds(found):
            total, stated, items = out.get(e.intent, (0.0, False, []))
            out[e.intent] = (total + e.weight, stated or (e.weight > 0 and not e.implied), [*items, e])
    return out


def classify(scan: Scan) -> Decision:
    """The intent of one question on its own (follow-ups are handled by :mod:`.followup`)."""
    found = features(scan)
    return choose(found, bool(scan.values))._replace(found=frozenset(found))


def choose(found: set[str], values: bool, evidence: list[Evidence] | None = None, margin: float | None = None) -> Decision:
    """The highest-scoring intent for these features. ``clarify`` is scored like any intent (a base
    evidence, more when nothing is present): winning, it asks for the runner-up job's inputs when that
    job was only hinted at by cue words. A knowledge question with no topic ("这个报价合适吗？") is unclear.
    Two jobs within ``margin`` ask which one is meant. ``evidence``/``margin``: the lexicon's unless given
    (scripts/fit_intent.py tries others)."""
    ranked = sorted(scores(found, evidence).items(), key=lambda kv: -kv[1][0])  # stable: ties keep the table's order
    jobs = [i for i, _ in ranked if i != "clarify"]
    if not jobs or ranked[0][0] == "clarify":
        hinted = jobs[:1] if jobs and jobs[0] in JOBS and not found & {"quantity", "bill"} else []  # a bill hints at no one job
        reason = f"only a hint of {jobs[0]}" if hinted else "a bill of nothing named" if "bill" in found else "no job recognized"
        return Decision("clarify", False, reason, tuple(hinted))
    intent, (total, stated, items) = ranked[0]
    if intent == "search_knowledge" and "topic" not in found and not values:
        return Decision("clarify", False, "no topic to look up")
    margin = float(_vocabulary()[3]["margin"]) if margin is None else margin
    close = tuple(i for i, (s, _, _) in ranked[1:] if i in JOBS and total - s <= margin)
    reason = ", ".join(sorted({f for e in items for f in e.all})) + f" ({total:g})"
    if intent in JOBS and close and stated:
        return Decision("clarify", False, f"{intent} or {close[0]}: {reason}", (intent, *close))
    return Decision(intent, stated, reason)
