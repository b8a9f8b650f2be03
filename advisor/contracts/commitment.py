"""Is a sentence a minimum commitment? A small structural reading with fitted weights.

The sentence is read for its parts (a floor, a quantity, money, a period, a duty, a purchase
or supply verb, who is bound, a shortfall, what argues against: a notice period, insurance, a
ceiling, a denial) and for ordered pairs of parts that stand close together. Each is a 0/1
feature; their weights, the bias and the threshold are data in commitment.yaml, fitted by
scripts/fit_min_commitment.py. The detector reads a sentence above the threshold as a
quantity floor (a "present" hit); whether it is a trap is left to the detector's trap patterns.
The threshold rises with the number of sentences read in the document (``by_length``).
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import Path

from advisor.datafile import read_mapping

PATH = Path(__file__).with_name("commitment.yaml")


class Reader:
    def __init__(self, data: dict) -> None:
        self.parts = {name: re.compile(p, re.IGNORECASE) for name, p in data["parts"].items()}
        self.pairs = [(str(a), str(b), int(n)) for a, b, n in data["pairs"]]
        self.names = [*self.parts, *(f"{a}>{b}" for a, b, _ in self.pairs)]
        fitted = data.get("fitted") or {}
        weights = fitted.get("weights") or {}
        self.weights = [float(weights.get(n, 0.0)) for n in self.names]
        self.bias = float(fitted.get("bias", 0.0))
        self.threshold = float(fitted.get("threshold", 1.0))
        self.by_length = [(int(n), float(t)) for n, t in fitted.get("by_length") or []]

    def features(self, text: str) -> list[int]:
        spans = {name: [(m.start(), m.end()) for m in p.finditer(text)] for name, p in self.parts.items()}
        row = [int(bool(spans[name])) for name in self.parts]
        for a, b, near in self.pairs:
            row.append(int(any(0 <= bs - ae <= near for _, ae in spans[a] for bs, _ in spans[b])))
        return row

    def score(self, text: str) -> float:
        z = self.bias + sum(w for w, x in zip(self.weights, self.features(text), strict=True) if x)
        return 1.0 / (1.0 + math.exp(-z))

    def threshold_for(self, sentences: int) -> float:
        """The score a sentence needs in a document where ``sentences`` sentences were read:
        more chances of a false reading in a long contract ask for a stronger one."""
        return max([self.threshold, *(t for n, t in self.by_length if n <= sentences)])


@lru_cache(maxsize=1)
def reader() -> Reader:
    return Reader(read_mapping(PATH))
