"""The usage analysis thresholds, read from ``knowledge/catalog/usage_defaults.yaml``.

Every threshold lives in that file with its unit and source, so that a team can adopt its own
policy without touching code, and so that every report can list what it assumed.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from advisor.catalog.defaults import DefaultEntry, Defaults
from advisor.catalog.defaults import load_defaults as read_defaults
from advisor.config import ROOT, catalog_dir
from advisor.errors import DataError
from advisor.findings import Assumption

FILE_NAME = "usage_defaults.yaml"

# The shipped file is the schema: a team's own file defines each of its keys, with a value of the
# same kind (a number, a text or a list of tag keys).
SHIPPED = ROOT / "knowledge" / "catalog" / FILE_NAME


class UsageDefaults(Defaults):
    """The thresholds by dotted key; ``self["utilization.target"]`` is the plain value."""

    @property
    def entries(self) -> dict[str, DefaultEntry]:
        return self._entries

    def __getitem__(self, key: str) -> Any:
        return self.value(key)

    def number(self, key: str) -> float:
        return float(self.value(key))

    def assumption(self, key: str) -> Assumption:
        entry = self.get(key)
        source = entry.source if not entry.note else f"{entry.source} — {entry.note}"
        return Assumption(name=key, value=entry.value, source=source, unit=entry.unit, source_key=f"source.{key}")

    def assumptions(self, keys: list[str] | tuple[str, ...]) -> list[Assumption]:
        return [self.assumption(k) for k in keys]


def load_defaults(path: Path | None = None) -> UsageDefaults:
    """Read and check the defaults file; raises :class:`DataError` naming the key and field."""
    target = path or catalog_dir() / FILE_NAME
    return _load(str(target))


@lru_cache(maxsize=4)
def _load(path: str) -> UsageDefaults:
    read = read_defaults(Path(path))  # {value, unit, source, note?, kind?} per dotted key
    entries = {key: read.get(key) for key in read}
    shipped = entries if Path(path) == SHIPPED else _load(str(SHIPPED)).entries
    missing = [k for k in shipped if k not in entries]
    if missing:
        raise DataError(path, f"missing default {missing[0]!r}", row=missing[0])
    for key, entry in entries.items():
        value, kind = entry.value, shipped.get(key, entry).kind
        if kind == "tags":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise DataError(path, "expected a list of tag keys", row=key, field="value")
        elif kind == "text":
            if not isinstance(value, str) or not value.strip():
                raise DataError(path, f"expected a text, got {value!r}", row=key, field="value")
        elif isinstance(value, bool) or not isinstance(value, int | float):
            raise DataError(path, f"expected a number, got {value!r}", row=key, field="value")
    return UsageDefaults(Path(path), entries)
