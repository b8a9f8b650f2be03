"""Rule conditions: parsed from YAML, checked against the fact registry, evaluated two ways.

A condition is json-rules-engine style: ``{all: [...]}``, ``{any: [...]}`` or a leaf
``{fact, operator, value}``. The host compiles it to durable-rules' JSON form (the engine
decides whether a rule fires); :func:`matched_leaves` evaluates the same tree in Python to
record which conditions held and with what values (the evidence of a finding). Both follow
one rule: a missing fact matches nothing except ``not_exists``.

``matches`` (a Python regex searched anywhere, case-insensitive) is decided in Python and
handed to the engine as a derived boolean field, because durable's own regexes must match
the whole string and use ``%`` as their escape character.
"""

from __future__ import annotations

import hashlib
import math
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from advisor.rules.registry import FactRegistry, FactSpec

OPERATORS = ("eq", "ne", "lt", "lte", "gt", "gte", "in", "not_in", "exists", "not_exists", "matches")
_TINY = 1.0000000000000002e-300  # the float nearest 1e-300 whose repr has a decimal point
_ORDER_OPS = {"lt": "$lt", "lte": "$lte", "gt": "$gt", "gte": "$gte"}
_TESTS: dict[str, Callable[[Any, Any], Any]] = {
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "lte": operator.le, "gt": operator.gt,
    "gte": operator.ge, "in": lambda a, b: a in b, "not_in": lambda a, b: a not in b}


