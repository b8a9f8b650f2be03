"""Traditional Chinese read as Simplified, one character for one, from the one table
(knowledge/lexicon.yaml ``normalize.traditional``, which the assistant reads questions with).

A contract written in Traditional characters ("乙方有權在不提前通知的情況下回收實例") is read by
every detector as its Simplified twin. The mapping never changes the length of a text, so an
offset in the Simplified text is the same offset in the contract's own text: quotes are cut
from the document as written.
"""

from __future__ import annotations

from functools import lru_cache

from advisor.config import ROOT
from advisor.datafile import read_mapping


@lru_cache(maxsize=1)
def _table() -> dict[int, str]:
    pairs = str(read_mapping(ROOT / "knowledge" / "lexicon.yaml")["normalize"]["traditional"])
    return {ord(a): b for a, b in zip(pairs[0::2], pairs[1::2], strict=True)}


def to_simplified(text: str) -> str:
    """``text`` with every Traditional character of the table replaced by its Simplified one."""
    return text.translate(_table())
