"""Loads the detector vocabulary (patterns.yaml) and compiles it, once per party layout.

The vocabulary is data so that a reviewer can read and extend what each fact looks like
without touching the detection logic. A broken pattern names its detector and list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from advisor.contracts.literals import Alternation
from advisor.contracts.parties import Layout, as_parties, party_words
from advisor.datafile import mapping_section, read_mapping
from advisor.errors import DataError

PATTERNS_PATH = Path(__file__).with_name("patterns.yaml")
KINDS = ("trap", "protect", "present")
_FLAGS = re.IGNORECASE


@dataclass
class DetectorSpec:
    """One detector: its category and its compiled pattern lists."""

    name: str
    category: str | None
    cue: tuple[str, ...]
    cue_scope: str = "sentence"
    require: re.Pattern[str] | None = None
    exclude: list[re.Pattern[str]] = field(default_factory=list)
    void: list[re.Pattern[str]] = field(default_factory=list)  # found in a sentence, it voids the sentence's protections
    neutral: list[re.Pattern[str]] = field(default_factory=list)  # words a trap pattern reads that are no trap
    patterns: dict[str, list[re.Pattern[str]]] = field(default_factory=dict)
    checklist_kinds: tuple[str, ...] = KINDS
    negation: bool = True
    shield: bool = True
    negated_trap: str = "present"
    reader: str = ""  # the fitted sentence reader (commitment.py) read when no pattern speaks
    combined: dict[str, Alternation | None] = field(default_factory=dict)
    exclude_any: Alternation | None = None
    void_any: Alternation | None = None
    neutral_any: Alternation | None = None
    require_any: Alternation | None = None

    def __post_init__(self) -> None:
        """One alternation per list: a sentence is searched once per kind, not once per pattern,
        and only with the patterns whose literal words it contains (literals.py)."""
        for kind in KINDS:
            self.combined[kind] = _union(self.patterns.get(kind) or [])
        self.exclude_any = _union(self.exclude)
        self.void_any = _union(self.void)
        self.neutral_any = _union(self.neutral)
        self.require_any = _union([self.require] if self.require is not None else [])



@lru_cache(maxsize=1)
def _raw() -> dict:
    data = read_mapping(PATTERNS_PATH)
    mapping_section(PATTERNS_PATH, data, "detectors")
    return data


@lru_cache(maxsize=8)
def detectors(zh_provider: Layout = "乙方") -> tuple[DetectorSpec, ...]:
    """All detectors, compiled for a contract whose provider is ``zh_provider`` (甲方/乙方,
    or the full :class:`~advisor.contracts.parties.Parties` with the names it defines)."""
    data = _raw()
    parties = as_parties(zh_provider)
    zp, zc = party_words(parties)
    defs = {str(k): str(v) for k, v in (data.get("defs") or {}).items()}
    defs["ZP"], defs["ZC"] = f"(?:{zp})", f"(?:{zc})"  # one group: "未经%ZC%" must not leak an alternative
    for key, names in (("P", parties.provider), ("C", parties.customer)):
        if names and key in defs:
            defs[key] = "(?:" + defs[key] + "".join(f"|{re.escape(n)}" for n in sorted(names, key=len, reverse=True)) + ")"
    specs: list[DetectorSpec] = []
    for name, entry in data["detectors"].items():
        if not isinstance(entry, dict) or "cue" not in entry:
            raise DataError(str(PATTERNS_PATH), "each detector needs a 'cue'", row=name)
        spec = DetectorSpec(
            name=name,
            category=entry.get("category"),
            cue=_keywords(entry["cue"], name),
            cue_scope=entry.get("cue_scope", "sentence"),
            require=_compile(entry["require"], defs, name, "require") if entry.get("require") else None,
            exclude=[_compile(p, defs, name, "exclude") for p in entry.get("exclude") or []],
            void=[_compile(p, defs, name, "void") for p in entry.get("void") or []],
            neutral=[_compile(p, defs, name, "neutral") for p in entry.get("neutral") or []],
            checklist_kinds=tuple(entry.get("checklist_kinds") or KINDS),
            negation=bool(entry.get("negation", True)),
            shield=bool(entry.get("shield", True)),
            negated_trap=str(entry.get("negated_trap", "present")),
            reader=str(entry.get("reader", "")),
        )
        if spec.negated_trap not in ("protect", "present"):
            raise DataError(str(PATTERNS_PATH), "negated_trap must be 'protect' or 'present'", row=name, field="negated_trap")
        for kind in KINDS:
            spec.patterns[kind] = [_compile(p, defs, name, kind) for p in entry.get(kind) or []]
        spec.__post_init__()
        specs.append(spec)
    return tuple(specs)


def _union(patterns: list[re.Pattern[str]]) -> Alternation | None:
    return Alternation(patterns, _FLAGS) if patterns else None


_WORD_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


class CueIndex:
    """Which detectors' cue keywords a lower-cased text contains.

    Fast without a multi-pattern matcher: Latin keywords are looked up per distinct word (a
    keyword with a leading space must start the word, others may sit anywhere in it, so
    "non-renewal" cues "renew"), with the answer cached per word; keywords of several words
    are plain substring tests; Chinese keywords are tested only when their first character
    occurs in the text."""

    _CACHE_LIMIT = 200_000

    def __init__(self, specs: tuple[DetectorSpec, ...]) -> None:
        owners: dict[str, set[str]] = {}
        for spec in specs:
            for k in spec.cue:
                owners.setdefault(k, set()).add(spec.name)
        self._owners = {k: frozenset(v) for k, v in owners.items()}
        self._starts = [(k.strip(), self._owners[k]) for k in owners if k.isascii() and k.startswith(" ") and " " not in k.strip()]
        self._inside = [(k, self._owners[k]) for k in owners if k.isascii() and " " not in k]
        self._phrases = [(k, self._owners[k]) for k in owners if k.isascii() and " " in k.strip()]
        self._cjk: dict[str, list[tuple[str, frozenset[str]]]] = {}
        for k in owners:
            if not k.isascii():
                self._cjk.setdefault(k[0], []).append((k, self._owners[k]))
        self._words: dict[str, frozenset[str]] = {}

    def _word(self, word: str) -> frozenset[str]:
        found = self._words.get(word)
        if found is None:
            found = frozenset().union(
                *(o for k, o in self._starts if word.startswith(k)), *(o for k, o in self._inside if k in word)
            )
            if len(self._words) > self._CACHE_LIMIT:
                self._words.clear()
            self._words[word] = found
        return found

    def names(self, low: str) -> set[str]:
        found: set[str] = set()
        for word in set(_WORD_RE.findall(low)):
            found |= self._word(word)
        padded = f" {low} "
        for k, o in self._phrases:
            if k in padded:
                found |= o
        for ch in self._cjk.keys() & set(low):
            for k, o in self._cjk[ch]:
                if k in low:
                    found |= o
        return found


@lru_cache(maxsize=8)
def cue_index(zh_provider: Layout = "乙方") -> CueIndex:
    return CueIndex(detectors(zh_provider))


def _keywords(cue: object, detector: str) -> tuple[str, ...]:
    if isinstance(cue, str):
        cue = [cue]
    if not isinstance(cue, list) or not all(isinstance(k, str) and k for k in cue):
        raise DataError(str(PATTERNS_PATH), "cue must be a list of keywords", row=detector, field="cue")
    return tuple(k.lower() for k in cue)


def _compile(pattern: str, defs: dict[str, str], detector: str, where: str) -> re.Pattern[str]:
    text = re.sub(r"%([A-Z]+)%", lambda m: defs.get(m.group(1), m.group(0)), str(pattern))
    if re.search(r"%[A-Z]+%", text):
        raise DataError(str(PATTERNS_PATH), f"unknown fragment in {text[:60]!r}", row=detector, field=where)
    try:
        return re.compile(text, _FLAGS)
    except re.error as exc:
        raise DataError(str(PATTERNS_PATH), f"bad regular expression ({exc})", row=detector, field=where) from exc
