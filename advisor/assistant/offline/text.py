"""The question as the slot extractors see it: normalized, with consumed spans blanked out.

Normalization keeps every character at its offset (full-width ASCII to half-width, lower
case, one character for one), so a match in the normalized text is a span of the original
question — that is what :class:`Span` records for explanations and for grounding.
Each extractor *takes* what it matched; the taken characters become a separator that no
later pattern can match, so ``8x7B`` read as a model is not read again as "8 GPUs".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

MAX_QUESTION_CHARS = 1000
"""Characters read for slots and cue words. A typed question is a few hundred characters
at most (the longest in the question sets is ~200); anything longer is pasted material —
a contract (taken whole as ``text``) or a table, which the tools read from files instead.
Keeps parsing linear in the question, not in what was pasted after it."""

BLANK = "\x00"  # not a word, digit or space character: it ends every pattern that meets it

_FULLWIDTH = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}
_FULLWIDTH[0x3000] = ord(" ")  # ideographic space
_FULLWIDTH[ord("，")] = ord(",")
_FULLWIDTH[ord("：")] = ord(":")
_FULLWIDTH[ord("％")] = ord("%")
_FULLWIDTH[ord("～")] = ord("~")


class Span(BaseModel):
    """Which text of the question produced which slot (offsets into the question)."""

    slot: str
    text: str
    start: int
    end: int
    value: Any = None


def normalize(text: str) -> str:
    """Half-width, lower case, same length as ``text``."""
    s = text.translate(_FULLWIDTH)
    lowered = s.lower()
    if len(lowered) == len(s):  # the usual case; a few letters ("İ") lower to two characters
        return lowered
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in s)


_CJK = re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf，。？！：；、（）“”]")  # with full-width punctuation: a Chinese IME
_EN_WORD = re.compile(r"[a-zA-Z]{2,}")


def detect_language(text: str) -> str:
    """``"zh"`` when Chinese carries the question, else ``"en"``.

    Mixed questions ("用8张A100做LoRA微调Llama3-8B要多少钱") are Chinese when the Chinese
    characters are at least half as many as the English words: a Chinese sentence names
    models and GPUs in Latin letters, but an English one rarely has more than a GPU name
    (``昇腾910B``) in Chinese.
    """
    cjk = len(_CJK.findall(text))
    words = len(_EN_WORD.findall(text))
    return "zh" if cjk >= 2 and cjk >= 0.5 * words else "en"


@dataclass
class Scan:
    """A question being read: the original, its normalized form, what is left to read."""

    original: str
    norm: str = ""
    work: str = ""
    spans: list[Span] = field(default_factory=list)
    values: dict[str, Any] = field(default_factory=dict)
    notes: list[dict[str, Any]] = field(default_factory=list)
    limit: int = 0  # where the question ends: a pasted document after it is not read again

    def __post_init__(self) -> None:
        self.norm = normalize(self.original)
        self.work = self.norm
        self.limit = min(len(self.norm), MAX_QUESTION_CHARS)

    @property
    def question(self) -> str:
        """The normalized question without a document pasted after it."""
        return self.norm[: self.limit]

    def end_question_at(self, start: int) -> None:
        """Everything from ``start`` on is a pasted document: stop reading it for slots."""
        self.limit = min(self.limit, start)

    def find(self, pattern: re.Pattern[str]) -> list[re.Match[str]]:
        """All matches of ``pattern`` in what is left (collected before any is taken)."""
        return list(pattern.finditer(self.work, 0, self.limit))

    def first(self, pattern: re.Pattern[str]) -> re.Match[str] | None:
        return pattern.search(self.work, 0, self.limit)

    def take(self, slot: str, value: Any, start: int, end: int, *, keep: bool = False) -> None:
        """Record ``slot = value`` from ``[start, end)`` and blank that text out.

        The first value found for a slot wins (``keep=True`` records a span without
        setting the value, e.g. a second GPU name kept as a candidate).
        """
        self.spans.append(Span(slot=slot, text=self.original[start:end], start=start, end=end, value=value))
        if not keep and slot not in self.values:
            self.values[slot] = value
        self.work = self.work[:start] + BLANK * (end - start) + self.work[end:]

    def note(self, name: str, value: Any, unit: str, source: str) -> None:
        """Record a default the parser used, with its source (shown with the answer)."""
        if all(n["name"] != name for n in self.notes):
            self.notes.append({"name": name, "value": value, "unit": unit, "source": source})

    def window(self, start: int, end: int, before: int = 12, after: int = 8) -> tuple[str, str]:
        """Normalized text just before ``start`` and just after ``end``."""
        return self.norm[max(0, start - before) : start], self.norm[end : end + after]

    def has(self, pattern: re.Pattern[str]) -> bool:
        return pattern.search(self.norm, 0, self.limit) is not None
