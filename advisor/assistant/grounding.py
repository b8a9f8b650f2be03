"""Number grounding: an LLM may word the answer, never invent its figures or its inputs.

Two checks, both documented in docs/LLM.md "Number grounding":

- **Answers** (:func:`ungrounded_figures`): every figure in the reply must equal a number of
  this turn's tool results (numeric fields and the figures in their texts), of the user's
  words (this and earlier questions), or of earlier assistant replies — within 1 % or the
  precision it is written with (``$12k`` covers 11,500-12,500). Fractions also count as
  percentages and hours also as days or weeks. Names, paths, dates and list markers are
  not figures (:mod:`advisor.assistant.numbers`). If any figure fails, the caller replaces
  the reply with the templated explanation and marks the turn.
- **Tool arguments** are repaired before a tool runs: :mod:`advisor.assistant.repair`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from advisor.assistant.numbers import Figure, close, numbers_in, read_figures

__all__ = ["known_numbers", "money_numbers", "ungrounded_figures", "word_numbers"]

_CURRENCY = re.compile(r"^(?:US\$|\$|¥|￥|RMB|CNY|USD)")
_CURRENCY_AFTER = re.compile(r"^(?:元|块|万元|亿元|yuan|USD|CNY|RMB|dollars?)", re.I)
_MONEY_KEY = re.compile(
    r"cost|price|total|low|high|budget|sav|fee|spend|waste|amount|overpay|rent|capex|opex|charge|bill|refund|"
    r"deposit|penalt|threshold|per_|monthly|daily|yearly|hourly|median|p10|p90|cheapest|market|quote|money|value",
    re.I,
)

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


def money_numbers(results: Iterable[Any], texts: Iterable[str]) -> list[float]:
    """Numbers a figure written with a currency (``$12``, ``¥8``) may use: the results' money
    fields (by name: cost, price, total, budget, fee …), the amounts written in the results'
    texts (``$1,234``, ``2,547 元``), and the conversation's words — not a count, a memory
    size or a FLOP total that happens to equal it."""
    out: list[float] = []

    def walk(node: Any, key: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, str(k) if not isinstance(v, dict | list) else f"{key}.{k}")
        elif isinstance(node, list | tuple):
            for v in node:
                walk(v, key)
        elif isinstance(node, str):
            for f in read_figures(node):  # amounts written in the report's texts
                after = node[f.start + len(f.text):f.start + len(f.text) + 8].lstrip()
                if _CURRENCY.match(f.text) or _CURRENCY_AFTER.match(after):
                    out.extend(f.values)
        elif isinstance(node, int | float) and not isinstance(node, bool) and _MONEY_KEY.search(key):
            out.append(float(node))

    for r in results:
        walk(r, "")
    out.extend(word_numbers(texts))
    return out


def _grounded(figure: Figure, known: list[float]) -> bool:
    return any(close(v, k, tol) for v, tol in zip(figure.values, figure.tols, strict=True) for k in known)


def ungrounded_figures(answer: str, known: list[float], money: list[float] | None = None) -> list[str]:
    """The figures of ``answer`` that match no known number, as written; with ``money``, a
    figure written with a currency must match one of those."""
    out = []
    for f in read_figures(answer):
        pool = money if money is not None and _CURRENCY.match(f.text) else known
        if not _grounded(f, pool):
            out.append(f.text)
    return out
