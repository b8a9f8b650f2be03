"""Number grounding: an LLM may word the answer, never invent its figures or its inputs.

Two checks, both documented in docs/LLM.md "Number grounding":

- **Answers** (:func:`ungrounded_figures`): every figure in the reply must equal a number of
  this turn's tool results (numeric fields and the figures in their texts), of the user's
  words (this and earlier questions), or of earlier assistant replies — within 1 % or the
  precision it is written with (``$12k`` covers 11,500-12,500). Fractions also count as
  percentages and hours also as days or weeks. Names, paths, dates and list markers are
  not figures (:mod:`advisor.assistant.numbers`). If any figure fails, the caller replaces
  the reply with the templated explanation and marks the turn.
- **Tool arguments** (:func:`ground_args`): a number the model puts into a call must agree
  with the offline parser's reading of the conversation where the parser read that
  argument, and otherwise be traceable to the user's words (through the unit conversions
  the argument names imply: billions, thousands, hours per day/week/month/year, percent)
  or to a documented default, or come from a result an earlier call of the same turn
  returned. Disagreements take the parser's value; untraceable numbers are dropped (the
  tool's default applies). File paths must appear in the user's words.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from advisor.assistant.numbers import Figure, close, numbers_in, read_figures
from advisor.units import HOURS_PER_DAY, HOURS_PER_MONTH, HOURS_PER_YEAR

__all__ = ["ground_args", "known_numbers", "ungrounded_figures", "word_numbers"]

# What a number the user said may become in an argument: the unit conversions the
# argument names of INTERNALS.md "Tool requests" imply (``_b`` = billions, ``_hours``,
# shares 0..1).
_CONVERSIONS = (
    1.0, 1e-9, 1e-6, 1e-3, 1e3, 1e6, 1e9, 1e-2, 1e2,
    HOURS_PER_DAY, 7 * HOURS_PER_DAY, HOURS_PER_MONTH, HOURS_PER_YEAR, 1 / HOURS_PER_MONTH, 1 / HOURS_PER_DAY,
    1 / HOURS_PER_YEAR, 1e4 * 1e-9, 1e8 * 1e-9, 1e4,
)  # fmt: skip
_PATH_KEYS = ("path", "files", "prices_file")


def word_numbers(texts: Iterable[str]) -> list[float]:
    """Every value the figures in ``texts`` may stand for (plain and scaled)."""
    out: list[float] = []
    for text in texts:
        for f in read_figures(text):
            out.extend(f.values)
    return out


def known_numbers(results: Iterable[Any], texts: Iterable[str]) -> list[float]:
    """Numbers an answer may use: tool results and the conversation's words."""
    known = [n for r in results for n in numbers_in(r)]
    known.extend(word_numbers(texts))
    return known


def _grounded(figure: Figure, known: list[float]) -> bool:
    return any(close(v, k, tol) for v, tol in zip(figure.values, figure.tols, strict=True) for k in known)


def ungrounded_figures(answer: str, known: list[float]) -> list[str]:
    """The figures of ``answer`` that match no known number, as written."""
    return [f.text for f in read_figures(answer) if not _grounded(f, known)]


@lru_cache(maxsize=1)
def documented_defaults() -> tuple[float, ...]:
    """Numeric values of knowledge/catalog/defaults.yaml (empty if the catalog is unavailable)."""
    try:
        from advisor.catalog import get_catalog

        defaults = get_catalog().defaults
        values = [defaults.value(k) for k in defaults]
    except Exception:  # noqa: BLE001 - no catalog: only the words and the schema defaults count
        return ()
    return tuple(numbers_in(values))


def _traceable(value: float, said: list[float], defaults: Iterable[float]) -> bool:
    if any(close(value, d) for d in defaults):
        return True
    return any(close(value, s * c, rel=0.005) for s in said for c in _CONVERSIONS)


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def ground_args(
    tool: str,
    args: dict[str, Any],
    *,
    parser_args: dict[str, Any],
    words: list[str],
    schema_defaults: dict[str, Any] | None = None,
    seen: list[float] | None = None,
) -> tuple[dict[str, Any], list[str]]:
    """``args`` with every untraceable number fixed or dropped, and one note per change.

    ``parser_args`` is the offline parser's reading of the conversation projected onto
    ``tool``; ``words`` are the user's messages; ``schema_defaults`` the request model's own
    defaults (``hours_per_day=24``, ``k=5`` ...); ``seen`` the numbers of results this turn's
    earlier calls returned (a recommendation's GPU count may be priced next).
    """
    said = word_numbers(words)
    defaults = [*documented_defaults(), *numbers_in(list((schema_defaults or {}).values())), *(seen or [])]
    text = "\n".join(words)
    fixed: dict[str, Any] = {}
    notes: list[str] = []
    for key, value in args.items():
        if key in _PATH_KEYS:
            paths = value if isinstance(value, list) else [value]
            kept = [p for p in paths if isinstance(p, str) and p in text]
            if len(kept) < len(paths):
                notes.append(f"{tool}.{key}: dropped {', '.join(str(p) for p in paths if p not in kept)} (not named by the user)")
            if kept:
                fixed[key] = kept if isinstance(value, list) else kept[0]
            continue
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            items = []
            for i, item in enumerate(value):  # stages: each one's numbers must be traceable too
                sub, sub_notes = ground_args(f"{tool}.{key}[{i}]", item, parser_args={}, words=words,
                                             schema_defaults=schema_defaults, seen=seen)
                items.append(sub)
                notes.extend(sub_notes)
            fixed[key] = items
            continue
        if not _is_number(value):
            fixed[key] = value
            continue
        theirs: Any = parser_args.get(key)
        if _is_number(theirs):
            if close(float(value), float(theirs), rel=0.005):
                fixed[key] = value
            else:
                fixed[key] = theirs
                notes.append(f"{tool}.{key}: {value:g} replaced by {theirs:g} (the question says so)")
            continue
        if _traceable(float(value), said, defaults):
            fixed[key] = value
        else:
            notes.append(f"{tool}.{key}: dropped {value:g} (not in the question or the documented defaults)")
    return fixed, notes
