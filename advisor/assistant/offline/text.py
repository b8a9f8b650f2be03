"""The question as the slot extractors see it: normalized, with consumed spans blanked out.

Normalization keeps every character at its offset (full-width ASCII to half-width, lower
case, Chinese numerals and English number words as digits padded to their width, 5w as 5万,
polite openings and closings blanked, a typo'd long word fixed; lexicon ``normalize``), so a
match in the normalized text is a span of the original question — that is what :class:`Span`
records for explanations and for grounding — and every slot reader sees one spelling.
Each extractor *takes* what it matched; the taken characters become a separator that no
later pattern can match, so ``8x7B`` read as a model is not read again as "8 GPUs".
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from advisor.assistant.offline.lexicon import lexicon
from advisor.assistant.offline.spelling import sound_alike, spelled
from advisor.numerals import (
    CN_CHARS,
    CN_DIGITS,
    EN_SCALES,
    EN_TENS,
    EN_UNITS,
    en_number_value,
    word_number_value,
)
from advisor.numeric import SUFFIX_SCALE, read_number

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
_FULLWIDTH.update({c: ord(" ") for c in (0xA0, *range(0x2000, 0x200B), 0x202F, 0x205F)})  # other spaces


class Span(BaseModel):
    """Which text of the question produced which slot (offsets into the question)."""

    slot: str
    text: str
    start: int
    end: int
    value: Any = None


_NORM = lexicon()["normalize"]
_FULLWIDTH.update({ord(a): ord(b) for a, b in zip(_NORM["traditional"][0::2], _NORM["traditional"][1::2], strict=True)})
_OPEN = re.compile(_NORM["courtesy"]["open"])
_CLOSE = re.compile(_NORM["courtesy"]["close"])
_REST = int(_NORM["courtesy"]["rest"])
_CN_RUN = re.compile(rf"(?P<w>[零〇一二两俩三四五六七八九十百千][{CN_CHARS}]*)(?:点(?P<f>[零〇一二三四五六七八九]+))?(?P<m>\s*[万亿]+)?")
_CJK_CHAR = re.compile(r"[\u4e00-\u9fff]")
_CN_AFTER = re.compile(_NORM["cn_keep_after"])
_CN_BEFORE = re.compile(_NORM["cn_keep_before"])
_CN_NUMBER_BEFORE = re.compile(_NORM["cn_number_before"])
_CN_NUMBER_AFTER = re.compile(_NORM["cn_number_after"])
_EN_NUMBER = "|".join(sorted((w for w in [*EN_UNITS, *EN_TENS] if w not in _NORM["en_skip"]), key=len, reverse=True))
_EN_SCALE = "|".join(EN_SCALES)
_EN_RUN = re.compile(  # "two dozen", "a hundred", "half a million", "a couple of"
    rf"(?<![a-z])(?:{_EN_NUMBER}|(?:half\s+)?(?:an?|one)(?=[\s-]+(?:{_EN_SCALE}))|(?:a\s+)?(?:couple|pair)\s+of(?=\s+[a-z]))"
    rf"(?:[\s-]+(?:{_EN_NUMBER}|{_EN_SCALE}))*(?![a-z])")
_WAN = re.compile(_NORM["wan"])
_REWRITES = [(re.compile(r["from"]), str(r["to"])) for r in _NORM["rewrite"]]
_APPROXIMATE = [(re.compile(r["from"]), str(r["to"])) for r in _NORM["approximate"]]
_CORRECTED = re.compile(_NORM["corrected"])


def normalize(text: str) -> str:
    """Half-width, lower case, number words as digits, courtesy blanked, typos and sound-alike characters
    fixed (see :func:`aligned`)."""
    return aligned(text)[0]


def aligned(text: str) -> tuple[str, list[int]]:
    """``text`` normalized, and for each of its characters the offset in ``text`` it stands for. Every
    rewrite keeps one character for one, except a word's left-out letter put back (it stands for the
    letter before it)."""
    s = text.translate(_FULLWIDTH)
    lowered = s.lower()
    if len(lowered) != len(s):  # a few letters ("İ") lower to two characters
        lowered = "".join(c.lower() if len(c.lower()) == 1 else c for c in s)
    norm, added = spelled(_numbers(_approximate(sound_alike(_spoken(_courteous(lowered))))), MAX_QUESTION_CHARS)
    at, shift = [], 0
    for i in range(len(norm) + 1):
        shift += i in added
        at.append(i - shift)
    return norm, at


_PUNCTUATED = re.compile(_NORM["spoken"]["punctuated"])
_SPOKEN_PAUSE = re.compile(_NORM["spoken"]["pause"])


def dictated(s: str) -> bool:
    """The question has no clause punctuation: it was dictated ("先包月租1000张H800 跑到一半扩到2000张 扩容部分走阶梯价")."""
    return not _PUNCTUATED.search(s[:MAX_QUESTION_CHARS])


def _spoken(s: str) -> str:
    """A dictated question's pause between Chinese words (lexicon ``normalize.spoken``) read as the comma it stands for."""
    return _SPOKEN_PAUSE.sub(",", s) if dictated(s) else s


