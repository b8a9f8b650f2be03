"""Clause semantics: who must, may or must not do what, and whether it is negated.

Every contract detector (detectors.py) reads each of its matches through :func:`read`, so a
negation, a comparator or a modal is recognised the same way in every category and in both
languages. The words live in semantics.yaml; this module only applies them:

* **polarity** - a negator ("not", "never", "without", 不/未/无/没有/无需 ...) negates what
  follows it up to the end of its segment: a strong break (sentence end, "unless", "but",
  "which", 但/除非/否则, a new subject after "and") ends the scope, and a comma ends it too
  unless only auxiliaries stand between the negator and the comma ("shall not, without
  consent, raise"). A negator inside a condition ("if ... not ...", 如...未...) reaches only a
  few words. Negators are counted, so "never reclaim ... without notice" and
  "不会在未提前通知的情况下回收" read as an affirmed notice. Comparators and fixed phrases
  ("not less than", "不低于", "whether or not", "免费", "不可抗力") are not negators.
  A negator with its own object ("without notice", "without penalty", 不经甲方同意, 无需通知)
  negates that object only: "乙方可不经甲方同意调整单价" still gives the provider the change.
* **modality** - the nearest modal before the predicate in its segment: obligation (shall,
  must, 应, 须), permission (may, 可, 有权), prohibition (shall not, 不得), exemption (not
  required to, 无需), else a plain statement.
* **actor** - the party named before that modal (parties.py).
* **object** and **quantity** - the matched words and the numbers the detector's extractor
  reads from them (values.py).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from advisor.contracts.parties import Party, PartyResolver
from advisor.datafile import read_mapping
from advisor.errors import DataError

SEMANTICS_PATH = Path(__file__).with_name("semantics.yaml")
Modality = Literal["obligation", "permission", "prohibition", "exemption", "statement"]
_MODAL_ORDER: tuple[Modality, ...] = ("exemption", "prohibition", "obligation", "permission")
_FLAGS = re.IGNORECASE
_CJK_RE = re.compile(r"[\u4e00-\u9fff]")
_WORD_RE = re.compile(r"\w+")
_AUX_RE = re.compile(r"^(?:\s|\b(?:be|been|to|do|does|did|in\s+any\s+event|under\s+any\s+circumstances|at\s+any\s+time|ever)\b)*$", _FLAGS)


@dataclass(frozen=True)
class Reading:
    """How one matched phrase is meant: who, which modality, negated or not, what, how much."""

    actor: Party
    modality: Modality
    negated: bool
    object: str
    quantity: dict[str, Any]


class _Vocabulary:
    def __init__(self, data: dict[str, Any]) -> None:
        def union(value: Any, where: str) -> re.Pattern[str]:
            parts = value if isinstance(value, list) else [value]
            try:
                return re.compile("|".join(f"(?:{p})" for p in parts), _FLAGS)
            except (re.error, TypeError) as exc:
                raise DataError(str(SEMANTICS_PATH), f"bad regular expression ({exc})", field=where) from exc

        def both(key: str) -> re.Pattern[str]:
            entry = data.get(key)
            if not isinstance(entry, dict) or not {"en", "zh"} <= entry.keys():
                raise DataError(str(SEMANTICS_PATH), "needs 'en' and 'zh'", field=key)
            en, zh = entry["en"], entry["zh"]
            return union([*(en if isinstance(en, list) else [en]), *(zh if isinstance(zh, list) else [zh])], key)

        self.negator = both("negators")
        self.not_negator = both("not_negators")
        self.strong = both("strong_breaks")
        self.weak = both("weak_breaks")
        self.condition = both("conditions")
        self.comparator = both("comparators")
        self.condition_end = both("condition_ends")
        window = data.get("condition_window") or {}
        self.window_en = int(window.get("en", 2))
        self.window_zh = int(window.get("zh", 6))
        self.denial = both("denials")
        self.denial_after = both("denials_after")
        self.negated_charge = both("negated_charges")
        self.exception = both("exceptions")
        self.bounded = both("bounded")
        modals = data.get("modals") or {}
        self.modals = {name: union(modals[name], f"modals.{name}") for name in _MODAL_ORDER if name in modals}
        if len(self.modals) != len(_MODAL_ORDER):
            raise DataError(str(SEMANTICS_PATH), f"modals needs {', '.join(_MODAL_ORDER)}", field="modals")


@lru_cache(maxsize=1)
def vocabulary() -> _Vocabulary:
    return _Vocabulary(read_mapping(SEMANTICS_PATH))


class _Analysis:
    """Where a sentence's negators, breaks, conditions and modals are (computed once per text)."""

    def __init__(self, text: str) -> None:
        v = vocabulary()
        self.text = text
        masked = v.not_negator.sub(lambda m: "\x00" * len(m.group(0)), text)
        self.negators = [m.span() for m in v.negator.finditer(masked)]
        bounded = {m.start(): m.end() for m in v.bounded.finditer(masked)}  # "without notice": the scope ends with it
        self.scope_end = {s: bounded[s] for s, _ in self.negators if s in bounded}
        self.neg_starts = [s for s, _ in self.negators]
        spans = [m.span() for m in v.strong.finditer(text)]
        self.strong = sorted(e for _, e in spans)
        self.strong_starts = sorted(s for s, _ in spans)
        self.weak = sorted(m.start() for m in v.weak.finditer(text))
        self.conditions = [m.start() for m in v.condition.finditer(masked)]
        self.comparators = [m.end() for m in v.comparator.finditer(text)]
        self._modals: list[tuple[int, int, Modality]] | None = None

    @property
    def modals(self) -> list[tuple[int, int, Modality]]:
        """Every modal of the text as (start, end, modality), by end (found on first use)."""
        if self._modals is None:
            v = vocabulary()
            found = [(m.start(), m.end(), name) for name in _MODAL_ORDER for m in v.modals[name].finditer(self.text)]
            found.sort(key=lambda t: (t[1], -_MODAL_ORDER.index(t[2])))
            self._modals = found
        return self._modals

    def segment_start(self, pos: int) -> int:
        i = bisect_right(self.strong, pos) - 1
        return self.strong[i] if i >= 0 else 0

    def segment_end(self, pos: int, text_len: int) -> int:
        i = bisect_left(self.strong_starts, pos)
        return self.strong_starts[i] if i < len(self.strong_starts) else text_len


