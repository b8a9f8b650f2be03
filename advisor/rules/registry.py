"""Fact registries: which facts a domain provides, with their type, unit and meaning.

A rule pack names its domain; every fact it reads must be declared in
``rules/facts/<domain>.yaml``. A typo in a pack then fails when the pack loads, instead of
silently never matching. The registry also gives the host the type to check each fact value
against before it reaches the engine.

File format (the flat form; ``{domain, description, facts: {...}}`` is accepted too)::

    gpu_count: {type: integer, unit: GPUs, description: "cards the job runs on"}
    gpu_tier:  {type: string, values: [flagship, datacenter], description: "..."}
"""

from __future__ import annotations

import hashlib
import math
import os
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from advisor.datafile import Loader
from advisor.errors import InputError, RuleError

FactType = Literal["number", "integer", "boolean", "string"]
FACT_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
# (declared type, Python type) pairs accepted as they are, the common case.
_EXACT = {("number", float), ("number", int), ("integer", int), ("boolean", bool), ("string", str)}
# Field names the engine itself uses in every message; a fact may not take them.
RESERVED = frozenset({"sid", "id"})


class FactSpec(BaseModel):
    """One declared fact. Extra keys (``source``, ``computed``, ``example``) are kept as notes."""

    model_config = ConfigDict(frozen=True, extra="allow")

    type: FactType
    description: str = Field(min_length=1)
    unit: str | None = None
    values: tuple[str, ...] | None = None
    # How texts show a string value: {value: {en: ..., zh: ...}} ("on_demand" -> "按需").
    labels: dict[str, dict[str, str]] | None = None
    # Where the tool that builds the domain's facts reads the value: a dotted path into what
    # it passes (``report.gpu.count``), or an arithmetic ``derive`` over other facts (expr.py).
    reads: str | None = None
    derive: str | None = None


@dataclass(frozen=True)
class FactRegistry:
    domain: str
    path: str
    facts: dict[str, FactSpec]
    digest: str

    def spec(self, name: str) -> FactSpec | None:
        return self.facts.get(name)

    def normalize(self, facts: dict[str, Any], names: frozenset[str]) -> dict[str, Any]:
        """The facts among ``names``, type-checked; missing and ``None`` values are dropped."""
        out: dict[str, Any] = {}
        for name in names & facts.keys():
            value = self.check_value(name, facts[name])
            if value is not None:
                out[name] = value
        return out

    @cached_property
    def _read_paths(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Each ``reads`` path split once: ``read`` runs on every tool call."""
        return tuple((n, tuple(s.reads.split("."))) for n, s in self.facts.items() if s.reads)

    def read(self, sources: dict[str, Any]) -> dict[str, Any]:
        """The facts whose entry says where it ``reads`` them: a dotted path into ``sources``
        (objects by attribute, dicts by key); a path through an absent value reads None."""
        out: dict[str, Any] = {}
        for name, path in self._read_paths:
            value: Any = sources
            for part in path:
                value = value.get(part) if isinstance(value, dict) else getattr(value, part)
                if value is None:
                    break
            out[name] = value
        return out

    def check_value(self, name: str, value: Any) -> Any:
        """``value`` as a plain Python value of the fact's declared type, or :class:`InputError`.

        ``None`` and non-finite numbers count as missing and come back as ``None``.
        """
        if value is None:
            return None
        kind = self.facts[name].type
        if (kind, type(value)) in _EXACT:
            return None if type(value) is float and not math.isfinite(value) else value
        item = getattr(value, "item", None)  # numpy scalars
        if callable(item) and not isinstance(value, str | bool | int | float):
            value = item()
        if kind == "boolean":
            if isinstance(value, bool):
                return value
        elif kind == "string":
            if isinstance(value, str):
                return value
        elif isinstance(value, int | float) and not isinstance(value, bool):
            if isinstance(value, float) and not math.isfinite(value):
                return None
            if kind == "number":
                return value
            if isinstance(value, int) or value.is_integer():
                return int(value)
        raise InputError(f"fact {name}", value, f"{'an' if kind == 'integer' else 'a'} {kind} ({self.path})")


def read_yaml(path: Path, raw: bytes) -> Any:
    """Parse YAML; a syntax error becomes a one-line :class:`RuleError` naming the file."""
    import yaml

    try:
        return yaml.load(raw.decode("utf-8"), Loader=Loader)  # noqa: S506 - a safe loader that refuses a key written twice
    except UnicodeDecodeError as exc:
        raise RuleError(str(path), "not UTF-8 text") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise RuleError(str(path), f"not valid YAML{where}: {problem}") from exc


def parse_registry(path: Path, text_digest: str, data: Any) -> FactRegistry:
    """Validate a registry document; :class:`RuleError` names the file and the fact."""
    domain = path.stem
    if isinstance(data, dict) and isinstance(data.get("facts"), dict) and set(data) <= {
        "domain",
        "description",
        "facts",
    }:
        if data.get("domain") not in (None, domain):
            raise RuleError(str(path), f"domain {data['domain']!r} differs from the file name {domain!r}", field="domain")
        data = data["facts"]
    if not isinstance(data, dict) or not data:
        raise RuleError(str(path), "expected a mapping of fact_name: {type, unit, description}")
    facts: dict[str, FactSpec] = {}
    for name, raw in data.items():
        name = str(name)
        if not FACT_NAME.match(name) or name in RESERVED:
            raise RuleError(str(path), "fact names are lower_snake_case and not sid/id", field=name)
        if isinstance(raw, dict) and "description" not in raw and "meaning" in raw:
            raw = {**raw, "description": raw["meaning"]}
        try:
            spec = FactSpec.model_validate(raw)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"]) or "spec"
            raise RuleError(str(path), f"{where}: {err['msg']}", field=name) from exc
        if spec.values is not None and spec.type != "string":
            raise RuleError(str(path), "values: only string facts list their values", field=name)
        for value, label in (spec.labels or {}).items():
            if spec.type != "string" or (spec.values is not None and value not in spec.values):
                raise RuleError(str(path), f"labels: {value!r} is not a value of this string fact", field=name)
            if set(label) != {"en", "zh"} or not all(isinstance(t, str) and t for t in label.values()):
                raise RuleError(str(path), f"labels: {value!r} needs an en and a zh text", field=name)
        facts[name] = spec
    return FactRegistry(domain=domain, path=str(path), facts=facts, digest=text_digest)


_CACHE: dict[tuple[Path, str], tuple[tuple[int, int], FactRegistry]] = {}


def load_registry(rules_dir: Path, domain: str) -> FactRegistry:
    """The registry of ``domain`` (cached until the file changes)."""
    hit = _CACHE.get((rules_dir, domain))
    where = hit[1].path if hit else str(rules_dir / "facts" / f"{domain}.yaml")
    try:
        st = os.stat(where)
    except FileNotFoundError as exc:
        raise RuleError(where, f"no fact registry for domain {domain!r}") from exc
    key = (st.st_mtime_ns, st.st_size)
    if hit and hit[0] == key:
        return hit[1]
    path = Path(where)
    raw = path.read_bytes()
    registry = parse_registry(path, hashlib.sha256(raw).hexdigest(), read_yaml(path, raw))
    _CACHE[(rules_dir, domain)] = (key, registry)
    return registry
