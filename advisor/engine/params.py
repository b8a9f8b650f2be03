"""Defaults as the engine sees them: every value it reads is recorded as an Assumption.

The engine never hard-codes a default. It asks ``p("mfu.base")`` and the value, its unit and
its source land in the report's ``assumptions``. Request fields that override a default are
recorded too, with the source "request".
"""

from __future__ import annotations

from typing import Any

from advisor.findings import Assumption

# Per defaults object: key -> (value, its Assumption), shared by every estimate. Building a
# pydantic object per key per estimate was a third of the engine's time; entries are immutable.
_TABLES: dict[int, tuple[Any, dict[str, tuple[Any, Assumption]]]] = {}


def _table(defaults: Any) -> dict[str, tuple[Any, Assumption]]:
    cached = _TABLES.get(id(defaults))
    if cached is None or cached[0] is not defaults:
        if len(_TABLES) > 64:  # catalogs reloaded many times: start over
            _TABLES.clear()
        cached = _TABLES[id(defaults)] = (defaults, {})
    return cached[1]


class Params:
    """Reads engine defaults and remembers which ones a computation used."""

    def __init__(self, defaults: Any) -> None:
        self.defaults = defaults
        self._table = _table(defaults)
        self._used: dict[str, Assumption] = {}

    def __call__(self, key: str) -> Any:
        hit = self._table.get(key)
        if hit is None:
            entry = self.defaults.get(key)
            hit = self._table[key] = (entry.value, Assumption(name=key, value=entry.value, unit=entry.unit,
                                                              source=entry.source, source_key=f"source.{key}"))
        if key not in self._used:
            self._used[key] = hit[1]
        return hit[0]

    def peek(self, key: str) -> Any:
        """The value without recording it (for sweeps that report their own assumptions)."""
        return self.defaults.get(key).value

    def note(self, name: str, value: Any, source: str, unit: str | None = None, *, key: str | None = None,
             **values: Any) -> None:
        """Record a derived or user-given value (a chosen price, a resolved GPU count...). ``key`` is
        the glossary entry users read as its source, filled with ``values``."""
        self._used[name] = Assumption(name=name, value=value, unit=unit, source=source, source_key=key,
                                      source_values=values)

    def replay(self, used: list[Assumption]) -> None:
        """Record what another Params recorded (a memoized price quote) as if read here: a default
        keeps its first use, a noted value replaces an earlier one."""
        for a in used:
            hit = self._table.get(a.name)
            if hit is not None and hit[1] is a:
                self._used.setdefault(a.name, a)
            else:
                self._used[a.name] = a

    def assumptions(self) -> list[Assumption]:
        return list(self._used.values())
