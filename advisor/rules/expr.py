"""The savings expression of a rule: safe arithmetic over facts.

``savings: "cheaper_gpu_saving"`` or ``"max(billing_saving, offpeak_saving) * 0.5"``.
The text is parsed once with :mod:`ast` and only numbers, declared numeric facts,
``+ - * /``, unary minus and the functions ``min max round abs`` are accepted; anything else
(attribute access, subscripts, other calls, strings, comparisons) is rejected when the pack
loads. Evaluation never calls ``eval``.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from advisor.rules.registry import FactRegistry

_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}
_FUNCTIONS: dict[str, tuple[Callable[..., float], int, int]] = {
    # name: (function, least arguments, most arguments)
    "min": (min, 2, 16),
    "max": (max, 2, 16),
    "round": (round, 1, 2),
    "abs": (abs, 1, 1),
}

Evaluator = Callable[[dict[str, Any]], float]


class _Missing(Exception):
    """A fact the expression needs is absent."""


@dataclass(frozen=True)
class Expression:
    source: str
    names: frozenset[str]
    _run: Evaluator

    def evaluate(self, facts: dict[str, Any]) -> float | None:
        """The value, or ``None`` when a fact is missing, a division is by zero or the
        result is not finite (no saving is then claimed)."""
        try:
            value = float(self._run(facts))
        except (_Missing, ZeroDivisionError, OverflowError):
            return None
        return value if math.isfinite(value) else None


_DERIVED: dict[tuple[str, str], tuple[tuple[str, Expression], ...]] = {}
"""The compiled ``derive`` expressions of each fact file version (path, digest)."""


def derive(registry: FactRegistry, facts: dict[str, Any]) -> dict[str, Any]:
    r"""``facts`` and every fact whose registry entry ``derive``\ s it from them (None when one
    it needs is absent or a division is by zero)."""
    key = (registry.path, registry.digest)
    plan = _DERIVED.get(key)
    if plan is None:  # compiled once per fact file and version: derive runs on every tool call
        plan = _DERIVED[key] = tuple((n, parse_expression(s.derive, registry))
                                     for n, s in registry.facts.items() if s.derive)
    return {**facts, **{n: expression.evaluate(facts) for n, expression in plan}}


def parse_expression(text: str, registry: FactRegistry) -> Expression:
    """Parse ``text``; raises :class:`ValueError` with a one-line reason."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("expected an arithmetic expression over facts")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise ValueError(f"not an arithmetic expression ({exc.msg})") from exc
    names: set[str] = set()
    run = _compile(tree.body, registry, names)
    return Expression(text.strip(), frozenset(names), run)


def _compile(node: ast.AST, registry: FactRegistry, names: set[str]) -> Evaluator:
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"only numbers may appear as constants, not {value!r}")
        return lambda facts: value
    if isinstance(node, ast.Name):
        return _name(node.id, registry, names)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        fn = _BINARY[type(node.op)]
        left, right = _compile(node.left, registry, names), _compile(node.right, registry, names)
        return lambda facts: fn(left(facts), right(facts))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _compile(node.operand, registry, names)
        sign = -1 if isinstance(node.op, ast.USub) else 1
        return lambda facts: sign * inner(facts)
    if isinstance(node, ast.Call):
        return _call(node, registry, names)
    raise ValueError(f"{type(node).__name__} is not allowed (use numbers, facts, + - * /, min max round abs)")


def _name(name: str, registry: FactRegistry, names: set[str]) -> Evaluator:
    spec = registry.spec(name)
    if spec is None:
        raise ValueError(f"unknown fact {name!r}: not declared in {registry.path}")
    if spec.type not in ("number", "integer"):
        raise ValueError(f"fact {name!r} is a {spec.type}, not a number")
    names.add(name)

    def look_up(facts: dict[str, Any]) -> float:
        value = facts.get(name)
        if value is None:
            raise _Missing(name)
        return value

    return look_up


def _call(node: ast.Call, registry: FactRegistry, names: set[str]) -> Evaluator:
    if not isinstance(node.func, ast.Name) or node.func.id not in _FUNCTIONS:
        raise ValueError(f"only {', '.join(_FUNCTIONS)} may be called")
    if node.keywords:
        raise ValueError(f"{node.func.id}() takes no keyword arguments")
    fn, least, most = _FUNCTIONS[node.func.id]
    if not least <= len(node.args) <= most:
        raise ValueError(f"{node.func.id}() takes {least} to {most} arguments")
    if node.func.id == "round" and len(node.args) == 2:
        digits = node.args[1]
        if not (isinstance(digits, ast.Constant) and type(digits.value) is int):
            raise ValueError("round()'s digits must be a whole number")
    args = [_compile(a, registry, names) for a in node.args]
    return lambda facts: fn(*(a(facts) for a in args))