class ConditionError(ValueError):
    """A condition is malformed; ``field`` is its path inside the rule (``when.all[1].value``)."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(problem)
        self.field = field
        self.problem = problem


@dataclass(frozen=True)
class Leaf:
    fact: str
    operator: str
    value: Any = None
    pattern: re.Pattern[str] | None = None
    slot: str | None = None  # derived engine field that carries the result of `matches`

    def holds(self, facts: dict[str, Any]) -> bool:
        present = facts.get(self.fact) is not None
        if self.operator == "exists":
            return present
        if self.operator == "not_exists":
            return not present
        if not present:
            return False
        if self.pattern is not None:
            return self.pattern.search(str(facts[self.fact])) is not None
        return bool(_TESTS[self.operator](facts[self.fact], self.value))

    def record(self, facts: dict[str, Any]) -> dict[str, Any]:
        value = list(self.value) if isinstance(self.value, tuple) else self.value
        return {"fact": self.fact, "operator": self.operator, "value": value, "actual": facts.get(self.fact)}


@dataclass(frozen=True)
class Group:
    kind: str  # "all" or "any"
    children: tuple[Leaf | Group, ...]

    def holds(self, facts: dict[str, Any]) -> bool:
        test = all if self.kind == "all" else any
        return test(child.holds(facts) for child in self.children)


Node = Leaf | Group


def parse_condition(raw: Any, registry: FactRegistry, where: str, slots: list[Leaf]) -> Node:
    """Parse and check one condition tree; ``matches`` leaves are appended to ``slots``."""
    if not isinstance(raw, dict):
        raise ConditionError(where, "expected {all: [...]}, {any: [...]} or {fact, operator, value}")
    groups = [k for k in ("all", "any") if k in raw]
    if groups:
        kind = groups[0]
        if len(raw) != 1:
            raise ConditionError(where, f"a group holds only {kind!r}; found {sorted(raw)}")
        items = raw[kind]
        if not isinstance(items, list) or not items:
            raise ConditionError(f"{where}.{kind}", "expected a non-empty list of conditions")
        children = tuple(
            parse_condition(item, registry, f"{where}.{kind}[{i}]", slots) for i, item in enumerate(items)
        )
        return Group(kind, children)
    if "fact" not in raw:
        raise ConditionError(where, "expected {all: [...]}, {any: [...]} or {fact, operator, value}")
    extra = sorted(set(raw) - {"fact", "operator", "value"})
    if extra:
        raise ConditionError(f"{where}.{extra[0]}", "unknown key; a condition has fact, operator, value")
    fact = str(raw["fact"])
    spec = registry.spec(fact)
    if spec is None:
        raise ConditionError(f"{where}.fact", f"unknown fact {fact!r}: not declared in {registry.path}")
    op = raw.get("operator")
    if op not in OPERATORS:
        raise ConditionError(f"{where}.operator", f"unknown operator {op!r} (accepted: {', '.join(OPERATORS)})")
    return _leaf(fact, op, raw, spec, f"{where}.value", slots)


def _leaf(fact: str, op: str, raw: dict[str, Any], spec: FactSpec, where: str, slots: list[Leaf]) -> Leaf:
    has_value = "value" in raw
    value = raw.get("value")
    if op in ("exists", "not_exists"):
        if has_value:
            raise ConditionError(where, f"{op} takes no value")
        return Leaf(fact, op)
    if not has_value:
        raise ConditionError(where, f"{op} needs a value")
    if op in _ORDER_OPS:
        if spec.type not in ("number", "integer"):
            raise ConditionError(where, f"{op} compares numbers; fact {fact!r} is a {spec.type}")
        return Leaf(fact, op, _scalar(value, spec, where))
    if op in ("in", "not_in"):
        if not isinstance(value, list) or not value:
            raise ConditionError(where, f"{op} needs a non-empty list")
        return Leaf(fact, op, tuple(_scalar(v, spec, f"{where}[{i}]") for i, v in enumerate(value)))
    if op == "matches":
        if spec.type != "string" or not isinstance(value, str) or not value:
            raise ConditionError(where, f"matches needs a regex and a string fact ({fact!r} is a {spec.type})")
        try:
            pattern = re.compile(value, re.IGNORECASE)
        except re.error as exc:
            raise ConditionError(where, f"invalid regex {value!r}: {exc}") from exc
        # The slot is named by its content, so packs evaluated together in one ruleset never
        # collide (the same fact and pattern in two packs is the same slot, with the same value).
        digest = hashlib.sha256(f"{fact}\0{value}".encode()).hexdigest()[:12]
        leaf = Leaf(fact, op, value, pattern, slot=f"_mt_{digest}")
        slots.append(leaf)
        return leaf
    return Leaf(fact, op, _scalar(value, spec, where))


def _scalar(value: Any, spec: FactSpec, where: str) -> Any:
    kind = spec.type
    ok = False
    if kind == "boolean":
        ok = isinstance(value, bool)
    elif kind == "string":
        ok = isinstance(value, str)
        if ok and spec.values is not None and value not in spec.values:
            raise ConditionError(where, f"{value!r} is not a value of this fact (accepted: {', '.join(spec.values)})")
    elif isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        ok = kind == "number" or float(value).is_integer()
        value = int(value) if kind == "integer" else value
    if not ok:
        article = "an" if kind == "integer" else "a"
        raise ConditionError(where, f"{value!r} is not {article} {kind}")
    return value


def facts_of(node: Node) -> set[str]:
    """Every fact a condition tree names."""
    if isinstance(node, Leaf):
        return {node.fact}
    return set().union(*(facts_of(c) for c in node.children))


def guaranteed(node: Node) -> set[str]:
    """Facts that are certainly present whenever the tree holds."""
    if isinstance(node, Leaf):
        return set() if node.operator == "not_exists" else {node.fact}
    sets = [guaranteed(c) for c in node.children]
    return set().union(*sets) if node.kind == "all" else set.intersection(*sets)


def matched_leaves(node: Node, facts: dict[str, Any]) -> list[Leaf]:
    """The leaves that held, for a tree that holds: all of an ``all``, the true ones of an ``any``."""
    if isinstance(node, Leaf):
        return [node] if node.holds(facts) else []
    out: list[Leaf] = []
    for child in node.children:
        if child.holds(facts):
            out.extend(matched_leaves(child, facts))
    return out


def engine_number(x: Any) -> Any:
    """A number whose JSON durable can parse: its parser rejects an exponent without a
    decimal point (``1e-05``, ``1e+20``). Integral floats become ints; magnitudes below 1e-300
    become ±1e-300 (so they keep their sign against 0); others move up by an ulp or two."""
    if not isinstance(x, float) or 1e-4 <= abs(x) < 1e16 or x == 0:  # repr has no exponent there
        return x
    if 0 < abs(x) < 1e-300:
        return math.copysign(_TINY, x)
    text = repr(x)
    if "e" not in text or "." in text:
        return x
    if x.is_integer():
        return int(x)
    while "e" in text and "." not in text:
        x = math.nextafter(x, math.inf)
        text = repr(x)
    return x


def to_engine(node: Node) -> dict[str, Any]:
    """The durable JSON expression of a condition tree (the part under ``m``)."""
    if isinstance(node, Group):
        parts = [to_engine(c) for c in node.children]
        return parts[0] if len(parts) == 1 else {"$and" if node.kind == "all" else "$or": parts}
    f, op, v = node.fact, node.operator, node.value
    if op == "eq":
        return {f: engine_number(v)}
    if op == "ne":
        return {"$neq": {f: engine_number(v)}}
    if op in _ORDER_OPS:
        return {_ORDER_OPS[op]: {f: engine_number(v)}}
    if op == "in":
        alts = [{f: engine_number(x)} for x in v]
        return alts[0] if len(alts) == 1 else {"$or": alts}
    if op == "not_in":
        alts = [{"$neq": {f: engine_number(x)}} for x in v]
        return alts[0] if len(alts) == 1 else {"$and": alts}
    if op == "exists":
        return {"$ex": {f: 1}}
    if op == "not_exists":
        return {"$nex": {f: 1}}
    return {node.slot: True}  # type: ignore[dict-item]
