"""Clauses -> detector hits: which sentence states which contract fact, trap or protection.

Each detector (see patterns.yaml) reads every sentence whose text, or clause, carries its
cue, and reads each match through the clause semantics (semantics.py: polarity with its
negation scope, modality, actor). A negated *trap* ("Customer is not required to commit to
any minimum spend", "停机期间不再计费") is no trap: it is kept as the detector's
``negated_trap`` kind (a protection where denying the trap is the protection, else a neutral
mention). A negated *protection* ("没有锁价", "no price lock") is a *denied* hit: the
protection is missing. A protection that is only the provider's option ("Provider may
notify") binds nobody and counts as a neutral mention. A hit keeps the sentence, its location
and the normalized numbers it states (values.py); who acts in it (provider, customer, both)
is resolved for the clauses where that decides the verdict.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Literal

from advisor.contracts import commitment, semantics
from advisor.contracts.clauses import Clause, Sentence, normalize_space, split_clauses
from advisor.contracts.parties import Layout, Party, PartyResolver
from advisor.contracts.reader import read_text
from advisor.contracts.values import EXTRACTORS, Values, W
from advisor.contracts.vocabulary import CueIndex, DetectorSpec, _raw, cue_index, detectors

Kind = Literal["trap", "protect", "present", "denied"]

_WHOLE = re.compile(r"\S(?:.*\S)?", re.DOTALL)
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
    score: float | None = None  # a fitted reader's score (commitment.py), else None

    @property
    def quote(self) -> str:
        return self.sentence.quote

    def evidence(self) -> dict[str, object]:
        loc = self.sentence.location
        return {"quote": _shorten(self.sentence.quote), "location": loc.as_dict(), "where": loc.label("en"), "where_zh": loc.label("zh")}


def detect(clauses: list[Clause], *, zh_provider: Layout = "乙方", cause_words: re.Pattern[str] | None = None) -> list[Hit]:
    """All hits in ``clauses``, in document order."""
    specs = detectors(zh_provider)
    resolver = PartyResolver(zh_provider)
    cause = cause_words or _cause_re(zh_provider)
    hits: list[Hit] = []
    read: Counter[str] = Counter()  # sentences each fitted reader read: its threshold rises with them
    cues = cue_index(zh_provider)
    commitment.new_document()
    seen: dict[tuple[str, frozenset[str], bool, bool], tuple[list[Hit], Counter[str]]] = {}  # what a document repeats reads the same
    scopes: dict[str, frozenset[str]] = {}
    clause_specs = [s for s in specs if s.cue_scope == "clause"]
    for clause in clauses:
        raw = f"{clause.heading or ''}\n{clause.text}"
        if (in_clause := scopes.get(raw)) is None:
            clause_text = normalize_space(raw)
            cued = cues.names(clause_text.lower()) if clause_specs else set()
            in_clause = scopes[raw] = frozenset(
                s.name for s in clause_specs if s.name in cued and (s.require_any is None or s.require_any.search(clause_text)))
        previous = ""
        for sentence in clause.sentences:
            heading = bool(clause.heading) and sentence.text.rstrip().endswith(clause.heading or "")
            key = (sentence.text, in_clause, heading, bool(cause.search(previous[-300:])))
            if (done := seen.get(key)) is None:
                done = seen[key] = _sentence(specs, cues, sentence, in_clause, heading, resolver, cause, previous)
            read.update(done[1])
            hits.extend(h if h.sentence is sentence else replace(h, sentence=sentence) for h in done[0])
            previous = sentence.text
    by = {s.name: s.reader for s in specs}
    return [h for h in hits if h.score is None or h.score >= commitment.readers()[by[h.detector]].threshold_for(read[by[h.detector]])]


def _sentence(
    specs: tuple[DetectorSpec, ...], cues: CueIndex, sentence: Sentence, in_clause: frozenset[str], heading: bool,
    resolver: PartyResolver, cause: re.Pattern[str], previous: str,
) -> tuple[list[Hit], Counter[str]]:
    """The hits of one sentence, and the sentences each fitted reader read in it (0 or 1)."""
    text = sentence.text
    low = text.lower()
    cued = cues.names(low)
    hits: list[Hit] = []
    read: Counter[str] = Counter()
    for spec in specs:
        if spec.name not in (in_clause if spec.cue_scope == "clause" else cued):
            continue
        if spec.require_any is not None and spec.cue_scope != "clause" and not spec.require_any.search(text, low):
            continue
        if spec.exclude_any is not None and spec.exclude_any.search(text, low):
            continue
        reads = bool(spec.reader) and (commitment.readers()[spec.reader].headings or not heading)
        read[spec.reader] += reads
        hits.extend(_run(spec, sentence, resolver, cause, previous, low, reads))
    return hits, read


def detect_sentences(sentences: list[Sentence], *, zh_provider: Layout = "乙方") -> list[Hit]:
    """Hits in chosen sentences with the cue pre-filter skipped (for sentences an LLM
    suggested): the patterns, exclusions and negation rules still apply."""
    specs = detectors(zh_provider)
    resolver = PartyResolver(zh_provider)
    cause = _cause_re(zh_provider)
    hits: list[Hit] = []
    for sentence in sentences:
        for spec in specs:
            if spec.require_any is not None and not spec.require_any.search(sentence.text):
                continue
            if spec.exclude_any is not None and spec.exclude_any.search(sentence.text):
                continue
            hits.extend(_run(spec, sentence, resolver, cause, ""))
    return hits


def detect_text(text: str, **kwargs: object) -> list[Hit]:
    """Hits in a bare piece of text (one clause), e.g. a sentence from an evaluation set."""
    return detect(split_clauses(read_text(text)), **kwargs)  # type: ignore[arg-type]


def _run(
    spec: DetectorSpec, sentence: Sentence, resolver: PartyResolver, cause: re.Pattern[str], previous: str,
    low: str | None = None, reads: bool = True,
) -> list[Hit]:
    text = sentence.text
    low = text.lower() if low is None else low
    found: list[Hit] = []
    voided = spec.void_any is not None and spec.void_any.search(text, low) is not None  # "自公布之日起生效": nothing protects
    protect, denied, optional = _protection(spec, text, resolver, low) if not voided else ([], None, None)
    neutral = spec.neutral_any.pattern_for(text, low) if spec.neutral_any is not None else None
    spared = list(neutral.finditer(text)) if neutral is not None else []  # "已使用的费用不予退还": only what was used is kept
    trap, cleared = _first_unnegated(spec, text, (protect if spec.shield else []) + spared, low)
    if (
        trap is not None
        and spec.name == "termination_for_convenience"
        and not W["convenience"].search(text)
        and (cause.search(text) or cause.search(previous[-300:]))
    ):
        trap = None  # termination for breach, insolvency, ... (here or in the sentence before): for cause
    first_protect = protect[0] if protect else None
    for kind, m in (("trap", trap), ("protect", first_protect)):
        if m is not None:
            found.append(_hit(spec, kind, sentence, m, resolver))  # type: ignore[arg-type]
    if denied is not None and first_protect is None:
        found.append(_hit(spec, "denied", sentence, denied, resolver))
    if cleared is not None and trap is None and first_protect is None:
        kind = spec.negated_trap if denied is None else "present"
        found.append(_hit(spec, kind, sentence, cleared, resolver))  # type: ignore[arg-type]
    if not found:
        m = _first(spec, "present", text, low)
        if m is not None and spec.negation and semantics.denies(m.group(0)):
            found.append(_hit(spec, "denied", sentence, m, resolver))  # "SLA 保障，不适用任何赔偿"
        elif m is not None:
            found.append(_hit(spec, "present", sentence, m, resolver))
        elif optional is not None:
            found.append(_hit(spec, "present", sentence, optional, resolver))
        elif spec.reader and reads and not voided and (score := (r := commitment.readers()[spec.reader]).score(text, resolver)) >= r.threshold:
            found.append(_hit(spec, r.kind, sentence, _WHOLE.search(text), resolver))  # type: ignore[arg-type]
            found[-1].score = score
    return found


def _excepted(text: str, end: int, resolver: PartyResolver) -> bool:
    """Does an exception after the protection give the right back to anyone but the customer?
    ("但乙方有权调整" voids a price lock; "但甲方可以申请提前结束" does not)."""
    clause = semantics.exception_after(text, end)
    return clause is not None and resolver.actor(clause, len(clause)) != "customer"


def _negated(spec: DetectorSpec, kind: str, text: str, m: re.Match[str]) -> bool:
    """Is this match negated (semantics.negated)? A negator inside it counts when the pattern
    that matched matches as well without it ("单价并不固定": the lock pattern does not need
    并不); one the pattern needs ("no automatic renewal", "不予退还") is its own meaning."""
    alternative = next((p for p in spec.patterns.get(kind) or [] if p.match(text, m.start())), None)

    def optional(n_start: int, n_end: int) -> bool:
        if alternative is None:
            return False
        without = alternative.match(text[:n_start] + text[n_end:], m.start())
        return without is not None and without.end() == m.end() - (n_end - n_start)

    return semantics.negated(text, m.start(), m.end(), optional=optional)


def _protection(
    spec: DetectorSpec, text: str, resolver: PartyResolver, low: str
) -> tuple[list[re.Match[str]], re.Match[str] | None, re.Match[str] | None]:
    """The protective matches that stand, the first one the sentence negates ("没有锁价",
    "no price lock", "已预付租金不予退还": a negated protection is a missing one, never a
    protection), and the first that is only the provider's option ("Provider may refund"),
    which protects nobody. A detector with ``negation: false`` reads its protections as written."""
    union = spec.combined["protect"]
    pattern = union.pattern_for(text, low) if union is not None else None
    if pattern is None:
        return [], None, None
    standing: list[re.Match[str]] = []
    denied: re.Match[str] | None = None
    optional: re.Match[str] | None = None
    pos = 0
    while (m := pattern.search(text, pos)) is not None:
        pos = max(m.end(), m.start() + 1)
        if spec.negation and (_negated(spec, "protect", text, m) or semantics.denies(m.group(0)) or semantics.denied_after(text, m.end())
                              or _excepted(text, m.end(), resolver)):
            denied = denied or m
            pos = m.start() + 1  # a later reading inside it may stand ("is not charged for the remaining term and receives a pro-rata refund")
            continue
        if semantics.optional_for(text, m.start(), m.end(), resolver) == "provider":
            optional = optional or m
            continue
        standing.append(m)
    return standing, denied, optional


def _hit(spec: DetectorSpec, kind: Kind, sentence: Sentence, m: re.Match[str], resolver: PartyResolver) -> Hit:
    extractor = EXTRACTORS.get(spec.name)
    values = extractor(sentence.text, m.start()) if extractor else {}
    party = None
    if spec.name == "early_termination":
        party = _payer(sentence.text, m, resolver)
    elif spec.name in _PARTY_DETECTORS:
        party = _actor(sentence.text, m, resolver)
    return Hit(spec.name, spec.category, kind, sentence, m.group(0), values, party)


def _payer(text: str, m: re.Match[str], resolver: PartyResolver) -> Party:
    """Who pays a penalty: the party named before the last payment verb up to the match
    ("Provider shall pay Customer an early termination fee" is the provider; a prepayment
    not returned is the customer's), else the one who terminates."""
    pays = [p for p in W["pay_verb"].finditer(text, 0, m.end()) if p.start() >= max(0, m.start() - 80)]
    if pays and pays[-1].group("kept"):
        return "customer"  # "已预付费用归乙方所有，不予返还": a prepayment kept is the customer's loss
    if pays:
        before = W["recipient"].sub(" ", text[: pays[-1].start()])  # "应向乙方支付": 乙方 receives
        found = resolver.actor(before, len(before))
        if found != "other":
            return found
    return _actor(text, m, resolver)


def _actor(text: str, m: re.Match[str], resolver: PartyResolver) -> Party:
    """Who acts: the subject before the modal ("乙方有权…通知甲方解除" is 乙方), the agent
    of a passive ("may be terminated by Provider"), else the party named before the verb."""
    passive = W["passive_by"].search(text, m.start())
    if passive and passive.start() < m.end() + 40:
        agent = resolver.first(text[passive.end() : passive.end() + 60])
        if agent != "other":
            return agent
    verb = W["actor_verb"].search(text, m.start())
    end = verb.start() if verb and verb.start() < m.end() + 40 else m.end()
    modal = semantics.first_modal(text, max(0, m.start() - 60), end)
    return resolver.actor(text, modal if modal is not None else end)


def _first(spec: DetectorSpec, kind: str, text: str, low: str) -> re.Match[str] | None:
    """The first match; with the detector's ``negation``, one that is not negated ("no service credits")."""
    union = spec.combined[kind]
    pattern = union.pattern_for(text, low) if union is not None else None
    if pattern is None:
        return None
    if not spec.negation:
        return pattern.search(text)
    for m in pattern.finditer(text):
        if not _negated(spec, kind, text, m):
            return m
    return None


def _first_unnegated(
    spec: DetectorSpec, text: str, shield: list[re.Match[str]], low: str
) -> tuple[re.Match[str] | None, re.Match[str] | None]:
    """The first trap match that stands, and the first one the sentence negates: negated
    in its scope (semantics.py), or a negated charge inside it ("不另行收取", "not be
    billed"). A standing protective reading of the same words shields a trap (a negated
    protection shields nothing)."""
    union = spec.combined["trap"]
    pattern = union.pattern_for(text, low) if union is not None else None
    if pattern is None:
        return None, None
    cleared: re.Match[str] | None = None
    pos = 0
    while (m := pattern.search(text, pos)) is not None:
        pos = max(m.end(), m.start() + 1)
        if _negated(spec, "trap", text, m) or semantics.negated_charge(m.group(0)):
            cleared = cleared or m
            pos = m.start() + 1  # a later reading inside it may stand ("不含出网流量，出网流量另行计费")
            continue
        if any(p.start() < m.end() and m.start() < p.end() for p in shield):
            continue
        return m, cleared
    return None, cleared


def _cause_re(zh_provider: Layout) -> re.Pattern[str]:
    defs = _raw().get("defs") or {}
    return re.compile(f"{defs.get('CAUSE', 'breach')}|{defs.get('ZCAUSE', '违约')}", re.IGNORECASE)


def _shorten(text: str, limit: int = 400) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