@lru_cache(maxsize=4096)
def _analysis(text: str) -> _Analysis:
    return _Analysis(text)


def _reach(text: str, gap: str) -> bool:
    v = vocabulary()
    if _CJK_RE.search(gap):
        return len(gap.strip()) <= v.window_zh
    return len(_WORD_RE.findall(gap)) <= v.window_en


def negated(text: str, start: int, end: int | None = None, *, optional: Callable[[int, int], bool] | None = None) -> bool:
    """Is the phrase ``text[start:end]`` negated? Counts the negators whose scope covers its
    start and, with ``optional``, those inside the phrase (up to a strong break) for which
    ``optional(neg_start, neg_end)`` says the matched words do not need them (a negator the
    pattern itself spells, as in "no automatic renewal" or "不予退还", is its meaning, not a
    negation of it); an odd count is a negation."""
    a = _analysis(text)
    seg = a.segment_start(start)
    count = 0
    lo = bisect_left(a.neg_starts, seg)
    hi = bisect_left(a.neg_starts, start)
    for n_start, n_end in a.negators[lo:hi]:
        if n_end > start or a.scope_end.get(n_start, start + 1) <= start:
            continue
        if _in_condition(a, seg, n_start):
            if _reach(text, text[n_end:start]):
                count += 1
            continue
        nxt = _next_weak(a, n_end, start)
        if nxt is None and end is not None and _other_verb(text[n_end:start]) and _next_weak(a, start, end) is not None:
            continue  # "不保留任何未使用的预付款，并于15日内返还": it negates another verb, up to the comma inside the phrase
        if nxt is None or _AUX_RE.match(text[n_end:nxt]):
            count += 1
    count += sum(1 for c in a.comparators if seg <= c <= start and _reach(text, text[c:start]))
    if count % 2 and end is not None and _forbidden_unless(a, text, start, end):
        count += 1
    if optional is not None and end is not None:
        stop = min(end, a.segment_end(start + 1, len(text)))
        for n_start, n_end in a.negators[bisect_left(a.neg_starts, start) : bisect_left(a.neg_starts, stop)]:
            # "不予退还，并应支付违约金" / "is not free; it is billed": the negator stops at the break
            reaches_end = stop >= end and _next_weak(a, n_end, stop) is None and a.scope_end.get(n_start, end) >= end
            if reaches_end and not _in_condition(a, start, n_start) and optional(n_start, n_end):
                count += 1
    return count % 2 == 1


