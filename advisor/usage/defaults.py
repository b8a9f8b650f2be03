"""The usage analysis thresholds, read from ``knowledge/catalog/usage_defaults.yaml``.

Every threshold lives in that file with its unit and source, so that a team can adopt its own
policy without touching code, and so that every report can list what it assumed.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from advisor.config import ROOT, catalog_dir
from advisor.datafile import data_error, read_mapping
from advisor.errors import DataError
from advisor.findings import Assumption

FILE_NAME = "usage_defaults.yaml"

# The shipped file is the schema: a team's own file defines each of its keys, with a value of the
# same kind (a number, a text or a list of tag keys).
SHIPPED = ROOT / "knowledge" / "catalog" / FILE_NAME


class Default(BaseModel):
    """One default: its value, unit and where it comes from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    value: Any
    unit: str
    source: str
    note: str | None = None
    kind: Literal["number", "text", "tags"] = "number"


class UsageDefaults:
    """The thresholds by dotted key; ``self["utilization.target"]`` is the plain value."""

    def __init__(self, entries: dict[str, Default], path: str) -> None:
        self.entries = entries
        self.path = path

    def __getitem__(self, key: str) -> Any:
        return self.entries[key].value

    def number(self, key: str) -> float:
        return float(self.entries[key].value)

    def assumption(self, key: str) -> Assumption:
        entry = self.entries[key]
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
    raw = read_mapping(Path(path))
    entries: dict[str, Default] = {}
    for key, body in raw.items():
        if not isinstance(body, dict):
            raise DataError(path, "expected {value, unit, source}", row=str(key))
        try:
            entries[str(key)] = Default(**body)
        except ValidationError as exc:
            raise data_error(path, exc, row=str(key)) from exc
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
    return UsageDefaults(entries, path)