def _blank(s: str, start: int, end: int) -> str:
    return s[:start] + " " * (end - start) + s[end:]


def _courteous(s: str) -> str:
    """A polite opening ("请问", "hey,", "老板问：") or closing ("谢谢", "thx") blanked, when more is asked."""
    m = _OPEN.match(s)
    if m and m.end() > m.start() and len(s[m.end():].strip()) >= _REST:
        s = _blank(s, m.start(), m.end())
    m = _CLOSE.search(s)
    if m and m.end() > m.start() and len(s[: m.start()].strip()) >= _REST:
        s = _blank(s, m.start(), m.end())
    return s


def _digits(value: float, width: int, suffixes: tuple[str, ...]) -> str | None:
    """``value`` in digits (with a size suffix if needed) in at most ``width`` characters, padded on the left."""
    for suffix in suffixes:
        scaled = value / SUFFIX_SCALE[suffix] if suffix else value
        shown = f"{scaled:.4f}".rstrip("0").rstrip(".")
        if (scaled >= 1 or not suffix) and abs(float(shown) - scaled) < 1e-9 and len(shown) + len(suffix) <= width:
            return (shown + suffix).rjust(width)
    return None


def _cn_number(s: str, m: re.Match[str]) -> str | None:
    run, whole, frac, magnitude = m.group(0), m.group("w"), m.group("f") or "", (m.group("m") or "").strip()
    before = s[: m.start()].rstrip()[-1:]
    counted = before.isascii() and (before.isalnum() or before in "=:×") and not _CJK_CHAR.match(s[m.end():])
    said = _CN_NUMBER_BEFORE.match(s[m.end():]) or _CN_NUMBER_AFTER.search(s[max(0, m.start() - 4) : m.start()])
    if whole in _NORM["cn_keep_alone"] and not (frac or magnitude or counted or said):
        return None  # 一下, 一天, 从零训练: a word, not a count ("batch 一", 一亿 are numbers)
    if _CN_AFTER.search(s[max(0, m.start() - 3) : m.start()]) or _CN_BEFORE.match(s[m.end():]):
        return None
    if len(whole) > 1 and all(c in CN_DIGITS for c in whole) and not set(whole) & {"零", "〇"}:
        if frac or magnitude or all(CN_DIGITS[a] < CN_DIGITS[b] for a, b in zip(whole, whole[1:], strict=False)):
            return None  # 两三天, 三五张: a range
        return str(CN_DIGITS[whole[0]]) + run[1:]  # 七块五一小时: 五 is a number, 一小时 a word
    value = word_number_value(whole) + (float("0." + "".join(str(CN_DIGITS[c]) for c in frac)) if frac else 0.0)
    value *= word_number_value(magnitude) if magnitude else 1.0  # "三百 亿": one number across the space
    digits = _digits(value, len(run), ("", "万", "亿", "千万", "千亿"))
    if digits and m.start() and s[m.start() - 1].isascii() and s[m.start() - 1].isalnum() and digits[0] != " ":
        return None  # "H20十六卡": digits would join the name before them
    if digits and s[m.end() : m.end() + 1].isascii() and s[m.end() : m.end() + 1].isalnum():
        return None  # "俩A100", "十六H20": or the name after them
    return digits


