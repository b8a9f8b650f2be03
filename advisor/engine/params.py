"""Defaults as the engine sees them: every value it reads is recorded as an Assumption.

The engine never hard-codes a default. It asks ``p("mfu.base")`` and the value, its unit and
its source land in the report's ``assumptions``. Request fields that override a default are
recorded too, with the source "request".
"""

from __future__ import annotations

from typing import Any

from advisor.findings import Assumption

# One Assumption per default entry, shared by every estimate: building a pydantic object per
# key per estimate was a third of the engine's time. Entries are immutable (frozen models).
_ASSUMPTIONS: dict[int, tuple[Any, Assumption]] = {}


def _assumption(key: str, entry: Any) -> Assumption:
    cached = _ASSUMPTIONS.get(id(entry))
    if cached is None or cached[0] is not entry:
        if len(_ASSUMPTIONS) > 4096:  # catalogs reloaded many times: start over
            _ASSUMPTIONS.clear()
        cached = (entry, Assumption(name=key, value=entry.value, unit=entry.unit, source=entry.source,
                                    source_key=f"source.{key}"))
        _ASSUMPTIONS[id(entry)] = cached
    return cached[1]


class Params:
    """Reads engine defaults and remembers which ones a computation used."""

    def __init__(self, defaults: Any) -> None:
        self._defaults = defaults
        self._used: dict[str, Assumption] = {}

    def __call__(self, key: str) -> Any:
        entry = self._defaults.get(key)
        if key not in self._used:
            self._used[key] = _assumption(key, entry)
        return entry.value

    def peek(self, key: str) -> Any:
        """The value without recording it (for sweeps that report their own assumptions)."""
        return self._defaults.get(key).value

    def note(self, name: str, value: Any, source: str, unit: str | None = None, *, key: str | None = None,
             **values: Any) -> None:
        """Record a derived or user-given value (a chosen price, a resolved GPU count...). ``key`` is
        the glossary entry users read as its source, filled with ``values``."""
        self._used[name] = Assumption(name=name, value=value, unit=unit, source=source, source_key=key,
                                      source_values=values)

    def extend(self, used: list[Assumption]) -> None:
        """Record assumptions another computation made (a cached price quote), first use wins."""
        for a in used:
            self._used.setdefault(a.name, a)

    def assumptions(self) -> list[Assumption]:
        return list(self._used.values())
