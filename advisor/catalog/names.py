"""Name resolution for catalog entries: ids and aliases match case-, space- and
dash-insensitively ("A100 80G" = "a100-80g"), and unknown names raise
:class:`~advisor.errors.UnknownNameError` with the closest known names.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from advisor.errors import DataError, UnknownNameError, close_matches
from advisor.numeric import SUFFIX_SCALE

_DROP = re.compile(r"[\s\-_·•]+")


def normalize_name(name: str) -> str:
    """The lookup key of a name: NFKC (full-width to half-width), case-folded, without
    spaces, dashes, underscores and middle dots. Dots and slashes are kept, so that
    ``qwen2.5-7b`` and ``qwen2-57b`` stay different."""
    return _key(str(name))


@lru_cache(maxsize=4096)
def _key(text: str) -> str:  # every report looks up the same few names many times
    return _DROP.sub("", unicodedata.normalize("NFKC", text).casefold())


@dataclass(frozen=True)
class NameHit:
    """A catalog name found in free text: ``text[start:end]`` names entry ``id``."""

    start: int
    end: int
    id: str
    text: str


_WORD = re.compile(r"[a-z0-9]")
_COUNT_X = re.compile(r"\d\s*[x×*]\s*$")
# A name written in digits only ("3090", "910") and followed by a magnitude word is a number,
# not a name: "3090亿 token", "4090 million tokens". Magnitudes from the one number parser.
_WORD_MAGNITUDES = sorted((s for s in SUFFIX_SCALE if len(s) > 1 and s.isascii()), key=len, reverse=True)
_CJK_MAGNITUDES = sorted((s for s in SUFFIX_SCALE if not s.isascii()), key=len, reverse=True)
# A name whose last digits stand apart ("910b 2张", "h100 8 cards") ends before them: they count the cards.
_APART_DIGITS = re.compile(r"\s+\d+$")
_MEASURE_AFTER = re.compile(r"\s*(?:张|块|卡|台|片|个|[x×*](?![a-z0-9])|(?:gpus?|cards?)(?![a-z]))")
_MAGNITUDE_AFTER = re.compile(r"\s*(?:(?:" + "|".join(_WORD_MAGNITUDES) + r")(?![a-z])|"
                              + "|".join(_CJK_MAGNITUDES) + ")")


def _compact(text: str) -> tuple[str, list[int]]:
    """``text`` as lookup keys see it (see :func:`normalize_name`), with, for each character
    kept, its offset in ``text`` — so a key found in the compact text is a span of ``text``."""
    chars: list[str] = []
    offsets: list[int] = []
    for i, ch in enumerate(text):
        if _DROP.fullmatch(ch):
            continue
        for c in unicodedata.normalize("NFKC", ch).casefold():
            chars.append(c)
            offsets.append(i)
    return "".join(chars), offsets


def _bounded(low: str, start: int, end: int) -> bool:
    """A name is a whole word: not inside a longer ASCII token ("a1000", "xh100"), except
    after a count ("8xH100") and before a plural ("H100s")."""
    before = low[start - 1] if start > 0 else " "
    if _WORD.match(before) and not _COUNT_X.search(low[max(0, start - 4) : start]):
        return False
    after = low[end : end + 2]
    if after[:1] == "s" and not _WORD.match(after[1:2] or " "):
        return True
    return not (after and _WORD.match(after[0]))


class NameIndex:
    """Maps normalised names to canonical ids for one kind of entry (gpu, model, provider).

    ``path`` is the data file the names come from, so that a clash can be reported there.
    """

    def __init__(self, kind: str, path: str, accepted: str = "") -> None:
        self.kind = kind
        self.path = path
        self.accepted = accepted
        self._keys: dict[str, str] = {}
        self._ids: list[str] = []
        self._sorted_keys: list[str] = []
        self._pattern: re.Pattern[str] | None = None
        self._pattern_size = -1

    def add(self, target: str, names: Iterable[str], *, row: int | str | None = None) -> None:
        """Register ``target`` under its own id and each of ``names``.

        Raises DataError when a name already points to a different entry.
        """
        self._ids.append(target)
        for name in (target, *names):
            key = normalize_name(name)
            if not key:
                raise DataError(self.path, f"empty alias for {target!r}", row=row, field="aliases")
            owner = self._keys.setdefault(key, target)
            if owner != target:
                raise DataError(
                    self.path,
                    f"alias {name!r} of {target!r} already names {owner!r}; aliases must be unique",
                    row=row,
                    field="aliases",
                )

    def find_in_text(self, text: str) -> list[NameHit]:
        """Every name of this index written in ``text``, left to right, the longest name at
        each place (``A100-SXM4-40GB`` before ``A100``); spacing, dashes and case may differ
        from the data file, as in :meth:`find`."""
        if not self._keys or not text:
            return []
        if self._pattern is None or self._pattern_size != len(self._keys):
            self._sorted_keys = sorted(self._keys, key=len, reverse=True)
            self._pattern = re.compile("|".join(re.escape(k) for k in self._sorted_keys))
            self._pattern_size = len(self._keys)
        compact, offsets = _compact(text)
        low = text.lower() if len(text.lower()) == len(text) else text
        hits: list[NameHit] = []
        pos = 0
        while (m := self._pattern.search(compact, pos)) is not None:
            at = m.start()
            pos = at + 1
            for key in self._sorted_keys:
                if compact.startswith(key, at):
                    start, end = offsets[at], offsets[at + len(key) - 1] + 1
                    if key.isdigit() and _MAGNITUDE_AFTER.match(low, end):
                        continue
                    if _APART_DIGITS.search(low, start, end) and _MEASURE_AFTER.match(low, end):
                        continue
                    if _bounded(low, start, end):
                        hits.append(NameHit(start, end, self._keys[key], text[start:end]))
                        pos = at + len(key)
                        break
        return hits

    def find(self, name: str) -> str | None:
        """The id for ``name``, or None."""
        return self._keys.get(normalize_name(name))

    def resolve(self, name: str, *, fallbacks: Callable[[str], Iterable[str]] | None = None) -> str:
        """The id for ``name``; tries ``fallbacks(name)`` variants next; else UnknownNameError."""
        found = self.find(name)
        if found is None and fallbacks is not None:
            for variant in fallbacks(name):
                found = self.find(variant)
                if found is not None:
                    break
        if found is None:
            raise UnknownNameError(self.kind, str(name), self.suggestions(name), self.accepted)
        return found

    def suggestions(self, name: str, n: int = 3) -> list[str]:
        """Canonical ids whose names are closest to ``name``, best first."""
        hits = close_matches(normalize_name(name), self._keys, n=n * 4)
        ordered: list[str] = []
        for key in hits:
            target = self._keys[key]
            if target not in ordered:
                ordered.append(target)
        return ordered[:n]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.find(name) is not None

    @property
    def ids(self) -> list[str]:
        return list(self._ids)


def hub_and_suffix_variants(name: str) -> list[str]:
    """Model-name fallbacks: the last part of a hub repo id (``org/Model``), then the name
    without a trailing ``-instruct``/``-chat``/``-it``/``-base``/``-hf`` (repeatedly)."""
    variants: list[str] = []
    base = str(name).strip()
    if "/" in base:
        base = base.rsplit("/", 1)[1]
        variants.append(base)
    current = base
    pattern = re.compile(r"[\s\-_]+(instruct|chat|it|base|hf|pt)$", re.IGNORECASE)
    while True:
        stripped = pattern.sub("", current)
        if stripped == current or not stripped:
            break
        variants.append(stripped)
        current = stripped
    return variants

