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

from collections.abc import Iterable
from typing import Any

from advisor.assistant.numbers import Figure, close, numbers_in, read_figures

__all__ = ["known_numbers", "ungrounded_figures", "word_numbers"]

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
