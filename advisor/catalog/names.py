"""Name resolution for catalog entries: ids and aliases match case-, space- and
dash-insensitively ("A100 80G" = "a100-80g"), and unknown names raise
:class:`~advisor.errors.UnknownNameError` with the closest known names.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable

from advisor.errors import DataError, UnknownNameError, close_matches

_DROP = re.compile(r"[\s\-_·•]+")


def normalize_name(name: str) -> str:
    """The lookup key of a name: NFKC (full-width to half-width), case-folded, without
    spaces, dashes, underscores and middle dots. Dots and slashes are kept, so that
    ``qwen2.5-7b`` and ``qwen2-57b`` stay different."""
    text = unicodedata.normalize("NFKC", str(name)).casefold()
    return _DROP.sub("", text)


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