def _other_verb(gap: str) -> bool:
    """Do words other than an auxiliary ("予", "be") stand between a negator and the phrase?"""
    return len(gap.strip()) >= 2 if _CJK_RE.search(gap) else not _AUX_RE.match(gap)


def _forbidden_unless(a: _Analysis, text: str, start: int, end: int) -> bool:
    """Is the phrase inside a condition whose main clause forbids the act ("乙方未提前2小时通知的，
    不得回收", "if Provider has not given notice, it shall not reclaim")? Then the negated
    condition is a requirement."""
    seg = a.segment_start(start)
    stop = a.segment_end(start + 1, len(text))
    comma = _next_weak(a, end, stop)
    if comma is None or not (_in_condition(a, seg, start) or vocabulary().condition_end.search(text[end:comma])):
        return False
    return any(name == "prohibition" and comma < s < stop for s, _, name in a.modals)


def _in_condition(a: _Analysis, seg: int, pos: int) -> bool:
    i = bisect_left(a.conditions, seg)  # the conditions are in text order
    return i < len(a.conditions) and a.conditions[i] < pos


def _next_weak(a: _Analysis, lo: int, hi: int) -> int | None:
    i = bisect_left(a.weak, lo)
    return a.weak[i] if i < len(a.weak) and a.weak[i] < hi else None


def modality(text: str, start: int, end: int | None = None) -> tuple[Modality, int | None]:
    """The modality of the predicate at ``start`` (or inside the match up to ``end``) and
    where its modal word stands."""
    a = _analysis(text)
    seg = a.segment_start(start)
    limit = min(end if end is not None else start, a.segment_end(start + 1, len(text)))
    before = [t for t in a.modals if seg <= t[0] < start and t[1] <= start]
    if before:
        return before[-1][2], before[-1][0]  # the nearest modal before the phrase
    inside = sorted((t for t in a.modals if start <= t[0] and t[1] <= limit), key=lambda t: (t[0], -t[1]))
    if inside:
        return inside[0][2], inside[0][0]  # "Provider may change ...": the match opens with its subject
    return "statement", None


def denies(phrase: str) -> bool:
    """Does a protective phrase negate its own granting verb ("不提供价格锁定", "not locked")?"""
    return vocabulary().denial.search(phrase) is not None


def denied_after(text: str, end: int) -> bool:
    """Does a predicate right after a protection ending at ``end`` deny it ("价格保护不适用",
    "锁价：无", "Price lock does not apply")?"""
    return vocabulary().denial_after.match(text, end) is not None


def negated_charge(phrase: str) -> bool:
    """Does a trap phrase negate the charge inside it ("不另行收取", "not be billed")?"""
    return vocabulary().negated_charge.search(phrase) is not None


def exception_after(text: str, end: int) -> str | None:
    """The exception right after a protection ending at ``end`` that hands a right back
    ("..., except that Provider may increase them"), or ``None``."""
    m = vocabulary().exception.search(text[end:])
    return m.group(0) if m else None


def first_modal(text: str, lo: int, hi: int) -> int | None:
    """Where the first modal word (any modality) between ``lo`` and ``hi`` starts."""
    starts = [s for s, e, _ in _analysis(text).modals if lo <= s and e <= hi]
    return min(starts) if starts else None


def optional_for(text: str, start: int, end: int, resolver: PartyResolver) -> Party | None:
    """The party whose mere option the phrase is ("Provider may notify", "乙方可退还"): a
    permission modal directly before it (at most a few words, no comma between). ``None``
    when the phrase is an obligation, a statement, or only a condition on another permitted
    act ("Provider may reclaim instances with two hours' notice")."""
    mode, at = modality(text, start, end)
    if mode != "permission" or at is None:
        return None
    a = _analysis(text)
    modal_end = next(e for s, e, _ in a.modals if s == at)
    gap = text[modal_end:start]
    if _next_weak(a, modal_end, start) is not None or not _reach(text, gap):
        return None
    return resolver.actor(text, at)


def read(text: str, start: int, end: int, resolver: PartyResolver, *,
         optional: Callable[[int, int], bool] | None = None, quantity: dict[str, Any] | None = None) -> Reading:
    """The reading of the phrase ``text[start:end]`` in its sentence."""
    mode, at = modality(text, start, end)
    actor = resolver.actor(text, at if at is not None else start)
    if actor == "other":
        actor = resolver.first(text[start:end])  # "关机期间乙方不再计费": the subject stands inside
    return Reading(actor, mode, negated(text, start, end, optional=optional), text[start:end], quantity or {})
