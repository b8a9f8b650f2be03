"""Clauses -> detector hits: which sentence states which contract fact, trap or protection.

Each detector (see patterns.yaml) reads every sentence whose text, or clause, carries its
cue. A *trap* match that is negated just before it ("shall not automatically renew",
"不自动续约") does not count; the same sentence can still be a *protection*. A hit keeps the
sentence, its location and the normalized numbers it states (values.py); who acts in it
(provider, customer, both) is resolved for the clauses where that decides the verdict.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from advisor.contracts.clauses import Clause, Sentence, normalize_space
from advisor.contracts.parties import Party, PartyResolver
from advisor.contracts.values import EXTRACTORS, Values
from advisor.contracts.vocabulary import DetectorSpec, cue_index, detectors

Kind = Literal["trap", "protect", "present"]

_NEG_EN_RE = re.compile(r"\b(?:not|no|never|neither|nor|without|cannot)\b(?:\s+\w+){0,2}\s*$", re.IGNORECASE)
_NEG_ZH_RE = re.compile(r"(?:不|未|无|非|免|禁止|不得|不会|无需|无须|并非|不再)\s*$")
_NEG_INSIDE_RE = re.compile(
    r"(?:不|无需|无须|免|不再|未)(?:另行|另外|额外|单独|继续|照常|再|会|予)?(?:收费|计费|收取|扣费|计收|另收)"
    r"|\bnot\s+(?:continue\s+to\s+|remain\s+)?(?:be\s+)?(?:billed|charged|invoiced|payable|chargeable|billable)|\bno\s+(?:additional\s+|extra\s+|separate\s+)?(?:charges?|fees?)\b|free\s+of\s+charge",
    re.IGNORECASE,
)
_CONVENIENCE_RE = re.compile(
    r"convenience|without\s+cause|any\s+reason|no\s+reason|at\s+will|discretion|无需[^。；]{0,6}理由|无理由|任意|单方",
    re.IGNORECASE,
)
_PARTY_DETECTORS = {"termination_for_convenience", "price_change"}


@dataclass
class Hit:
    """One sentence that states a fact. ``kind`` says whether it costs or protects."""

    detector: str
    category: str | None
    kind: Kind
    sentence: Sentence
    match: str
    values: Values = field(default_factory=dict)
    party: Party | None = None

    @property
    def quote(self) -> str:
        return self.sentence.text

    def evidence(self) -> dict[str, object]:
        loc = self.sentence.location
        return {"quote": _shorten(self.sentence.text), "location": loc.as_dict(), "where": loc.label("en"), "where_zh": loc.label("zh")}


def detect(clauses: list[Clause], *, zh_provider: str = "乙方", cause_words: re.Pattern[str] | None = None) -> list[Hit]:
    """All hits in ``clauses``, in document order."""
    specs = detectors(zh_provider)
    resolver = PartyResolver(zh_provider)
    cause = cause_words or _cause_re(zh_provider)
    hits: list[Hit] = []
    cues = cue_index(zh_provider)
    clause_specs = [s for s in specs if s.cue_scope == "clause"]
    for clause in clauses:
        clause_text = normalize_space(f"{clause.heading or ''}\n{clause.text}")
        in_clause = cues.names(clause_text.lower()) if clause_specs else set()
        in_clause = {
            s.name for s in clause_specs if s.name in in_clause and (s.require is None or s.require.search(clause_text))
        }
        previous = ""
        for sentence in clause.sentences:
            text = sentence.text
            cued = cues.names(text.lower())
            for spec in specs:
                if spec.cue_scope == "clause":
                    if spec.name not in in_clause:
                        continue
                elif spec.name not in cued:
                    continue
                if spec.require is not None and spec.cue_scope != "clause" and not spec.require.search(text):
                    continue
                if spec.exclude_any is not None and spec.exclude_any.search(text):
                    continue
                hits.extend(_run(spec, sentence, resolver, cause, previous))
            previous = text
    return hits


def detect_sentences(sentences: list[Sentence], *, zh_provider: str = "乙方") -> list[Hit]:
    """Hits in chosen sentences with the cue pre-filter skipped (for sentences an LLM
    suggested): the patterns, exclusions and negation rules still apply."""
    specs = detectors(zh_provider)
    resolver = PartyResolver(zh_provider)
    cause = _cause_re(zh_provider)
    hits: list[Hit] = []
    for sentence in sentences:
        for spec in specs:
            if spec.require is not None and not spec.require.search(sentence.text):
                continue
            if spec.exclude_any is not None and spec.exclude_any.search(sentence.text):
                continue
            hits.extend(_run(spec, sentence, resolver, cause, ""))
    return hits


def detect_text(text: str, **kwargs: object) -> list[Hit]:
    """Hits in a bare piece of text (one clause), e.g. a sentence from an evaluation set."""
    from advisor.contracts.clauses import split_clauses
    from advisor.contracts.reader import read_text

    return detect(split_clauses(read_text(text)), **kwargs)  # type: ignore[arg-type]


def _run(
    spec: DetectorSpec, sentence: Sentence, resolver: PartyResolver, cause: re.Pattern[str], previous: str
) -> list[Hit]:
    text = sentence.text
    found: list[Hit] = []
    trap = _first_unnegated(spec.combined["trap"], text, spec.combined["protect"])
    protect = _first(spec.combined["protect"], text, negatable=spec.negation)
    if (
        trap is not None
        and spec.name == "termination_for_convenience"
        and not _CONVENIENCE_RE.search(text)
        and (cause.search(text) or cause.search(previous[-300:]))
    ):
        trap = None  # termination for breach, insolvency, ... (here or in the sentence before): for cause
    for kind, m in (("trap", trap), ("protect", protect)):
        if m is not None:
            found.append(_hit(spec, kind, sentence, m, resolver))  # type: ignore[arg-type]
    if not found:
        m = _first(spec.combined["present"], text, negatable=spec.negation)
        if m is not None:
            found.append(_hit(spec, "present", sentence, m, resolver))
    return found


def _hit(spec: DetectorSpec, kind: Kind, sentence: Sentence, m: re.Match[str], resolver: PartyResolver) -> Hit:
    extractor = EXTRACTORS.get(spec.name)
    values = extractor(sentence.text, m.start()) if extractor else {}
    party = None
    if spec.name in _PARTY_DETECTORS:
        party = _actor(sentence.text, m, resolver)
    return Hit(spec.name, spec.category, kind, sentence, m.group(0), values, party)


_VERB_RE = re.compile(
    r"terminat|cancel|cease|discontinu|withdraw|解除|终止|停止|中止|change|increase|modify|adjust|revise|raise|调整|变更|上调|修改|更改|提高|浮动",
    re.IGNORECASE,
)
_MODAL_RE = re.compile(
    r"有权|可以|可|得以|保留|\b(?:may|can|shall\s+have\s+the\s+right|is\s+entitled|has\s+the\s+right|reserves?\s+the\s+right|entitled\s+to|right\s+to|elects?\s+to|wish\w*\s+to|desires?\s+to|decides?\s+to)\b",
    re.IGNORECASE,
)
_BY_RE = re.compile(r"\b(?:terminated|cancel+ed|changed|increased|adjusted)\s+(?:\w+\s+){0,3}?by\s+", re.IGNORECASE)


def _actor(text: str, m: re.Match[str], resolver: PartyResolver) -> Party:
    """Who acts: the subject before the modal ("乙方有权…通知甲方解除" is 乙方), the agent
    of a passive ("may be terminated by Provider"), else the party named before the verb."""
    passive = _BY_RE.search(text, m.start())
    if passive and passive.start() < m.end() + 40:
        agent = resolver.first(text[passive.end() : passive.end() + 60])
        if agent != "other":
            return agent
    verb = _VERB_RE.search(text, m.start())
    end = verb.start() if verb and verb.start() < m.end() + 40 else m.end()
    modal = _MODAL_RE.search(text, max(0, m.start() - 60), end)
    return resolver.actor(text, modal.start() if modal else end)


def _first(pattern: re.Pattern[str] | None, text: str, *, negatable: bool = False) -> re.Match[str] | None:
    """The first match; with ``negatable``, one not negated just before it ("no service credits")."""
    if pattern is None:
        return None
    if not negatable:
        return pattern.search(text)
    for m in pattern.finditer(text):
        before = text[max(0, m.start() - 30) : m.start()]
        if not (_NEG_EN_RE.search(before) or _NEG_ZH_RE.search(before)):
            return m
    return None


def _first_unnegated(
    pattern: re.Pattern[str] | None, text: str, shield: re.Pattern[str] | None = None
) -> re.Match[str] | None:
    """The first trap match that is not negated: no negation just before it, no negated
    charge inside it ("不另行收取", "not be billed"), no protective reading of the same words."""
    if pattern is None:
        return None
    protected: list[tuple[int, int]] | None = None
    for m in pattern.finditer(text):
        before = text[max(0, m.start() - 30) : m.start()]
        if _NEG_EN_RE.search(before) or _NEG_ZH_RE.search(before) or _NEG_INSIDE_RE.search(m.group(0)):
            continue
        if protected is None:
            protected = [(s.start(), s.end()) for s in shield.finditer(text)] if shield is not None else []
        if any(a < m.end() and m.start() < b for a, b in protected):
            continue
        return m
    return None


def _cause_re(zh_provider: str) -> re.Pattern[str]:
    from advisor.contracts.vocabulary import _raw

    defs = _raw().get("defs") or {}
    return re.compile(f"{defs.get('CAUSE', 'breach')}|{defs.get('ZCAUSE', '违约')}", re.IGNORECASE)


def _shorten(text: str, limit: int = 400) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
