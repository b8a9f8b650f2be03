"""The engine's formulas run on one configuration (the estimate: Python floats) or thousands
(the sweep: numpy arrays). ``of(*values)`` picks the namespace: ``numpy`` when any value is an
array, else :class:`Py`, the few numpy functions the engine uses, in Python floats (a numpy
call costs microseconds per scalar). Same formulas, same IEEE results."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

_SCALARS = (int, float, np.generic)


class Py:
    @staticmethod
    def asarray(x: Any, dtype: Any = float) -> Any:
        return bool(x) if dtype is bool else float(x)

    @staticmethod
    def where(cond: Any, a: Any, b: Any) -> float:
        return float(a) if cond else float(b)

    @staticmethod
    def full_like(_like: Any, value: float) -> float:
        return float(value)

    @staticmethod
    def zeros_like(_like: Any) -> float:
        return 0.0

    @staticmethod
    def logical_not(x: Any) -> bool:
        return not x

    @staticmethod
    def logical_and(a: Any, b: Any) -> bool:
        return bool(a) and bool(b)

    @staticmethod
    def maximum(a: Any, b: Any) -> float:
        return max(float(a), float(b))

    @staticmethod
    def minimum(a: Any, b: Any) -> float:
        return min(float(a), float(b))

    @staticmethod
    def clip(x: Any, lo: float, hi: float) -> float:
        return min(max(float(x), lo), hi)

    @staticmethod
    def sqrt(x: Any) -> float:
        return math.sqrt(x) if x >= 0 else math.nan


def of(*values: Any) -> Any:
    """``Py`` when every value is a scalar, else ``numpy``."""
    for v in values:
        if not isinstance(v, _SCALARS):
            return np
    return Py
