"""Finding texts with placeholders: ``"{cheaper_gpu} saves {cheaper_gpu_saving:money}"``.

A placeholder names a declared fact and optionally a format:

- ``:money`` an amount in the ``currency`` fact (``$12,346``, ``¥3,400``)
- ``:pct``   a share as a percentage (``0.34`` -> ``34%``)
- ``:int``   a whole number with thousands separators
- ``:h``     hours (``36 h``; long spans add days: ``1,200 h (≈50 days)``)

Without a format, numbers are shown with sensible precision, booleans as yes/no (是/否), and
string values through the registry's ``labels`` when it has them (``on_demand`` -> 按需).
Templates are parsed when the pack loads, so an unknown fact or format, or a stray brace,
is a load error rather than a ``{`` left in a manager's report.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from advisor.glossary import term
from advisor.money import format_money
from advisor.rules.registry import FactRegistry

FORMATS = ("money", "pct", "int", "h")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_NAME = re.compile(r"^([a-z][a-z0-9_]*)(?::([a-z]+))?$")


@dataclass(frozen=True)
class Template:
    source: str
    parts: tuple[str | tuple[str, str | None], ...]
    labels: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict, compare=False)

    @property
    def facts(self) -> set[str]:
        return {p[0] for p in self.parts if isinstance(p, tuple)}

    @property
    def needs_currency(self) -> bool:
        return any(isinstance(p, tuple) and p[1] == "money" for p in self.parts)

    def render(self, facts: dict[str, Any], lang: str) -> str:
        currency = facts.get("currency")
        out: list[str] = []
        for part in self.parts:
            if part.__class__ is str:
                out.append(part)  # type: ignore[arg-type]
                continue
            name, fmt = part  # type: ignore[str-unpack]
            value = facts.get(name)
            label = self.labels.get(name, {}).get(value) if value.__class__ is str else None
            out.append(label[lang] if label else format_value(value, fmt, lang, currency))
        return "".join(out)


def parse_template(text: Any, registry: FactRegistry) -> Template:
    """Parse and check a text; raises :class:`ValueError` with a one-line reason."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("expected non-empty text")
    parts: list[str | tuple[str, str | None]] = []
    pos = 0
    for m in _PLACEHOLDER.finditer(text):
        parts.append(text[pos : m.start()])
        pos = m.end()
        found = _NAME.match(m.group(1).strip())
        if not found:
            raise ValueError(f"bad placeholder {m.group(0)!r}: expected {{fact}} or {{fact:format}}")
        name, fmt = found.group(1), found.group(2)
        spec = registry.spec(name)
        if spec is None:
            raise ValueError(f"unknown placeholder {m.group(0)!r}: no fact {name!r} in {registry.path}")
        if fmt is not None and fmt not in FORMATS:
            raise ValueError(f"unknown format {m.group(0)!r} (accepted: {', '.join(FORMATS)})")
        if fmt is not None and spec.type not in ("number", "integer"):
            raise ValueError(f"format :{fmt} in {m.group(0)!r} needs a number; {name!r} is a {spec.type}")
        parts.append((name, fmt))
    parts.append(text[pos:])
    literal = "".join(p for p in parts if isinstance(p, str))
    if "{" in literal or "}" in literal:
        raise ValueError("unbalanced brace: placeholders are {fact} or {fact:format}")
    if any(isinstance(p, tuple) and p[1] == "money" for p in parts) and registry.spec("currency") is None:
        raise ValueError(f":money needs a 'currency' fact in {registry.path}")
    labels = {
        p[0]: registry.facts[p[0]].labels or {} for p in parts if isinstance(p, tuple) and registry.facts[p[0]].labels
    }
    return Template(text, tuple(p for p in parts if p != ""), labels)


def format_value(value: Any, fmt: str | None, lang: str, currency: Any = None) -> str:
    """One placeholder's text."""
    if value.__class__ is str:
        return value
    if value is None:
        return "—"
    if isinstance(value, bool):
        return term("value.yes" if value else "value.no", lang)
    if isinstance(value, str):
        return value
    if fmt == "money":
        if currency in ("USD", "CNY"):
            return format_money(float(value), currency)
        return format_number(value)
    if fmt == "pct":
        pct = float(value) * 100
        return f"{pct:.1f}%" if 0 < abs(pct) < 10 and not pct.is_integer() else f"{pct:,.0f}%"
    if fmt == "int":
        return f"{round(value):,}"
    if fmt == "h":
        return format_hours(float(value), lang)
    return format_number(value)


def format_number(value: float) -> str:
    """``70.0 -> 70``, ``0.4 -> 0.4``, ``0.0123 -> 0.012``, ``12.345 -> 12.3``, ``123456.7 -> 123,457``."""
    x = float(value)
    if x.is_integer() or abs(x) >= 100:
        return f"{x:,.0f}"
    if abs(x) < 0.1:
        return f"{x:.2g}"
    text = f"{x:.1f}" if abs(x) >= 10 else f"{x:.2f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def format_hours(hours: float, lang: str) -> str:
    number = f"{hours:.1f}".rstrip("0").rstrip(".") if abs(hours) < 10 else f"{hours:,.0f}"
    days = hours / 24
    return term("time.hours_about_days" if hours >= 72 else "time.hours", lang, n=number, d=f"{days:,.0f}")
