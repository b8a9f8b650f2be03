"""A cheap literal pre-filter in front of an alternation of regular expressions.

A detector's trap, protect and present lists are searched as one alternation per sentence;
most of its branches cannot match because a word they need is not in the sentence, yet the
regex engine still tries every branch at every position (and walks the lazy ``.{0,160}?`` gaps
of those whose first word it finds). :func:`required` reads a compiled pattern's parse tree and
gives the literal strings one of which every match must contain; :class:`Alternation` searches
a text with only the branches whose literals occur in it, in their original order. The
matches are the same as the full alternation's: a branch left out cannot match anywhere in
the text, and branch order (which branch wins at a position) is kept. Compiled sub-alternations
are cached by the set of branches kept.
"""

from __future__ import annotations

import re
from re import _casefix  # type: ignore[attr-defined]
from re import _constants as C  # type: ignore[attr-defined]
from re import _parser as P  # type: ignore[attr-defined]
from typing import Any

# Characters the regex engine folds onto other letters without str.lower() doing so (the long
# s, the Kelvin sign, dotless i, ...): a text holding one is searched with every branch.
_FOLDS = sorted({chr(c) for k, v in _casefix._EXTRA_CASES.items() for c in (k, *v)} - {chr(c) for c in range(128)})
_FOLD_RE = re.compile("[" + "".join(re.escape(c) for c in _FOLDS) + "]")
_CACHE_LIMIT = 4096

Need = frozenset[str] | None  # one of these (lower-case) strings is in every match; None: nothing known


def _better(a: Need, b: Need) -> Need:
    """The more selective of two needs (longer shortest literal, then fewer literals)."""
    if a is None:
        return b
    if b is None:
        return a
    return a if (min(map(len, a)), -len(a)) >= (min(map(len, b)), -len(b)) else b


def _need(items: Any) -> Need:
    """The need of a parsed sequence: the best of its literal runs and mandatory parts."""
    best: Need = None
    run: list[str] = []

    def close() -> None:
        nonlocal best, run
        if run:
            best = _better(best, frozenset({"".join(run)}))
            run = []

    for op, av in items:
        if op is C.LITERAL and (av < 128 or chr(av).lower() == chr(av).upper()):
            run.append(chr(av).lower())  # ASCII or a caseless character (CJK)
            continue
        close()
        if op is C.SUBPATTERN:
            best = _better(best, _need(av[-1]))
        elif op is C.BRANCH:
            alts = [_need(alt) for alt in av[1]]
            if alts and all(a is not None for a in alts):
                best = _better(best, frozenset().union(*alts))  # type: ignore[arg-type]
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, getattr(C, "POSSESSIVE_REPEAT", None)) and av[0] >= 1:
            best = _better(best, _need(av[2]))
    close()
    return best


def required(pattern: re.Pattern[str]) -> Need:
    """Literal strings (lower case) one of which any match of ``pattern`` contains, or None."""
    try:
        need = _need(P.parse(pattern.pattern, pattern.flags))
    except (re.error, RecursionError):  # pragma: no cover - the pattern compiled once already
        return None
    return need if need and all(need) else None


class Alternation:
    """``patterns`` joined as one alternation, searched with the branches a text can match."""

    def __init__(self, patterns: list[re.Pattern[str]], flags: int) -> None:
        self.patterns = patterns
        self.flags = flags
        self.needs = [required(p) for p in patterns]
        self._all = (1 << len(patterns)) - 1
        self._always = sum(1 << i for i, need in enumerate(self.needs) if need is None)
        bits: dict[str, int] = {}
        for i, need in enumerate(self.needs):
            for k in need or ():
                bits[k] = bits.get(k, 0) | 1 << i
        self._bits = tuple(bits.items())  # each literal with the branches it lets in
        self.full = self._compile(self._all)
        self._cache: dict[int, re.Pattern[str] | None] = {self._all: self.full}

    def _compile(self, keep: int) -> re.Pattern[str] | None:
        kept = [p for i, p in enumerate(self.patterns) if keep >> i & 1]
        return re.compile("|".join(f"(?:{p.pattern})" for p in kept), self.flags) if kept else None

    def pattern_for(self, text: str, low: str | None = None) -> re.Pattern[str] | None:
        """The alternation of the branches that can match ``text`` (``low``: its lower case)."""
        if _FOLD_RE.search(text):
            return self.full
        low = text.lower() if low is None else low
        keep = self._always
        for k, bit in self._bits:
            if k in low:
                keep |= bit
        found = self._cache.get(keep, False)
        if found is False:
            if len(self._cache) > _CACHE_LIMIT:
                self._cache = {self._all: self.full}
            found = self._cache[keep] = self._compile(keep)
        return found  # type: ignore[return-value]

    def search(self, text: str, low: str | None = None) -> re.Match[str] | None:
        pattern = self.pattern_for(text, low)
        return pattern.search(text) if pattern is not None else None