def _padded(m: re.Match[str], word: str) -> str:
    """``word`` (its groups filled from ``m``) in place of ``m``, right-aligned in its span (``m`` unchanged
    when it is shorter)."""
    word = m.expand(word)
    return word.rjust(len(m.group(0))) if len(m.group(0)) >= len(word) else m.group(0)


def _approximate(s: str) -> str:
    """Approximate numbers as one value (lexicon ``normalize.approximate``): 十几 = 15, 两三天 = 3 days, "a few" = 3."""
    for pattern, word in _APPROXIMATE:
        s = pattern.sub(functools.partial(_padded, word=word), s)
    return s


def approximations(text: str) -> list[str]:
    """Each approximate number of ``text`` and the value it is read as ("十几 → 15")."""
    s, said = text.translate(_FULLWIDTH).lower(), []
    for pattern, word in _APPROXIMATE:
        for m in pattern.finditer(s) if word else ():
            end = m.end() + len(s[m.end():]) - len(s[m.end():].lstrip("十百千万亿"))  # 一二十, 几十万: the whole number
            said.append(f"{s[m.start():end].strip()} → {read_number(_numbers(_padded(m, word) + s[m.end():end])):g}")
    return said


def _en_number(s: str, m: re.Match[str]) -> str | None:
    return _digits(en_number_value(m.group(0)), len(m.group(0)), ("",))


def _numbers(s: str) -> str:
    """Chinese numerals and English number words as digits; 5w as 5万."""
    s = _WAN.sub("万", s)
    readers: tuple[tuple[re.Pattern[str], Callable[[str, re.Match[str]], str | None]], ...] = (
        (_CN_RUN, _cn_number), (_EN_RUN, _en_number))
    for pattern, read in readers:
        for m in reversed(list(pattern.finditer(s))):
            digits = read(s, m)
            if digits is not None:
                s = s[: m.start()] + digits + s[m.end():]
    for pattern, word in _REWRITES:
        s = pattern.sub(functools.partial(_padded, word=word), s)
    return s


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
    at: list[int] = field(default_factory=list)  # the question's offset of each normalized character

    def __post_init__(self) -> None:
        self.norm, self.at = aligned(self.original)
        self.work = self.norm
        for m in _CORRECTED.finditer(self.norm, 0, MAX_QUESTION_CHARS):  # "五百亿——不对，是五十亿": the first is taken back
            self.work = self.work[: m.start("old")] + BLANK * len(m.group("old")) + self.work[m.end("old") :]
        self.limit = min(len(self.norm), MAX_QUESTION_CHARS)
        if said := approximations(self.original[:MAX_QUESTION_CHARS]):
            self.note("approximate", ", ".join(said), "", "read as the middle of what it names, a range of two numerals as its high end")

    @property
    def question(self) -> str:
        """The normalized question without a document pasted after it."""
        return self.norm[: self.limit]

    def end_question_at(self, start: int) -> None:
        """Everything from ``start`` on is a pasted document: stop reading it for slots."""
        self.limit = min(self.limit, start)

    def source(self, start: int, end: int) -> tuple[int, int, str]:
        """The question's offsets and text that normalized ``[start, end)`` was read from."""
        a, b = self.at[start], self.at[end - 1] + 1 if end > start else self.at[start]
        return a, b, self.original[a:b]

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
        a, b, text = self.source(start, end)
        self.spans.append(Span(slot=slot, text=text, start=a, end=b, value=value))
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
