"""Fitted sentence readers: is a sentence a minimum commitment, or a given protection?

A reader reads a sentence for its parts (commitment.yaml: a floor, a quantity, money, a duty,
a purchase verb, ...; protections.yaml: per protection its object and act words, such as a
price and "unchanged", a charge and "stops", data and "export", plus shared ones: a quantity
with a unit, "in advance", an exception, a definition) and for ordered pairs of parts that
stand close together. A protection reader also reads the clause parse (semantics.py) of the
parts it names: whether a match is negated (``negate``), and the modality (obligation,
permission, prohibition, exemption) and the party (provider, customer) of its first ``act``
match. Each is a 0/1 feature; their weights, the bias and the threshold are data, fitted by
scripts/fit_min_commitment.py and scripts/fit_protections.py (scripts/logit.py). A detector
names its reader (patterns.yaml ``reader``) and reads a sentence above the threshold as its
``kind`` ("present" for a commitment, "protect" for a protection) when none of its patterns
speaks. The threshold rises with the number of sentences read in the document (``by_length``).
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from advisor.contracts import semantics
from advisor.contracts.literals import Need, required
from advisor.contracts.parties import PartyResolver
from advisor.datafile import read_mapping

PATH = Path(__file__).with_name("commitment.yaml")
PROTECTIONS = Path(__file__).with_name("protections.yaml")
MODALS = ("obligation", "permission", "prohibition", "exemption")
_RESOLVER = PartyResolver()


class Reader:
    def __init__(self, data: dict, shared: dict | None = None, fitted: dict | None = None) -> None:
        parts = {**(shared or {}), **data["parts"]}
        self.parts = {name: re.compile(p, re.IGNORECASE) for name, p in parts.items()}
        self.pairs = [(str(a), str(b), int(n)) for a, b, n in data.get("pairs") or []]
        self.negate = [str(p) for p in data.get("negate") or []]
        self.act = [str(p) for p in data.get("act") or []]
        self.kind = str(data.get("kind", "present"))
        self.headings = bool(data.get("headings", True))  # does it read a clause's heading line?
        parse = [f"not:{p}" for p in self.negate] + ([*(f"{m}@act" for m in MODALS), "provider@act", "customer@act"] if self.act else [])
        self.names = [*self.parts, *(f"{a}>{b}" for a, b, _ in self.pairs), *parse]
        fitted = fitted if fitted is not None else data.get("fitted") or {}
        weights = fitted.get("weights") or {}
        self.weights = [float(weights.get(n, 0.0)) for n in self.names]
        self.bias = float(fitted.get("bias", 0.0))
        self.threshold = float(fitted.get("threshold", 1.0))
        self.by_length = [(int(n), float(t)) for n, t in fitted.get("by_length") or []]
        # the upper bound of z: every positive weight; a part found absent takes away the weights
        # of the features that need it (the part, its pairs, its negation; the act's features
        # need some act part); parts are tried in the order of what they can take away
        gain = [max(0.0, w) for w in self.weights]
        needs = [{n} if n in self.parts else set(n.split(">")) if ">" in n else {n[4:]} if n.startswith("not:") else set() for n in self.names]
        self._needs = {p: [i for i, d in enumerate(needs) if p in d] for p in self.parts}
        self._acts = [i for i, d in enumerate(needs) if not d]
        self._gain, self._top = gain, self.bias + sum(gain)
        self._order = sorted(self.parts, key=lambda p: -sum(gain[i] for i in self._needs[p] + (self._acts if p in self.act else [])))

    def features(self, text: str, resolver: PartyResolver | None = None) -> list[int]:
        spans = {name: list(_spans(p, text)) for name, p in self.parts.items()}
        denied = {}
        for p in self.negate:  # a negated match ("not held", "不再计费") is its own feature, not the part
            denied[p] = [sp for sp in spans[p] if semantics.negated(text, *sp)]
            spans[p] = [sp for sp in spans[p] if sp not in denied[p]]
        row = [int(bool(spans[name])) for name in self.parts]
        for a, b, near in self.pairs:
            row.append(int(any(0 <= bs - ae <= near for _, ae in spans[a] for bs, _ in spans[b])))
        row += [int(bool(denied[p])) for p in self.negate]
        if self.act:
            acts = sorted(s for p in self.act for s in spans[p] + denied.get(p, []))
            mode, at = semantics.modality(text, *acts[0]) if acts else ("statement", None)
            who = (resolver or _RESOLVER).actor(text, at if at is not None else acts[0][0]) if acts else "other"
            row += [int(mode == m) for m in MODALS] + [int(who == "provider"), int(who == "customer")]
        return row

    def score(self, text: str, resolver: PartyResolver | None = None) -> float:
        """The sentence's score, or, as soon as the parts it lacks keep every score below the
        threshold, that upper bound (the features are read only for a sentence that may pass)."""
        z, at, dead, absent = self._top, self._logit(), set[int](), set[str]()
        for p in self._order:
            if z < at:
                return min(1.0 / (1.0 + math.exp(-z)), math.nextafter(self.threshold, 0.0))
            if not _spans(self.parts[p], text):
                absent.add(p)
                lost = self._needs[p] + (self._acts if self.act and absent.issuperset(self.act) else [])
                z -= sum(self._gain[i] for i in set(lost) - dead)
                dead.update(lost)
        z = self.bias + sum(w for w, x in zip(self.weights, self.features(text, resolver), strict=True) if x)
        return 1.0 / (1.0 + math.exp(-z))

    def _logit(self) -> float:
        return math.inf if self.threshold >= 1.0 else -math.inf if self.threshold <= 0.0 else math.log(self.threshold / (1.0 - self.threshold))

    def threshold_for(self, sentences: int) -> float:
        """The score a sentence needs in a document where ``sentences`` sentences were read:
        more chances of a false reading in a long contract ask for a stronger one."""
        return max([self.threshold, *(t for n, t in self.by_length if n <= sentences)])


@lru_cache(maxsize=65536)
def _spans(pattern: re.Pattern[str], text: str) -> tuple[tuple[int, int], ...]:
    """Where a part matches: a shared part is found once per sentence for every reader (not
    at all when the text lacks every literal a match of it must contain)."""
    need = _need(pattern)
    if need is not None and (low := text.lower()) and not any(k in low for k in need):
        return ()
    return tuple(m.span() for m in pattern.finditer(text))


@lru_cache(maxsize=1024)
def _need(pattern: re.Pattern[str]) -> Need:
    return required(pattern)


def new_document() -> None:
    """Forget the spans of the last document (a review never reuses another's reading)."""
    _spans.cache_clear()


def protection_readers(data: dict[str, Any]) -> dict[str, Reader]:
    fitted = data.get("fitted") or {}
    return {name: Reader({"headings": data.get("headings", True), **entry}, data.get("shared"), fitted.get(name) or {})
            for name, entry in data["readers"].items()}


@lru_cache(maxsize=1)
def readers() -> dict[str, Reader]:
    """Every fitted reader by the name a detector's ``reader`` gives."""
    return {"commitment": Reader(read_mapping(PATH)), **protection_readers(read_mapping(PROTECTIONS))}


def reader() -> Reader:
    return readers()["commitment"]
